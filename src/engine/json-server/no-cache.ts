/**
 * json-server 0.17's no-cache headers (its "No cache for IE" middleware: `Cache-Control: no-cache`,
 * `Pragma: no-cache`, `Expires: -1`) on every answer of the json-server preset, around the
 * engine's two entry points, under what the answer sets itself (a recorded answer's or a handler's
 * own `Cache-Control` stays, as a route after 0.17's middleware overrides it). One frozen header
 * set: merged once per answer's own frozen headers (core/fast-response.ts `withDefaultHeaders`),
 * nothing else per request. Static files get them too
 * (0.17's `express.static` runs before that middleware and sends `public, max-age=0`; ours are
 * `no-cache` with a validator either way), and so do the host's own answers the engine adopts (the
 * CLI's 404s and home page: 0.17's middleware runs on every request). A CORS preflight is answered outside (engine/cors.ts),
 * as 0.17's `cors()` answers it before the middleware.
 */
import { withDefaultHeaders } from '../../core/fast-response.js';
import type { EntryPoints } from '../cors.js';

export const NO_CACHE_HEADERS = Object.freeze({ 'Cache-Control': 'no-cache', Pragma: 'no-cache', Expires: '-1' });

function noCache(res: Response | undefined): Response | undefined {
  return res === undefined ? res : withDefaultHeaders(res, NO_CACHE_HEADERS);
}

export function withNoCache(inner: EntryPoints): EntryPoints {
  return {
    handle: (request) => inner.handle(request).then(noCache),
    handleCached: (request) => noCache(inner.handleCached(request)),
    adopt: (request, answer) => inner.adopt(request, answer).then((res) => withDefaultHeaders(res, NO_CACHE_HEADERS)),
  };
}
