/**
 * Turning an engine's answer into what the page must receive through the service worker.
 *
 * A Response built in the worker reaches the page as it is: the browser never decodes its
 * `Content-Encoding` (that happens only for bytes coming off the network). So an engine answer
 * with `Content-Encoding: gzip` (the collector's read response, a handler that compresses) would
 * hand the page raw gzip. The host therefore decodes such bodies with `DecompressionStream` and
 * drops `Content-Encoding` / `Content-Length`: the page gets exactly what it would get from the
 * node host after the browser's own decoding. Engines stay unchanged and host-neutral.
 */
import { toNativeResponse } from '../core/fast-response.js';

const DECODABLE = new Set(['gzip', 'x-gzip', 'deflate']);

export function toPageResponse(response: Response): Response {
  const native = toNativeResponse(response);
  const encoding = native.headers.get('content-encoding')?.trim().toLowerCase();
  if (!encoding || encoding === 'identity' || !native.body) return native;
  if (!DECODABLE.has(encoding)) return native; // br/zstd/stacked codings: passed on untouched
  const format: CompressionFormat = encoding === 'deflate' ? 'deflate' : 'gzip';
  const headers = new Headers(native.headers);
  headers.delete('content-encoding');
  headers.delete('content-length');
  const body = native.body.pipeThrough(new DecompressionStream(format) as unknown as ReadableWritablePair<Uint8Array, Uint8Array>);
  return new Response(body, { status: native.status, statusText: native.statusText, headers });
}
