/**
 * The `mockyard` entry under Node (`node` export condition): everything in index.ts, with the
 * engines made on Node's runtime (src/node/runtime.ts): `fsDir` without `fs` serves that folder
 * from disk, `storage.postgres` works, compressed bodies use zlib.
 */
export * from './index.js';
export { createNodeMockApi as createMockApi, createNodeCollector as createCollector } from './node/engines.js';
