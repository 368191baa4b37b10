/**
 * The `mockyard` entry: engines, the memory filesystem, errors and types. Host-neutral: it runs in
 * Node, in a service worker and in a page. Under Node the package resolves to index.node.ts, which
 * adds the disk default for the mock API's `fsDir` (the `node` export condition).
 */

export { createMockApi, type MockApi } from './engine/create-mock-api.js';
export type { Exchange, Observer } from './engine/pipeline/run.js';
export type { AnsweredBy } from './engine/context.js';
export { defineHandler } from './engine/define-handler.js';
export { graphql, type GraphqlOperationHandler, type GraphqlResolver, type GraphqlResolverInput, type GraphqlAnswer } from './engine/graphql/operation-handlers.js';
export type { CollectionStore, StoreTransaction, StoreChange, ListQuery, ListResult, Item as StoreItem } from './engine/store/store.js';
export { memoryFs, type MemoryVfs } from './vfs/memory.js';
export { jsonDbFs, type JsonDbVfs, type JsonDbOptions } from './vfs/json-db.js';
export type { CorsOptions } from './core/cors.js';
export { overlayFs, type OverlayVfs } from './vfs/overlay.js';
export { HttpError, isHttpError } from './core/errors.js';
export { OptionsError } from './core/options.js';
export type { Engine } from './core/engine.js';
export type { Vfs, VfsStat, VfsDirent, VfsKind } from './vfs/types.js';
export type * from './engine/types.js';
export { createCollector } from './tracker/collector.js';
export type { Collector, CollectorOptions, CollectorCorsOptions, CollectorLimits, CollectorRetention, CollectorStorageOptions, ReadResponse, TrackerEvent } from './tracker/types.js';
export { defineConfig, type MockyardConfig, type MockyardConfigFn } from './define-config.js';
