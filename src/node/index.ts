/**
 * `mockyard/node`: hosting the engines on Node — the node:http server (`serve`), connect-style
 * middleware and the Vite plugin, config loading for the CLI, and the disk filesystem. Every host
 * here runs on Node's runtime object (runtime.ts: the disk default for `fsDir`, zlib, undici).
 */

export { serve, baseUrl, type ServeOptions, type RunningServer } from './serve.js';
export { createMiddleware, middlewareFor, type Middleware, type MiddlewareOptions, type NextFunction } from './middleware.js';
export { mockyard, type MockyardViteOptions, type ViteLikePlugin, type ViteLikeServer } from './vite.js';
export { createUpgradeHandler, type UpgradeHandler } from './upgrade.js';
export { createNodeRequest } from './request.js';
export { writeResponse } from './write-response.js';
export { resolveEngines, type EngineSources } from './engines.js';
export { findConfigFile, loadConfigFile, CONFIG_NAMES } from './config.js';
export { initWorker } from './init-worker.js';
export { defineConfig, type MockyardConfig } from '../define-config.js';
export { diskFs, type DiskVfs } from '../vfs/disk.js';
export { postgresStore, type PostgresStoreOptions } from './postgres/index.js';
