/**
 * What the collector takes from the runtime it runs on, handed to it explicitly
 * (`createCollector(options, runtime)`; hosts pass their runtime object, src/host/runtime.ts).
 * Without a part, the option that needs it is refused with a message saying where it works.
 */
import type { BoundedSyncInflate } from '../core/inflate-bounded.js';
import type { DefaultFsFactory } from '../vfs/default-fs.js';
import type { Crc32, RawSyncDeflate } from './gzip-pieces.js';
import type { SpoolFactory } from './spool.js';
import type { PostgresStoreResolver } from './store.js';

export interface CollectorRuntime {
  /** The filesystem for `storageDir` (Node: a disk folder). */
  readonly defaultFs?: DefaultFsFactory;
  /** Turns `storage.postgres` into a store (Node only). */
  readonly postgresStore?: PostgresStoreResolver;
  /** The ingest spool of a database store (`storage.spool`; Node: files on disk, fsync'd). */
  readonly spool?: SpoolFactory;
  /** A synchronous bounded inflate for gzip ingest bodies (Node: zlib); without it `DecompressionStream`. */
  readonly inflate?: BoundedSyncInflate;
  /** A synchronous raw deflate for gzip reads (Node: zlib level 1); without it fflate (gzip-pieces.ts). */
  readonly deflateRaw?: RawSyncDeflate;
  /** CRC-32 for the gzip trailer (Node: zlib.crc32); without it a table-driven one. */
  readonly crc32?: Crc32;
}
