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
import { fastState, toNativeResponse } from '../core/fast-response.js';

const DECODABLE = new Set(['gzip', 'x-gzip', 'deflate']);

/**
 * `signal` is the page's request signal: once it aborts, a streamed body (an event stream, a
 * proxied answer) ends with the abort error and the engine's stream is cancelled, as the network
 * does for a fetch aborted mid-body (in-process hosts have no socket whose closing would tell).
 */
export function toPageResponse(response: Response, signal?: AbortSignal): Response {
  const streamed = signal !== undefined && fastState(response) === undefined && response.body !== null;
  const native = toNativeResponse(response);
  const encoding = native.headers.get('content-encoding')?.trim().toLowerCase();
  let out = native;
  if (encoding && encoding !== 'identity' && native.body && DECODABLE.has(encoding)) {
    // br/zstd/stacked codings are passed on untouched
    const format: CompressionFormat = encoding === 'deflate' ? 'deflate' : 'gzip';
    const headers = new Headers(native.headers);
    headers.delete('content-encoding');
    headers.delete('content-length');
    const body = native.body.pipeThrough(new DecompressionStream(format) as unknown as ReadableWritablePair<Uint8Array, Uint8Array>);
    out = new Response(body, { status: native.status, statusText: native.statusText, headers });
  }
  return streamed ? followingSignal(out, signal) : out;
}

/** The response whose body ends (abort error, source cancelled) when `signal` aborts. */
function followingSignal(response: Response, signal: AbortSignal): Response {
  if (response.body === null) return response;
  if (signal.aborted) {
    response.body.cancel(signal.reason).catch(() => {}); // the page left before the answer: the engine's stream ends now
    return response;
  }
  const reader = response.body.getReader();
  let onAbort = () => {};
  const body = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        onAbort = () => {
          const reason = signal.reason ?? new DOMException('This operation was aborted', 'AbortError');
          controller.error(reason);
          reader.cancel(reason).catch(() => {});
        };
        signal.addEventListener('abort', onAbort, { once: true });
      },
      async pull(controller) {
        try {
          const { done, value } = await reader.read();
          if (done) {
            signal.removeEventListener('abort', onAbort);
            controller.close();
          } else controller.enqueue(value);
        } catch (err) {
          signal.removeEventListener('abort', onAbort);
          if (!signal.aborted) controller.error(err);
        }
      },
      cancel(reason) {
        signal.removeEventListener('abort', onAbort);
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}
