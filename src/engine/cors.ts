/**
 * CORS for the mock API (`mock.cors`; the rule itself is src/core/cors.ts, shared with the
 * collector), around the engine's two entry points: a preflight under a prefix gets 204 with the
 * allowed methods and headers (403 for an origin that is not allowed) before any layer (file
 * mode would answer OPTIONS with 405); every other answer, fast path included, carries
 * Access-Control-Allow-Origin and the exposed headers.
 */
import { corsHeaders, isPreflight, preflightHeaders, type CorsPolicy } from '../core/cors.js';
import { errorResponse } from '../core/errors.js';
import { FastResponse, withHeaders } from '../core/fast-response.js';
import { contextUnder } from './context.js';

export interface EntryPoints {
  handle(request: Request): Promise<Response | undefined>;
  handleCached(request: Request): Response | undefined;
}

/** OPTIONS in any case, without upper-casing every other method (a GET is the common case). */
function isOptions(method: string): boolean {
  return method === 'OPTIONS' || (method.length === 7 && method.toUpperCase() === 'OPTIONS');
}

export function withMockCors(cors: CorsPolicy, prefixes: readonly string[], inner: EntryPoints): EntryPoints {
  return {
    async handle(request) {
      const origin = request.headers.get('origin');
      if (origin !== null && isOptions(request.method) && isPreflight(request, 'OPTIONS')) {
        const pathname = contextUnder(request, prefixes, 0)?.pathname;
        if (pathname === undefined) return undefined;
        const headers = preflightHeaders(cors, request, origin);
        return headers ? FastResponse.empty(204, headers) : errorResponse(403, `Origin ${origin} is not allowed`, pathname);
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
  };
}
