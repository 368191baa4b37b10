/**
 * `interceptFetch(engines, options)`: the test runner's host. It replaces `globalThis.fetch` (and
 * `XMLHttpRequest` where the environment has one, see xhr.ts) so that requests under the engines'
 * prefixes are answered in-process by `engine.handle()`, with no server, no service worker and
 * no msw in between; everything else goes to the original `fetch` (`onUnhandled: 'bypass'`) or
 * fails loudly (`'error'`, the default).
 *
 * Host-neutral: it runs in vitest's `node`, `happy-dom` and `jsdom` environments, in jest and in
 * a page. Answers look like network answers: a native `Response` of the environment's class with
 * `url` set, gzip/deflate bodies decoded (as `fetch` does for bytes off the network).
 */
import { hostFor } from '../host/create-host.js';
import { coveredBy } from '../host/dispatch.js';
import { connectionFaultOf, networkError, throttledResponse } from '../core/connection-fault.js';
import type { Engine } from '../core/engine.js';
import type { MockApi } from '../engine/create-mock-api.js';
import { compilePattern } from '../engine/handler-api/pattern.js';
import type { ApiRoutes, RouteBody } from '../engine/types.js';
import { fastState, hasFastHeader } from '../core/fast-response.js';
import { check } from '../core/options.js';
import { toPageResponse } from '../host/page-response.js';
import { requestFor } from './lazy-request.js';
import { interceptXhr } from './xhr.js';
import type { Interception, InterceptRoute } from '../host/intercept-route.js';

export type OnUnhandled = 'bypass' | 'error';

export interface InterceptFetchOptions {
  /**
   * Where relative URLs resolve, and the origin that is intercepted. Default: `location.href`
   * where the environment has one (happy-dom, jsdom, a page), else `http://localhost`.
   */
  baseUrl?: string | URL;
  /**
   * Requests no engine answers (another path or origin, or an engine that forwards): `'error'`
   * (default) rejects the fetch with a TypeError naming the request and logs it with
   * `console.error`; `'bypass'` sends them to the original `fetch` / `XMLHttpRequest`.
   */
  onUnhandled?: OnUnhandled;
  /** Also intercept `XMLHttpRequest` when the environment has it (default true). */
  xhr?: boolean;
  /**
   * Under Node, also intercept clients on `node:http` / `node:https` — axios's Node adapter, got,
   * node-fetch v2, superagent (default true). Elsewhere there is nothing of the kind to intercept.
   */
  http?: boolean;
}

/** A recorded request of a route whose body type is known: `json()` gives it. */
export interface RouteRequest<Body> extends Request {
  json(): Promise<Body>;
}

/** `'METHOD /pattern'` keys of `Api['routes']`, else any such text. */
type RouteKey<Api> = [ApiRoutes<Api>] extends [never] ? `${string} /${string}` : keyof ApiRoutes<Api> & string;
type BodyOfRoute<Api, K> = [ApiRoutes<Api>] extends [never] ? unknown : K extends keyof ApiRoutes<Api> ? RouteBody<ApiRoutes<Api>[K]> : unknown;

export interface FetchInterception<Api = {}> {
  /** Every request handed to the engines, in order (a copy with its body unread: `await requests[0].json()`). */
  readonly requests: Request[];
  /**
   * The recorded requests of one route (`'POST /todos'`, its pattern below the engines'
   * prefixes, as handlers write it), in order; with a generated `Api` (docs/contract.md) the
   * route is checked and `json()` gives its body type.
   */
  requestsTo<K extends RouteKey<Api>>(route: K): Array<RouteRequest<BodyOfRoute<Api, K>>>;
  /** Puts the original `fetch` (and `XMLHttpRequest`) back. Idempotent. */
  restore(): void;
}

const KNOWN = ['baseUrl', 'onUnhandled', 'xhr', 'http'] as const;

function defaultBase(): string {
  const href = (globalThis as { location?: { href?: string } }).location?.href;
  return typeof href === 'string' && /^https?:/.test(href) ? href : 'http://localhost/';
}

/** Origins whose requests are ours: the base URL's, and the page's (relative XHR URLs resolve there). */
function ourOrigins(base: URL): Set<string> {
  const origins = new Set([base.origin]);
  const page = (globalThis as { location?: { origin?: string } }).location?.origin;
  if (typeof page === 'string' && page !== 'null') origins.add(page);
  return origins;
}

function unhandledError(method: string, url: string): TypeError {
  return new TypeError(
    `mockyard interceptFetch: no engine answers ${method} ${url} (onUnhandled: 'error'). ` +
      "Add a file or handler for it, set baseUrl to the origin your code calls, or pass onUnhandled: 'bypass' to let it reach the network.",
  );
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('This operation was aborted', 'AbortError');
}

/** `interceptFetch` as every environment has it: fetch, and XMLHttpRequest where there is one. */
export function interceptFetch<Api = {}>(engines: MockApi<Api> | Engine | readonly Engine[], options: InterceptFetchOptions = {}): FetchInterception<Api> {
  return interceptWith(engines, options, []);
}

/**
 * interceptFetch with the runtime's own clients too (`http`): under Node, `node:http`
 * (src/test/index.node.ts passes src/node/client-request-interception.ts). Each is given the same
 * route as XMLHttpRequest.
 */
