/**
 * The `mockyard` entry: the engines, `defineConfig`, the filesystems that run everywhere, errors,
 * and the types of the options and of the contracts a custom engine, socket host or event store
 * implements. Host-neutral: it runs in Node, in a service worker and in a page. Under Node the
 * package resolves to index.node.ts, which adds the disk default for the mock API's `fsDir` (the
 * `node` export condition).
 *
 * Every name is listed (no `export *`): what is not here is not public. test/public-api.test.ts
 * writes the surface down.
 *
 * The package entries (package.json `exports`):
 * One place per concept; every name is listed in its entry file (no `export *`), and
 * test/public-api.test.ts writes the whole surface down in test/public-api.snapshot.txt (a change to
 * it is a visible diff). A renamed export is not kept as an alias.
 * - `mockyard`: createMockApi, createCollector, defineHandler, defineConfig, the Vfs drivers that
 *   run everywhere (memoryFs, overlayFs, jsonDbFs), HttpError/OptionsError, the option types, and
 *   the contract types a custom engine or store implements (Engine, SocketPeer/SocketSession/
 *   SocketAccept/UpgradeResult, EventStore/StoreFactory and what they take). Under Node (the
 *   `node` export condition, src/index.node.ts) its createMockApi/createCollector run on Node's
 *   runtime object (disk default for `fsDir`, zlib, undici, PostgreSQL).
 * - `mockyard/node`: serve, createMiddleware, the Vite plugin (`mockyard`), diskFs, postgresStore.
 *   Host internals (request adapters, the upgrade handler, engine assembly, config loading,
 *   init-worker) are not exported.
 * - `mockyard/browser` (src/browser/index.ts): startWorker, indexedDbFs, and what a page needs from
 *   `mockyard` (no Node built-in, no polyfill).
 * - `mockyard/tracker` (src/tracker/client-entry.ts): createTrackerClient alone.
 * - `mockyard/storybook` (src/storybook/index.ts): initialize, mockyardLoader, the devtools toolbar
 *   item (mockyardGlobalTypes, mockyardInitialGlobals, mockyardDecorator): the page worker
 *   (`startPageWorker`, src/sw/start-worker.ts, which also puts the page's requests in a session)
 *   with one private session per story (docs/storybook.md).
 * - `mockyard/playwright`: the Playwright Test fixture (sessions).
 * - `mockyard/fetch` (src/fetch/index.ts): `fetchHandler(config)`, createHost as a standard fetch
 *   handler for Deno, Bun and Workers-style runtimes.
 * - `mockyard/test`: interceptFetch (host-neutral: the test runner's host; fetch replaced in-process,
 *   XMLHttpRequest through @mswjs/interceptors; lazy Request for body-less calls, src/test/). Its
 *   `node` condition (src/test/index.node.ts) adds clients on node:http / node:https (axios, got,
 *   node-fetch v2) through @mswjs/interceptors' ClientRequest interceptor
 *   (src/node/client-request-interception.ts); every interception takes the same route
 *   (src/host/intercept-route.ts).
 * - `mockyard/msw`: handlersFor (msw handlers for apps running their own msw). All msw calls live
 *   in `src/msw/handlers.ts` (http/ws handlers, shared with the worker host) and
 *   `src/sw/msw-adapter.ts` (setupWorker, worker-script check); `src/msw/routes.ts` /
 *   `sockets.ts` are the msw-neutral routing both msw hosts use. msw is an optional peer
 *   (`^2.15 || ^3`).
 */

// The mock API engine, its options and its handlers.
export { createMockApi, type MockApi } from './engine/create-mock-api.js';
export { defineHandler } from './engine/define-handler.js';
export { sse, ndjson, textStream, paced, type StreamInit, type Paced } from './engine/streams/responses.js';
export type { SseEvent } from './engine/streams/sse-format.js';
export type { StreamControl, StreamSource } from './engine/streams/iterable-body.js';
export { graphql, type GraphqlOperationHandler, type GraphqlOperationType, type GraphqlResolver, type GraphqlResolverInput, type GraphqlSubscriptionResolver, type GraphqlAnswer } from './engine/handler-api/operation-handlers.js';
export type * from './engine/public-types.js';
export type { Exchange, Observer, AnsweredBy } from './core/exchange.js';
export type { CorsOptions } from './core/cors.js';
export type { LogLevel, LoggerSink } from './core/logger.js';

// The event collector and its options.
export { createCollector } from './tracker/collector.js';
export type { Collector, CollectorOptions, CollectorCorsOptions, CollectorLimits, CollectorRetention, CollectorStorageOptions, ReadResponse, TrackerEvent } from './tracker/types.js';

// The config file.
export { defineConfig, type MockyardConfig, type MockyardConfigFn } from './define-config.js';

// Filesystems that run in every host (disk: `mockyard/node`; IndexedDB: the browser entry).
export { memoryFs, type MemoryVfs } from './vfs/memory.js';
export { overlayFs, type OverlayVfs } from './vfs/overlay.js';
export { jsonDbFs, type JsonDbVfs, type JsonDbOptions } from './vfs/json-db.js';
export type { Vfs, VfsStat, VfsDirent, VfsKind } from './vfs/types.js';
export type { SeedTree } from './vfs/seed.js';

// Errors.
export { HttpError, isHttpError } from './core/errors.js';
export { OptionsError } from './core/options.js';

// The collection store (`req.app.store`: read and write collection items, atomically, with change events).
export type { CollectionStore, StoreTransaction, StoreChange, ListQuery, ListResult, Item as StoreItem } from './engine/store/store.js';

// Contracts: an engine (and its WebSocket seam), an event store for the collector.
export type { Engine } from './core/engine.js';
export type { SocketAccept, SocketPeer, SocketSession, UpgradeResult } from './core/socket.js';
export type { EventStore, StoreContext, StoreFactory, StoredBatch, StoreSelection, StreamedSelection } from './tracker/store.js';
export type { ValidBatch } from './tracker/ingest-batch.js';
export type { ReadQuery, Selection } from './tracker/read-query.js';
