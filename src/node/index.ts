/**
 * `mockyard/node`: hosting the engines on Node — the node:http server (`serve`), connect-style
 * middleware (`createMiddleware`) and the Vite plugin (`mockyard`) — and the Node-only stores:
 * the disk filesystem and the collector on PostgreSQL. Every host here runs on Node's runtime
 * object (runtime.ts: the disk default for `fsDir`, zlib, undici, PostgreSQL).
 *
 * Every name is listed: host internals (request adapters, the upgrade handler, engine assembly,
 * config loading, the worker-script writer) stay inside. test/public-api.test.ts writes the
 * surface down.
 */
export { serve, type ServeOptions, type RunningServer } from './serve.js';
export { createMiddleware, type Middleware, type MiddlewareOptions } from './middleware.js';
export { mockyard, type MockyardViteOptions, type ViteLikePlugin, type ViteLikeServer } from './vite.js';
export { diskFs, type DiskVfs } from '../vfs/disk.js';
export { postgresStore, type PostgresStoreOptions } from './postgres/index.js';
