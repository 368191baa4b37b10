/**
 * Node's codecs (node:zlib), part of Node's runtime object (runtime.ts), and the PostgreSQL
 * store's deflater for the pieces it keeps (postgres/bucket-read.ts):
 *   - a synchronous bounded inflate for gzip/deflate request bodies of both engines (zlib stops
 *     once the output would pass `maxOutputLength`), instead of `DecompressionStream`;
 *   - a raw deflate at level 1 ending in a sync flush and CRC-32 for the collector's gzip reads,
 *     instead of fflate and the table-driven CRC.
 */
import { constants, crc32, deflateRawSync, gunzipSync, inflateRawSync, inflateSync } from 'node:zlib';
import type { BoundedSyncInflate } from '../core/inflate-bounded.js';
import type { GzipCodecs } from '../tracker/gzip-pieces.js';

const inflaters = { gzip: gunzipSync, deflate: inflateSync, 'deflate-raw': inflateRawSync } as const;

export const zlibCodecs: GzipCodecs & { readonly inflate: BoundedSyncInflate } = {
  inflate(format, bytes, maxOutput) {
    try {
      return inflaters[format](bytes, { maxOutputLength: maxOutput });
    } catch (err) {
      if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') return undefined;
      throw err;
    }
  },
  deflateRaw: (bytes) => deflateRawSync(bytes, { level: 1, finishFlush: constants.Z_SYNC_FLUSH }),
  crc32: (bytes, crc) => crc32(bytes, crc),
};
