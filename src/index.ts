/**
 * The `mockyard` entry: the engines, `defineConfig`, the filesystems that run everywhere, errors,
 * and the types of the options and of the contracts a custom engine, socket host or event store
 * implements. Host-neutral: it runs in Node, in a service worker and in a page. Under Node the
 * package resolves to index.node.ts, which adds the disk default for the mock API's `fsDir` (the
 * `node` export condition).
 *
 * Every name is listed (no `export *`): what is not here is not public. test/public-api.test.ts
 * writes the surface down.
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
