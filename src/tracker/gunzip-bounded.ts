/**
 * Bounded gzip decompression of request bodies, with the web-standard `DecompressionStream`
 * (global in Node ≥ 18 and browsers; native zlib underneath, no library in the bundle).
 *
 * The decompressor has no output cap, so its output is read chunk by chunk and counted: once the
 * total crosses the limit the stream is cancelled and the answer is a 413. The input is fed in
 * small slices with backpressure, so a gzip bomb stops within a few chunks past the limit,
 * never inflating the whole thing.
 *
 * ingest-batch.ts imports this module on the first gzip body: its own chunk in browser bundles,
 * never fetched by a page that sends no gzip.
 */
import { concatBytes } from '../core/body.js';
import { HttpError } from '../core/errors.js';

/** Input slice handed to the decompressor at a time (backpressure keeps it a few slices ahead). */
const SLICE = 16 * 1024;

export function decompressedTooLarge(limit: number): HttpError {
  return new HttpError(413, `Decompressed request body exceeds the limit of ${limit} bytes`, { details: { limit } });
}

/**
 * Optional native bounded gunzip a host may register (the `DecompressionStream` path is the
 * default and works everywhere): inflates all gzip members of `bytes`, returns `undefined` as soon
 * as the output would exceed `maxOutput` bytes, throws on malformed or truncated data. On Node
 * `zlib.gunzipSync(b, { maxOutputLength })` does it synchronously, without the per-request
 * cost of web streams (several times faster on small batches).
 */
export type BoundedSyncGunzip = (bytes: Uint8Array, maxOutput: number) => Uint8Array | undefined;
let hostGunzip: BoundedSyncGunzip | undefined;

export function setBoundedSyncGunzip(gunzip: BoundedSyncGunzip | undefined): void {
  hostGunzip = gunzip;
}

function malformed(err: unknown): HttpError {
  const message = (err as Error | undefined)?.message;
  return new HttpError(400, `Malformed gzip body: ${message || 'invalid data'}`);
}

/** Inflates a gzip body, at most `limit` output bytes (413 beyond); malformed/truncated → 400. */
export async function gunzipBounded(bytes: Uint8Array, limit: number): Promise<Uint8Array> {
  if (bytes.byteLength === 0) throw new HttpError(400, 'Malformed gzip body: unexpected end of data');
  if (hostGunzip) {
    let out: Uint8Array | undefined;
    try {
      out = hostGunzip(bytes, limit);
    } catch (err) {
      throw malformed(err);
    }
    if (out === undefined) throw decompressedTooLarge(limit);
    return out;
  }
  let at = 0;
  const input = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (at >= bytes.byteLength) return controller.close();
      controller.enqueue(bytes.subarray(at, at + SLICE));
      at += SLICE;
    },
  }, { highWaterMark: 0 });
  const reader = input
    .pipeThrough(new DecompressionStream('gzip') as unknown as ReadableWritablePair<Uint8Array, Uint8Array>)
    .getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    let step: ReadableStreamReadResult<Uint8Array>;
    try {
      step = await reader.read();
    } catch (err) {
      throw malformed(err);
    }
    if (step.done) break;
    size += step.value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw decompressedTooLarge(limit);
    }
    chunks.push(step.value);
  }
  return concatBytes(chunks, size);
}
