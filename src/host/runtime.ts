/**
 * THE runtime object: everything a host takes from the platform it runs on, in one explicit value
 * handed to `createHost({ runtime })` (and by the host to the engines it creates). A new runtime
 * (Deno, Bun, Workers…) passes `{}` — the web-standard ways: fetch to reach a proxy target,
 * DecompressionStream for compressed bodies, fflate for gzip reads, `fs` required in the options —
 * or the parts it has. Node's is src/node/runtime.ts; the page's is src/sw/engines.ts.
 *
 * The engine-level parts (filesystem factories, the proxy transport, the PostgreSQL store) go to
 * each engine the host creates. The codecs are drop-in faster implementations of a byte format
 * whose output does not depend on them (a bounded inflate, a raw deflate, CRC-32): they are
 * installed process-wide by `useCodecs` (codecs.ts) when a host (or an engine factory of the Node
 * entry) is made with them.
 */
import type { BoundedSyncInflate } from '../core/inflate-bounded.js';
import type { MockApiRuntime } from '../engine/runtime.js';
import type { MockApiOptions } from '../engine/types.js';
import type { Crc32, RawSyncDeflate } from '../tracker/gzip-pieces.js';
import type { CollectorRuntime } from '../tracker/runtime.js';
import type { CollectorOptions } from '../tracker/types.js';

export interface Runtime extends MockApiRuntime, CollectorRuntime {
  /** A synchronous bounded inflate for compressed request bodies (Node: zlib). */
  readonly inflate?: BoundedSyncInflate;
  /** A synchronous raw deflate for the collector's gzip reads (Node: zlib level 1). */
  readonly deflateRaw?: RawSyncDeflate;
  /** CRC-32 for the gzip trailer (Node: zlib.crc32). */
  readonly crc32?: Crc32;
  /** How this runtime adjusts mock API options before the engine is made (the page: proxy → forward). */
  readonly mockOptions?: (options: MockApiOptions) => MockApiOptions;
  /** How this runtime adjusts collector options (the page: plain-JSON reads). */
  readonly collectorOptions?: (options: CollectorOptions) => CollectorOptions;
}

/** Whether `runtime` brings codecs of its own (then codecs.ts is loaded to install them). */
export const hasCodecs = (runtime: Runtime): boolean => runtime.inflate !== undefined || runtime.deflateRaw !== undefined || runtime.crc32 !== undefined;
