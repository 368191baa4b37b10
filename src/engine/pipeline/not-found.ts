/** The engine's own 404 (nothing under the prefix answered), in the one JSON error body. */
import { errorResponse } from '../../core/errors.js';
import type { RequestContext } from '../context.js';

export function notFound(ctx: RequestContext): Response {
  return errorResponse(404, 'Not Found', ctx.pathname, { head: ctx.method === 'HEAD' });
}
