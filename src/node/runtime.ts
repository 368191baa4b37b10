/**
 * Node's runtime object (src/host/runtime.ts): what the Node hosts (serve, middleware, the Vite
 * plugin, the CLI) and the `mockyard` entry under Node hand to the engines. A value, not a side
 * effect: nothing is registered by importing this module.
 *   - the mock API's default filesystem: `fsDir` on disk, resolved against `root` (default: cwd);
 *   - scratch space for `req.app.fs` when an engine has no filesystem: memory;
 *   - native zlib (zlib-codecs.ts) for the collector's gzip reads and for gzip/deflate request
 *     bodies of both engines (synchronous and bounded), instead of fflate and `DecompressionStream`;
 *   - the collector's PostgreSQL store (`storage.postgres`), its code imported on first use, and
 *     its ingest spool on disk (`storage.spool`);
 *   - the proxy layer's transport: an undici connection pool, answers piped;
 *   - `mock.openapi` given by a path: YAML or JSON files (and the files they refer to) read from disk;
 *   - `mock.har` given by a path: the HAR file read at start-up.
 */
import { resolve } from 'node:path';
import type { Runtime } from '../host/runtime.js';
import { diskFs } from '../vfs/disk.js';
import { memoryFs } from '../vfs/memory.js';
import { loadDocumentFile } from './openapi-document.js';
import { readHarFile } from './har-file.js';
import { postgresStore } from './postgres/index.js';
import { DiskSpool } from './tracker-spool.js';
import { undiciTransport } from './upstream-undici.js';
import { zlibCodecs } from './zlib-codecs.js';

export const nodeRuntime: Runtime = {
  defaultFs: (fsDir, root) => diskFs(resolve(root ?? process.cwd(), fsDir)),
  scratchFs: () => memoryFs(),
  ...zlibCodecs,
  postgresStore: (options, name) => postgresStore(options as string, name),
  spool: (settings, { logger }) => new DiskSpool(settings, logger),
  upstream: undiciTransport,
  openApiDocument: loadDocumentFile,
  readHar: readHarFile,
};
