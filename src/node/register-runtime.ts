/**
 * Plugs Node implementations into the host-neutral engines' hooks. Imported for its side effect
 * by the Node entries (index.node.ts, node/index.ts); the browser build leaves it out.
 *   - the mock API's default filesystem: `fsDir` on disk, resolved against `root` (default: cwd);
 *   - scratch space for `req.app.fs` when an engine has no filesystem;
 *   - native zlib for the collector's gzip reads (the pure-JS fflate path stays the default) and
 *     gzip/deflate request bodies of both engines (synchronous and bounded; `DecompressionStream`
 *     stays the default);
 *   - the collector's PostgreSQL store (`storage.postgres`), imported on first use, and its ingest
 *     spool on disk (`storage.spool`);
 *   - the proxy layer's upstream transport: an undici connection pool (fetch stays the
 *     default elsewhere).
 */
import { resolve } from 'node:path';
import { constants, crc32, deflateRawSync, gunzipSync, inflateRawSync, inflateSync } from 'node:zlib';
import { setBoundedSyncInflate } from '../core/inflate-bounded.js';
import { setDefaultFsFactory, setScratchFsFactory } from '../engine/default-fs.js';
import { setOpenApiDocumentLoader } from '../engine/openapi-backend/document-loader.js';
import { setUpstreamTransport } from '../engine/proxy/transport.js';
import { diskFs } from '../vfs/disk.js';
import { memoryFs } from '../vfs/memory.js';
import { setCrc32, setRawSyncDeflate } from '../tracker/gzip-pieces.js';
import { setPostgresStoreResolver } from '../tracker/store.js';
import { setSpoolFactory } from '../tracker/spool.js';
import { DiskSpool } from './tracker-spool.js';
import { loadDocumentFile } from './openapi-document.js';
import { postgresStore } from './postgres/index.js';
import { undiciTransport } from './upstream-undici.js';

setDefaultFsFactory((fsDir, root) => diskFs(resolve(root ?? process.cwd(), fsDir)));
// `req.app.fs` of an engine without a filesystem (`fsDir: null`): scratch space in memory.
setScratchFsFactory(() => memoryFs());
// The collector's gzip reads: native zlib (level 1, sync flush) instead of pure-JS fflate.
setRawSyncDeflate((bytes) => deflateRawSync(bytes, { level: 1, finishFlush: constants.Z_SYNC_FLUSH }));
setCrc32((bytes, crc) => crc32(bytes, crc));
// Compressed request bodies (collector ingest, mock API): zlib stops once the output would pass
// maxOutputLength.
const inflaters = { gzip: gunzipSync, deflate: inflateSync, 'deflate-raw': inflateRawSync } as const;
setBoundedSyncInflate((format, bytes, maxOutput) => {
  try {
    return inflaters[format](bytes, { maxOutputLength: maxOutput });
  } catch (err) {
    if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') return undefined;
    throw err;
  }
});
// The collector's `storage.postgres`: the store's code is imported when a collector loads it.
setPostgresStoreResolver((options, name) => postgresStore(options as string, name));
// The collector's ingest spool: files on disk, fsync'd before a batch is acknowledged.
setSpoolFactory((settings, { logger }) => new DiskSpool(settings, logger));
// The proxy layer's way to its target: undici's Pool, kept-alive connections, answers piped.
setUpstreamTransport(undiciTransport);
// `mock.openapi` given by a path: YAML or JSON files (and the files they refer to) read from disk.
setOpenApiDocumentLoader(loadDocumentFile);
