/**
 * Reading request bodies with a size limit, the same way in every host.
 *
 * `readBody` enforces the limit while the bytes arrive (413 as soon as it is crossed, never after
 * buffering everything). Hosts that can read faster than a ReadableStream (node:http) attach a
 * reader to the request under `kReadBody`; engines never need to know which host they run in.
 */
import { HttpError } from './errors.js';

/**
 * Host fast path: `request[kReadBody](limit)` resolves the whole body, rejecting with an
 * HttpError(413) once more than `limit` bytes arrive. Optional; `readBody` falls back to the stream.
 */
export const kReadBody = Symbol.for('mockyard.readBody');

/** Host hint: `request[kHasBody]` is true when the request carries a body (even on GET/HEAD). */
export const kHasBody = Symbol.for('mockyard.hasBody');

/**
 * Host hint: the request's headers as a flat `[name, value, name, value…]` array the host already
 * holds (node: `IncomingMessage.rawHeaders`), so observers (the devtools journal) can keep them by
 * reference instead of copying a Headers object on every request.
 */
export const kRawHeaders = Symbol.for('mockyard.rawHeaders');

/**
 * Where `readBody` leaves the bytes it read on the Request (one property write), so observers
 * such as the devtools journal can show a body the engine read without reading a stream again.
 */
export const kBodyBytes = Symbol.for('mockyard.bodyBytes');

function keep(request: Request, bytes: Uint8Array): Uint8Array {
  (request as unknown as Record<symbol, unknown>)[kBodyBytes] = bytes;
  return bytes;
}

/**
 * Bytes the layers after a reader get from `readBody` instead of the (consumed) stream:
 * `replayBody(request, bytes)` — json-server's middlewares read the body (`req.body`) before the
 * layer that stores it, and may change it. Any other second read still fails as a platform
 * Request's does.
 */
const kBodyReplay = Symbol.for('mockyard.bodyReplay');

export function replayBody(request: Request, bytes: Uint8Array): void {
  (request as unknown as Record<symbol, unknown>)[kBodyReplay] = bytes;
  keep(request, bytes);
}

export type BodyReader = (limit: number) => Promise<Uint8Array>;

export function tooLarge(limit: number): HttpError {
  return new HttpError(413, `Request body exceeds the limit of ${limit} bytes`, { details: { limit } });
}

/**
 * Whether the request may carry a body, at once: false when it certainly has none (no body,
 * `Content-Length: 0`). Platform Requests never have one on GET/HEAD; the node host marks such
 * requests with `kHasBody` so the engines can answer the spec's 400. A true answer can still end
 * as zero bytes (an empty chunked body, the empty body msw's worker forwards with DELETE): which
 * is no body; `bodyIfAny` is the rule that decides.
 */
export function hasBody(request: Request): boolean {
  const hint = (request as unknown as Record<symbol, unknown>)[kHasBody];
  if (typeof hint === 'boolean') return hint;
  return request.body !== null && request.headers.get('content-length') !== '0';
}

/**
 * THE has-a-body rule: whether the request carries a body of at least one byte (reading it, at
 * most `limit` bytes: 413 beyond). Zero bytes is none, however it was sent (`Content-Length: 0`,
 * an empty chunked body, an empty stream). A body a host announces (`kHasBody`) on a Request that
 * cannot hold one (GET/HEAD) and offers no reader for counts as present.
 */
export async function carriesBody(request: Request, limit: number): Promise<boolean> {
  if (!hasBody(request)) return false;
  const fast = (request as unknown as Record<symbol, unknown>)[kReadBody];
  if (typeof fast !== 'function' && request.body === null) return true;
  return (await readBody(request, limit)).byteLength > 0;
}

/** Reads the whole body, at most `limit` bytes (HttpError 413 beyond). Empty body → 0 bytes. */
export async function readBody(request: Request, limit: number): Promise<Uint8Array> {
  const kept = (request as unknown as Record<symbol, unknown>)[kBodyReplay];
  if (kept instanceof Uint8Array) {
    if (kept.byteLength > limit) throw tooLarge(limit);
    return kept;
  }
  const fast = (request as unknown as Record<symbol, unknown>)[kReadBody];
  if (typeof fast === 'function') return keep(request, await (fast as BodyReader).call(request, limit));
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > limit) throw tooLarge(limit);
  const body = request.body;
  if (!body) return new Uint8Array(0);
  return keep(request, await readStream(body, limit));
}

/** Collects a byte stream, at most `limit` bytes; cancels the stream and throws 413 beyond. */
export async function readStream(stream: ReadableStream<Uint8Array>, limit: number, onLimit: (limit: number) => Error = tooLarge): Promise<Uint8Array> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        await reader.cancel().catch(() => {});
        throw onLimit(limit);
      }
      chunks.push(value);
    }
  } finally {
    reader.releaseLock();
  }
  return concatBytes(chunks, size);
}

export function concatBytes(chunks: Uint8Array[], size = chunks.reduce((n, c) => n + c.byteLength, 0)): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(size);
  let offset = 0;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.byteLength;
  }
  return out;
}

/** Set by `keepBody`: the bytes a layer already read (what a stream reader must send instead). */
export const kBufferedBody = Symbol.for('mockyard.bufferedBody');

/**
 * After a layer has read the body (the OpenAPI validator), keeps it for the layers after it:
 * `readBody` answers these bytes (413 past a smaller limit), `bufferedBody` gives them to a layer
 * that would otherwise stream `request.body` (the proxy). Own properties: host Requests and
 * platform Requests alike.
 */
export function keepBody(request: Request, bytes: Uint8Array): void {
  const reader: BodyReader = (limit) => (bytes.byteLength > limit ? Promise.reject(tooLarge(limit)) : Promise.resolve(bytes));
  Object.defineProperty(request, kReadBody, { value: reader, configurable: true, writable: true });
  Object.defineProperty(request, kBufferedBody, { value: bytes, configurable: true, writable: true });
}

/** Set by `keepJson`: the JSON value parsed from the kept bytes (with those bytes, to be sure it is theirs). */
const kKeptJson = Symbol.for('mockyard.keptJson');

/**
 * After a layer has parsed the kept body as JSON (`parseJsonBytes`: the OpenAPI validator), keeps
 * the value for the layers after it, so they need not parse it again. Never mutate it.
 */
export function keepJson(request: Request, bytes: Uint8Array, value: unknown): void {
  Object.defineProperty(request, kKeptJson, { value: { bytes, value }, configurable: true, writable: true });
}

/** The JSON value `keepJson` kept for exactly these bytes, or undefined (not parsed yet). */
export function keptJson(request: Request, bytes: Uint8Array): { value: unknown } | undefined {
  const kept = (request as unknown as Record<symbol, { bytes: Uint8Array; value: unknown } | undefined>)[kKeptJson];
  return kept !== undefined && kept.bytes === bytes ? kept : undefined;
}

/** The bytes `keepBody` kept, or undefined (the body is still unread). */
export function bufferedBody(request: Request): Uint8Array | undefined {
  const kept = (request as unknown as Record<symbol, unknown>)[kBufferedBody];
  return kept instanceof Uint8Array ? kept : undefined;
}
