/**
 * `mockyard/browser`: everything a page needs, with no Node built-in and no Node polyfill.
 *
 *   // the engines behind mockyard's own service worker
 *   const worker = await startWorker({ mock: { endpointPrefix: '/api', fs: indexedDbFs('my-app', { seed }), preset: 'json-server' } });
 *   // or a mock API for the app's own msw `setupWorker` (with `handlersFor` from `mockyard/msw`)
 *   const api = createMockApi({ endpointPrefix: '/api', fs: memoryFs(seed), preset: 'json-server' });
 *
 * The tracker client has its own entry, `mockyard/tracker` (nothing of the engines or devtools).
 */
export { startWorker, type StartWorkerOptions, type PageWorker } from '../sw/start-worker.js';
export { createMockApi, type MockApi } from '../engine/create-mock-api.js';
export { defineHandler } from '../engine/define-handler.js';
export { graphql } from '../engine/handler-api/operation-handlers.js';
export { sse, ndjson, textStream, paced, type StreamInit, type Paced } from '../engine/streams/responses.js';
export type { SseEvent } from '../engine/streams/sse-format.js';
export type { StreamControl, StreamSource } from '../engine/streams/iterable-body.js';
export { memoryFs, type MemoryVfs } from '../vfs/memory.js';
export { overlayFs, type OverlayVfs } from '../vfs/overlay.js';
// The db.json driver is loaded on demand (`mock: { db }`); a static export here would put it in every page's start-up chunk.
export type { JsonDbVfs, JsonDbOptions } from '../vfs/json-db.js';
export { indexedDbFs, type IndexedDbFsOptions, type IndexedDbVfs } from '../vfs/indexeddb.js';
export { createCollector } from '../tracker/collector.js';
export { HttpError, isHttpError } from '../core/errors.js';
export { OptionsError } from '../core/options.js';
export type { Engine } from '../core/engine.js';
export type { Exchange, Observer } from '../core/exchange.js';
export type { Vfs, VfsStat, VfsDirent, VfsKind } from '../vfs/types.js';
export type { SeedTree } from '../vfs/seed.js';
export type * from '../engine/public-types.js';
export type { Collector, CollectorOptions } from '../tracker/types.js';
