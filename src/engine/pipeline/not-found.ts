/**
 * The engine's own 404 (nothing under the prefix answered), in the one JSON error body.
 *
 * A host may give it its own words for one request (`sayWhenNotFound`, before the engine walks it:
 * the CLI's "the data is served at /", node/data-prefix.ts). The 404 is still the engine's, so it
 * goes out through the engine's answer path as every other answer: the middlewares' headers, the
 * json-server preset's no-cache set, CORS, observers. A GET of the prefix itself says it is the prefix.
 */
import { errorResponse } from '../../core/errors.js';
import type { RequestContext } from '../context.js';

const kMessage = Symbol('mockyard.notFoundMessage');

type Marked = Request & { [kMessage]?: string };

/** What the engine's 404 says for this request, if nothing under the prefix answers it. */
export function sayWhenNotFound(request: Request, message: string): void {
  (request as Marked)[kMessage] = message;
}

export function notFound(ctx: RequestContext): Response {
  return errorResponse(404, (ctx.request as Marked)[kMessage] ?? (atPrefix(ctx) ? `Not Found: ${ctx.prefix} is where the mock API answers, not a resource itself: ask for one below it (${ctx.prefix}/<name>)` : 'Not Found'), ctx.pathname, { head: ctx.method === 'HEAD' });
}

/** A GET of the prefix itself (`/api`, `/api/`), the base URL hosts print, that nothing answered (no index.json). */
function atPrefix(ctx: RequestContext): boolean {
  return ctx.prefix !== '/' && (ctx.subPath === '' || ctx.subPath === '/') && (ctx.method === 'GET' || ctx.method === 'HEAD');
}