export function interceptWith<Api = {}>(engines: MockApi<Api> | Engine | readonly Engine[], options: InterceptFetchOptions, http: readonly Interception[]): FetchInterception<Api> {
  const host = hostFor(engines, 'interceptFetch');
  const list = host.engines;
  check.knownKeys(check.object(options, 'interceptFetch') ?? {}, '', KNOWN);
  const onUnhandled = check.oneOf(options.onUnhandled, 'onUnhandled', ['bypass', 'error'] as const, 'error');
  const withXhr = check.boolean(options.xhr, 'xhr', true);
  const withHttp = check.boolean(options.http, 'http', true);
  let base: URL;
  try {
    base = new URL(String(options.baseUrl ?? defaultBase()));
  } catch {
    throw new TypeError(`interceptFetch: baseUrl must be an absolute URL (got ${JSON.stringify(String(options.baseUrl))})`);
  }
  const origins = ourOrigins(base);
  const original = globalThis.fetch;
  const requests: Request[] = [];

  /** The engines' answer as a network-like Response, or undefined when none answers. */
  async function answer(request: Request, pathname: string, signal?: AbortSignal | null): Promise<Response | undefined> {
    requests.push(request.body === null ? request : request.clone());
    const response = await host.answer(request, pathname);
    if (response === undefined) return undefined;
    // A connection fault (core/connection-fault.ts): the platform's network error, or no answer
    // until the caller aborts (the abort then rejects the call), or a throttled body.
    const fault = connectionFaultOf(request);
    if (fault !== undefined) {
      if (fault.type !== 'slow-body') response.body?.cancel().catch(() => {}); // never read: a stream behind it ends
      if (fault.type === 'no-answer') return new Promise<never>(() => {});
      if (fault.type !== 'slow-body') throw networkError();
      const slow = throttledResponse(toPageResponse(response, signal ?? undefined), fault.bytesPerSecond ?? 1024);
      Object.defineProperty(slow, 'url', { value: request.url, configurable: true });
      return slow;
    }
    // A FastResponse without Content-Encoding is handed on as it is (it is a Response; the
    // caller's json()/text() builds the native one once); encoded bodies are decoded first.
    const state = fastState(response);
    const out = state !== undefined && !hasFastHeader(state.headers, 'content-encoding') ? response : toPageResponse(response, signal ?? undefined);
    Object.defineProperty(out, 'url', { value: request.url, configurable: true });
    return out;
  }

  function unhandled(request: Request | undefined, method: string, href: string, input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
    if (onUnhandled === 'bypass') {
      if (typeof original !== 'function') return Promise.reject(new TypeError(`interceptFetch: no original fetch to send ${method} ${href} to`));
      return original(request ?? (typeof input === 'string' || input instanceof URL ? href : input), request ? undefined : init);
    }
    const error = unhandledError(method, href);
    console.error(error.message);
    return Promise.reject(error);
  }

  function mockyardFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
    let url: URL;
    try {
      url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : (input as Request).url, base);
    } catch (err) {
      return Promise.reject(new TypeError(`Failed to parse URL from ${String(typeof input === 'object' && 'url' in input ? input.url : input)}`, { cause: err }));
    }
    const method = (init?.method ?? (typeof input === 'object' && 'method' in input ? input.method : 'GET')).toUpperCase();
    if (!origins.has(url.origin) || !coveredBy(list, url.pathname)) return unhandled(undefined, method, url.href, input, init);
    let request: Request;
    try {
      request = typeof input === 'object' && !(input instanceof URL) ? (init ? new Request(input, init) : input) : requestFor(url.href, init);
    } catch (err) {
      return Promise.reject(err);
    }
    const signal = init?.signal ?? (typeof input === 'object' && !(input instanceof URL) ? input.signal : undefined);
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    const answered = answer(request, url.pathname, signal).then((response) => response ?? unhandled(request, method, url.href, input, init));
    if (!signal) return answered;
    return new Promise<Response>((resolve, reject) => {
      const onAbort = () => reject(abortReason(signal));
      signal.addEventListener('abort', onAbort, { once: true });
      answered.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
    });
  }

  const route: InterceptRoute = {
    claims: (url) => origins.has(url.origin) && coveredBy(list, url.pathname),
    answer: (request) => answer(request, new URL(request.url).pathname),
    unhandled: (request) => {
      if (onUnhandled === 'bypass') return undefined;
      const error = unhandledError(request.method, request.url);
      console.error(error.message);
      return error;
    },
  };
  globalThis.fetch = mockyardFetch as typeof fetch;
  const stops = [withXhr ? interceptXhr(route) : undefined, ...(withHttp ? http.map((start) => start(route)) : [])];

  let restored = false;
  const prefixes = list.flatMap((e) => e.prefixes).map((p) => p.replace(/\/+$/, ''));
  return {
    requests,
    requestsTo(route) {
      const m = /^([A-Za-z]+)\s+(\/\S*)$/.exec(String(route).trim());
      if (!m) throw new TypeError(`interceptFetch: requestsTo takes "METHOD /pattern", e.g. "POST /todos" (got ${JSON.stringify(route)})`);
      const method = m[1]!.toUpperCase();
      const pattern = compilePattern(m[2]!, 'requestsTo');
      return requests.filter((r) => {
        if (r.method.toUpperCase() !== method) return false;
        const path = new URL(r.url).pathname;
        return prefixes.some((p) => (p === '' || path === p || path.startsWith(`${p}/`)) && pattern.match(path.slice(p.length) || '/') !== null);
      }) as never;
    },
    restore() {
      if (restored) return;
      restored = true;
      if (globalThis.fetch === (mockyardFetch as typeof fetch)) globalThis.fetch = original;
      for (const stop of stops) stop?.();
    },
  };
}
