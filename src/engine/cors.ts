/**
 * CORS for the mock API (`mock.cors`; the rule itself is src/core/cors.ts, shared with the
 * collector), around the engine's two entry points: a preflight under a prefix gets 204 with the
 * allowed methods and headers (403 for an origin that is not allowed) before any layer (file
 * mode would answer OPTIONS with 405); every other answer, fast path included, carries
 * Access-Control-Allow-Origin and the exposed headers. A host's own answer to a request no engine
 * took (`adopt`: the CLI's 404s and home page) gets the same, and a preflight there the same answer.
 * A WebSocket handshake (GraphQL subscriptions, WebSocket handlers) is held to the same origins
 * (`socketRefusal`): browsers apply no CORS to sockets, so the server must.
 */
import { corsHeaders, isPreflight, preflightHeaders, type CorsPolicy } from '../core/cors.js';
import { errorResponse } from '../core/errors.js';
import { FastResponse, withHeaders } from '../core/fast-response.js';
import { contextUnder } from './context.js';
import { splitUrl } from '../core/exchange.js';

export interface EntryPoints {
  handle(request: Request): Promise<Response | undefined>;
  handleCached(request: Request): Response | undefined;
  /**
   * A host's own answer (`answer()`) to a request outside the prefixes, sent with the headers this
   * entry point gives the engine's answers; `answer` is not called for what the entry point answers
   * itself (a CORS preflight).
   */
  adopt(request: Request, answer: () => Promise<Response>): Promise<Response>;
}

/** OPTIONS in any case, without upper-casing every other method (a GET is the common case). */
function isOptions(method: string): boolean {
  return method === 'OPTIONS' || (method.length === 7 && method.toUpperCase() === 'OPTIONS');
}

export function withMockCors(cors: CorsPolicy, prefixes: readonly string[], inner: EntryPoints): EntryPoints {
  const preflight = (request: Request, origin: string, pathname: string): Response => {
    const headers = preflightHeaders(cors, request, origin);
    return headers ? FastResponse.empty(204, headers) : errorResponse(403, `Origin ${origin} is not allowed`, pathname);
  };
  return {
    async handle(request) {
      const origin = request.headers.get('origin');
      if (origin !== null && isOptions(request.method) && isPreflight(request, 'OPTIONS')) {
        const pathname = contextUnder(request, prefixes, 0)?.pathname;
        return pathname === undefined ? undefined : preflight(request, origin, pathname);
      }
      const res = await inner.handle(request);
      return res === undefined ? undefined : withHeaders(res, corsHeaders(cors, origin));
    },
    handleCached(request) {
      const origin = request.headers.get('origin');
      // A preflight is answered by `handle` alone, before any layer: never by a layer's fast path
      // (a handler matching OPTIONS would run there).
      if (origin !== null && isOptions(request.method) && isPreflight(request, 'OPTIONS')) return undefined;
      const res = inner.handleCached(request);
      return res === undefined ? undefined : withHeaders(res, corsHeaders(cors, origin));
    },
    async adopt(request, answer) {
      const origin = request.headers.get('origin');
      if (origin !== null && isOptions(request.method) && isPreflight(request, 'OPTIONS')) return preflight(request, origin, splitUrl(request.url)[0]);
      return withHeaders(await inner.adopt(request, answer), corsHeaders(cors, origin));
    },
  };
}

/**
 * A WebSocket handshake from a page on another origin that `cors` does not allow: its 403 (the
 * JSON error body), else undefined. Browsers send `Origin` on every handshake and apply no CORS to
 * sockets, so without this any web page could read and write the mocks over GraphQL's socket while
 * the same page's `fetch` is refused its answers. Handshakes without `Origin` (Node clients, curl)
 * and from the server's own origin pass.
 */
export function socketRefusal(cors: CorsPolicy, request: Request, pathname: string): Response | undefined {
  const origin = request.headers.get('origin');
  if (origin === null || cors.allow(origin)) return undefined;
  if (URL.canParse(request.url) && origin === new URL(request.url).origin) return undefined;
  return errorResponse(403, `Origin ${origin} may not open a WebSocket here: the mock API's CORS origins (mock.cors, the CLI's --cors) do not include it`, pathname);
}
