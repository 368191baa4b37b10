/**
 * Bounded decompression of request bodies (gzip, deflate): THE one module, for every engine.
 * The web-standard `DecompressionStream` does the work (global in Node ≥ 18 and browsers; native
 * zlib underneath, no library in the bundle).
 *
 * The decompressor has no output cap, so its output is read chunk by chunk and counted: once the
 * total crosses the limit the stream is cancelled and the answer is a 413. The input is fed in
 * small slices with backpressure, so a gzip bomb stops within a few chunks past the limit,
 * never inflating the whole thing.
 *
 * Callers import this module on the first compressed body (dynamic `import()`): its own chunk in
 * browser bundles, never fetched by a page that sends no compressed body.
 */
import { concatBytes } from './body.js';
import { HttpError } from './errors.js';

/**
 * `gzip` (RFC 1952), `deflate` (HTTP's deflate: zlib-wrapped, RFC 1950) and `deflate-raw`
 * (RFC 1951 without the wrapper, which some clients send as `deflate`).
 */
export type InflateFormat = 'gzip' | 'deflate' | 'deflate-raw';

/** Input slice handed to the decompressor at a time (backpressure keeps it a few slices ahead). */
const SLICE = 16 * 1024;

export function decompressedTooLarge(limit: number): HttpError {
  return new HttpError(413, `Decompressed request body exceeds the limit of ${limit} bytes`, { details: { limit } });
}

/**
 * Optional native bounded inflate a runtime may give (`inflate` in the runtime object, handed to
 * the engines it makes; the `DecompressionStream` path is the default and works everywhere): inflates `bytes` in `format` (all members, for gzip), returns
 * `undefined` as soon as the output would exceed `maxOutput` bytes, throws on malformed or
 * truncated data. On Node, `zlib.gunzipSync(b, { maxOutputLength })` and its inflate siblings do
 * it synchronously, without the per-request cost of web streams (several times faster on small
 * bodies).
 */
export type BoundedSyncInflate = (format: InflateFormat, bytes: Uint8Array, maxOutput: number) => Uint8Array | undefined;

/** The label used in messages: `gzip` or `deflate`. */
function label(format: InflateFormat): string {
  return format === 'gzip' ? 'gzip' : 'deflate';
}

function malformed(format: InflateFormat, err: unknown): HttpError {
  const message = (err as Error | undefined)?.message;
  return new HttpError(400, `Malformed ${label(format)} body: ${message || 'invalid data'}`);
}

/**
 * HTTP `deflate` is meant to be zlib-wrapped, but some clients send a raw deflate stream: a zlib
 * header is two bytes with compression method 8 whose big-endian value is a multiple of 31.
 */
function deflateFormat(bytes: Uint8Array): InflateFormat {
  const cmf = bytes[0]!;
  const flg = bytes[1] ?? 0;
  return (cmf & 0x0f) === 8 && ((cmf << 8) | flg) % 31 === 0 ? 'deflate' : 'deflate-raw';
}

/** Inflates a gzip body, at most `limit` output bytes (413 beyond); malformed/truncated → 400. */
export function gunzipBounded(bytes: Uint8Array, limit: number, native?: BoundedSyncInflate): Promise<Uint8Array> {
  return inflateBounded(bytes, 'gzip', limit, native);
}

/**
 * Inflates a body in `format` (`deflate` also accepts a raw deflate stream), at most `limit`
 * output bytes (413 beyond); malformed or truncated data → 400. `native`: the runtime's inflate,
 * else `DecompressionStream`.
 */
export async function inflateBounded(bytes: Uint8Array, format: InflateFormat, limit: number, native?: BoundedSyncInflate): Promise<Uint8Array> {
  if (bytes.byteLength === 0) throw new HttpError(400, `Malformed ${label(format)} body: unexpected end of data`);
  if (format === 'deflate') format = deflateFormat(bytes);
  if (native) {
    let out: Uint8Array | undefined;
    try {
      out = native(format, bytes, limit);
    } catch (err) {
      throw malformed(format, err);
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
    .pipeThrough(new DecompressionStream(format as CompressionFormat) as unknown as ReadableWritablePair<Uint8Array, Uint8Array>)
    .getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    let step: ReadableStreamReadResult<Uint8Array>;
    try {
      step = await reader.read();
    } catch (err) {
      throw malformed(format, err);
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
