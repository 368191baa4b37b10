/**
 * THE runtime object: everything a host takes from the platform it runs on, in one explicit value
 * handed to `createHost({ runtime })` (and by the host to the engines it creates). A new runtime
 * (Deno, Bun, Workers…) passes `{}` — the web-standard ways: fetch to reach a proxy target,
 * DecompressionStream for compressed bodies, fflate for gzip reads, `fs` required in the options —
 * or the parts it has. Node's is src/node/runtime.ts; the page's is src/sw/engines.ts.
 *
 * Every part goes to each engine the host creates (`createMockApi(options, runtime)`,
 * `createCollector(options, runtime)`), nothing into module state: filesystem factories, the proxy
 * transport, the PostgreSQL store, and the codecs — drop-in faster implementations of a byte
 * format (a bounded inflate for compressed request bodies, a raw deflate and CRC-32 for the
 * collector's gzip reads), so two hosts in one process on different runtimes keep their own.
 */
import type { MockApiRuntime } from '../engine/runtime.js';
import type { MockApiOptions } from '../engine/mock-api-options.js';
import type { CollectorRuntime } from '../tracker/runtime.js';
import type { CollectorOptions } from '../tracker/types.js';

export interface Runtime extends MockApiRuntime, CollectorRuntime {
  /** How this runtime adjusts mock API options before the engine is made (the page: proxy → forward). */
  readonly mockOptions?: (options: MockApiOptions) => MockApiOptions;
  /** How this runtime adjusts collector options (the page: plain-JSON reads). */
  readonly collectorOptions?: (options: CollectorOptions) => CollectorOptions;
}
