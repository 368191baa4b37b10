/**
 * Bounded gzip decompression of request bodies (fflate's streaming Gunzip, pure JS, every host).
 *
 * fflate has no output cap, so the input is fed in small slices and the output counted as it
 * appears: a gzip bomb stops within one slice's expansion (at most ~1032× of 4 KiB) past the limit
 * with a 413, never inflating the whole thing.
 */
import { Gunzip } from 'fflate';
import { concatBytes } from '../core/body.js';
import { HttpError } from '../core/errors.js';

const SLICE = 4096;
const OVER = Symbol('over-limit');

export function isGzipMagic(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
}

export function decompressedTooLarge(limit: number): HttpError {
  return new HttpError(413, `Decompressed request body exceeds the limit of ${limit} bytes`, { details: { limit } });
}

/** Inflates a gzip body, at most `limit` output bytes (413 beyond); malformed/truncated → 400. */
export function gunzipBounded(bytes: Uint8Array, limit: number): Uint8Array {
  const chunks: Uint8Array[] = [];
  let size = 0;
  let ended = false;
  const gunzip = new Gunzip((chunk, final) => {
    size += chunk.byteLength;
    if (size > limit) throw OVER;
    chunks.push(chunk);
    if (final) ended = true;
  });
  try {
    for (let i = 0; i < bytes.length; i += SLICE) {
      const end = i + SLICE >= bytes.length;
      gunzip.push(bytes.subarray(i, i + SLICE), end);
    }
    if (bytes.length === 0) gunzip.push(bytes, true);
  } catch (err) {
    if (err === OVER) throw decompressedTooLarge(limit);
    throw new HttpError(400, `Malformed gzip body: ${(err as Error).message || 'invalid data'}`);
  }
  if (!ended) throw new HttpError(400, 'Malformed gzip body: unexpected end of data');
  return concatBytes(chunks, size);
}
