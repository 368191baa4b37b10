/**
 * `XMLHttpRequest` for interceptFetch, through @mswjs/interceptors' XMLHttpRequestInterceptor
 * (maintained by the msw team, already what msw runs on). XHR is a large API (ready states,
 * progress and load events, `responseType`, upload events, abort, timeouts, sync mode) that
 * axios and older clients rely on in detail; a hand-written adapter would re-implement it less
 * well. The interceptor is applied only where the environment has an `XMLHttpRequest` (happy-dom,
 * jsdom, a page): vitest's `node` environment has none, so nothing is patched there.
 */
import { XMLHttpRequestInterceptor } from '@mswjs/interceptors/XMLHttpRequest';

export interface XhrRoute {
  /** Whether the engines cover this URL. */
  claims(url: URL): boolean;
  /** The engines' answer (undefined: none answered). */
  answer(request: Request): Promise<Response | undefined>;
  /** Not answered: `undefined` lets it through to the real XHR, an Error fails it (network error). */
  unhandled(request: Request): Error | undefined;
}

/** Starts intercepting; returns the function that stops. Does nothing without `XMLHttpRequest`. */
export function interceptXhr(route: XhrRoute): (() => void) | undefined {
  if (typeof (globalThis as { XMLHttpRequest?: unknown }).XMLHttpRequest !== 'function') return undefined;
  const interceptor = new XMLHttpRequestInterceptor();
  interceptor.on('request', async ({ request, controller }) => {
    const response = route.claims(new URL(request.url)) ? await route.answer(request) : undefined;
    if (response !== undefined) return controller.respondWith(response);
    const error = route.unhandled(request);
    if (error) controller.errorWith(error);
  });
  interceptor.apply();
  return () => interceptor.dispose();
}
