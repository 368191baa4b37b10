/**
 * How the collector encodes its reads, settled while it starts. The encoders are imported here
 * on demand, before the collector is `ready`: their own chunks in browser bundles, never fetched
 * by a collector that does not need them (the page's default, readCompression 'none').
 *
 *   plain     the embedded store, plain JSON: no gzip asked for, or the gzip encoder could not
 *             be loaded (a warning says so)
 *   gzip      the embedded store with the gzip encoder (read-encoder.ts: cached gzip hours)
 *   streamed  a store that streams its reads (PostgreSQL): read-stream.ts
 *   broken    read-stream.ts could not be loaded: the collector answers 503
 *
 * If only the deflater (the runtime's native one, else fflate) cannot be loaded, gzip reads are
 * written without compression (stored blocks).
 */
import type { Logger } from '../core/logger.js';
import type { VfsEventStore } from './event-store.js';
import type { GzipCodecs } from './gzip-pieces.js';
import type { ReadEncoder } from './read-encoder.js';

export type ReadEncoding =
  | { name: 'plain' }
  | { name: 'gzip'; module: typeof import('./read-encoder.js'); encoder: ReadEncoder }
  | { name: 'streamed'; module: typeof import('./read-stream.js') }
  | { name: 'broken'; error: unknown };

const noDeflater = (logger: Logger) => (err: unknown) => logger.warn(`tracker: could not load the gzip deflater, reads are gzip without compression: ${(err as Error)?.message ?? err}`);

/**
 * `indexed`: the embedded store (its reads are synchronous selections), else the store streams.
 * `codecs`: the runtime's native deflater and CRC-32, if it has them.
 */
export async function loadReadEncoding(indexed: VfsEventStore | undefined, gzipReads: boolean, logger: Logger, codecs: GzipCodecs = {}): Promise<ReadEncoding> {
  if (!indexed) {
    try {
      const m = await import('./read-stream.js');
      if (gzipReads) await m.prepareDeflater(codecs, noDeflater(logger));
      return { name: 'streamed', module: m };
    } catch (error) {
      logger.error(`tracker: could not load the streamed read encoder: ${(error as Error)?.message ?? error}`);
      return { name: 'broken', error };
    }
  }
  if (!gzipReads) return { name: 'plain' };
  let m: typeof import('./read-encoder.js');
  try {
    m = await import('./read-encoder.js');
  } catch (err) {
    logger.warn(`tracker: could not load the gzip read encoder, reads are plain JSON: ${(err as Error)?.message ?? err}`);
    return { name: 'plain' };
  }
  await m.prepareDeflater(codecs, noDeflater(logger));
  return { name: 'gzip', module: m, encoder: new m.ReadEncoder(indexed, codecs) };
}
