/**
 * Request bodies with a `Content-Encoding`, the same way in every host (the mock API's rule):
 *   - none or `identity`: the bytes as sent;
 *   - `gzip` (`x-gzip`) and `deflate`, also listed in sequence (`gzip, gzip`): decoded, bounded
 *     by the body limit twice over: the bytes on the wire (413 while they arrive) and the
 *     decoded bytes (413 `Decompressed request body exceeds the limit…` as soon as the output
 *     passes it; a gzip bomb never inflates);
 *   - any other coding (`br`, `zstd`, …): 415 naming it, with `Accept-Encoding: gzip, deflate`
 *     (RFC 7694), before a byte is read.
 * The decompressor (inflate-bounded.ts) is imported on the first compressed body.
 */
import { readBody } from './body.js';
import { HttpError } from './errors.js';
import type { BoundedSyncInflate } from './inflate-bounded.js';

/**
 * Host hint: `request[kBodyDecoded]` is true when the host already removed the content codings
 * (an earlier middleware such as `express.json()` read and inflated the body), so the
 * `Content-Encoding` header no longer describes the bytes `readBody` returns.
 */
export const kBodyDecoded = Symbol.for('mockyard.bodyDecoded');

const SUPPORTED = 'gzip, deflate';

/** The codings of a Content-Encoding value, in the order they were applied (identity dropped). */
export function contentCodings(header: string | null): string[] {
  if (header === null) return [];
  const out: string[] = [];
  for (const part of header.split(',')) {
    const c = part.trim().toLowerCase();
    if (c !== '' && c !== 'identity') out.push(c === 'x-gzip' ? 'gzip' : c);
  }
  return out;
}

/** The codings to undo for `request`, in application order; 415 for an unknown one. */
export function requestCodings(request: Request): string[] {
  if ((request as unknown as Record<symbol, unknown>)[kBodyDecoded] === true) return [];
  const codings = contentCodings(request.headers.get('content-encoding'));
  for (const c of codings) {
    if (c !== 'gzip' && c !== 'deflate') {
      throw new HttpError(415, `Unsupported Content-Encoding "${c}" (supported: ${SUPPORTED})`, { headers: { 'Accept-Encoding': SUPPORTED } });
    }
  }
  return codings;
}

/**
 * Reads the whole body with its content codings undone: at most `limit` bytes on the wire and
 * `limit` bytes decoded (413 beyond either); unknown coding → 415; malformed data → 400.
 * `inflate`: the runtime's native inflate (runtime object), else `DecompressionStream`.
 */
export async function readDecodedBody(request: Request, limit: number, inflate?: BoundedSyncInflate): Promise<Uint8Array> {
  const codings = requestCodings(request);
  return decodeCodings(await readBody(request, limit), codings, limit, inflate);
}

/**
 * The body bytes `readBody` gave (as sent: what a layer keeps for the ones after it, the proxy
 * included) with the request's content codings undone, as `readDecodedBody` does.
 */
export async function decodedBody(request: Request, bytes: Uint8Array, limit: number, inflate?: BoundedSyncInflate): Promise<Uint8Array> {
  return decodeCodings(bytes, requestCodings(request), limit, inflate);
}

async function decodeCodings(bytes: Uint8Array, codings: string[], limit: number, inflate?: BoundedSyncInflate): Promise<Uint8Array> {
  if (codings.length === 0 || bytes.byteLength === 0) return bytes;
  const { inflateBounded } = await import('./inflate-bounded.js');
  for (let i = codings.length - 1; i >= 0; i--) bytes = await inflateBounded(bytes, codings[i] as 'gzip' | 'deflate', limit, inflate);
  return bytes;
}
