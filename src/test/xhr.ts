/**
 * `XMLHttpRequest` for interceptFetch, through @mswjs/interceptors' XMLHttpRequestInterceptor
 * (maintained by the msw team, already what msw runs on). XHR is a large API (ready states,
 * progress and load events, `responseType`, upload events, abort, timeouts, sync mode) that
 * axios and older clients rely on in detail; a hand-written adapter would re-implement it less
 * well. The interceptor is applied only where the environment has an `XMLHttpRequest` (happy-dom,
 * jsdom, a page): vitest's `node` environment has none, so nothing is patched there.
 */
import { getRawRequest } from '@mswjs/interceptors';
import { XMLHttpRequestInterceptor } from '@mswjs/interceptors/XMLHttpRequest';

import type { InterceptRoute } from '../host/intercept-route.js';

/**
 * The request as the engines get it: with a signal that aborts when the page calls `abort()` on
 * its XMLHttpRequest, also while the answer's body is still being delivered, so a stream or a
 * proxied exchange ends as for an aborted fetch. The interceptor's own Request has no signal,
 * and the page's XMLHttpRequest is never sent for real, so nothing else tells of an abort:
 * `abort` is wrapped on this one instance (on the instance: setting it through the interceptor's
 * proxy would land on the prototype).
 */
function withAbortSignal(request: Request): Request {
  const xhr = getRawRequest(request) as XMLHttpRequest | undefined;
  if (xhr === undefined || typeof xhr.abort !== 'function') return request;
  const controller = new AbortController();
  const abort = xhr.abort;
  Object.defineProperty(xhr, 'abort', {
    configurable: true,
    writable: true,
    value(this: XMLHttpRequest) {
      controller.abort(new DOMException('The XMLHttpRequest was aborted', 'AbortError'));
      return abort.call(this);
    },
  });
  return new Request(request, { signal: controller.signal });
}

/**
 * The answer as the interceptor delivers it: once the page aborts, the engine's body is cancelled
 * (a stream behind it ends, as for an aborted fetch) and the interceptor reads nothing more, so
 * the aborted XMLHttpRequest gets no load event (the interceptor reads a whole body before its
 * first event, and an errored one would be its unhandled failure).
 */
function stopsOnAbort(response: Response, signal: AbortSignal): Response {
  const source = response.body;
  if (source === null) return response;
  const reader = source.getReader();
  const never = () => new Promise<void>(() => {});
  const cancel = () => void reader.cancel(signal.reason).catch(() => {});
  if (signal.aborted) cancel();
  else signal.addEventListener('abort', cancel, { once: true });
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (signal.aborted) return never();
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (err) {
        if (signal.aborted) return never();
        throw err;
      }
      if (signal.aborted) return never();
      if (chunk.done) controller.close();
      else controller.enqueue(chunk.value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}

/** Starts intercepting; returns the function that stops. Does nothing without `XMLHttpRequest`. */
export function interceptXhr(route: InterceptRoute): (() => void) | undefined {
  if (typeof (globalThis as { XMLHttpRequest?: unknown }).XMLHttpRequest !== 'function') return undefined;
  const interceptor = new XMLHttpRequestInterceptor();
  interceptor.on('request', async ({ request, controller }) => {
    if (!route.claims(new URL(request.url))) {
      const error = route.unhandled(request);
      if (error) controller.errorWith(error);
      return;
    }
    const signalled = withAbortSignal(request);
    const response = await route.answer(signalled);
    // Answered even when aborted meanwhile: a request the listener leaves unanswered would be sent
    // to the network by the interceptor.
    if (response !== undefined) return controller.respondWith(stopsOnAbort(response, signalled.signal));
    const error = route.unhandled(request);
    if (error) controller.errorWith(error);
  });
  interceptor.apply();
  return () => interceptor.dispose();
}
