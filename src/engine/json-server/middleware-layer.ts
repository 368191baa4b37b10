/**
 * Express-style middlewares on every request (`middlewares`, json-server's `--middlewares`) and
 * `readOnly` (json-server's `--read-only`), before the handlers:
 *
 *   - readOnly: a method other than GET, HEAD and OPTIONS answers 403;
 *   - each middleware `(req, res, next)` gets the portable req/res handlers get
 *     (handlers/request.ts, handlers/response.ts): one that answers (`res.json`, `res.sendStatus`,
 *     `res.end`) answers the request; when every one called `next()`, the headers they set
 *     (`res.header('X-Hello', 'World')`) go onto whatever answers it (`ctx.onAnswer`).
 */
import { errorResponse } from '../../core/errors.js';
import { withHeaders } from '../../core/fast-response.js';
import { check } from '../../core/options.js';
import { runMiddlewares } from '../handlers/chain.js';
import { PortableRequest } from '../handlers/request.js';
import { ResponseBuilder } from '../handlers/response.js';
import { PASS, type Layer } from '../pipeline/layer.js';
import type { MockApiApp, MiddlewareFunction } from '../types.js';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Validates `middlewares` (an array of functions). */
export function resolveRequestMiddlewares(value: unknown, option: string): MiddlewareFunction[] {
  const list = check.array<unknown>(value, option);
  list.forEach((fn, i) => check.fn(fn, `${option}[${i}]`));
  return list as MiddlewareFunction[];
}

export function createMiddlewareLayer(middlewares: readonly MiddlewareFunction[], readOnly: boolean, app: MockApiApp): Layer {
  return {
    name: 'middlewares',
    async handle(ctx) {
      if (readOnly && !READS.has(ctx.method)) {
        ctx.answered('middlewares', 'read-only');
        return errorResponse(403, `${ctx.method} is not allowed: the mock API is read-only`, ctx.pathname);
      }
      if (middlewares.length === 0) return undefined;
      const req = new PortableRequest(ctx, {}, app);
      const res = new ResponseBuilder();
      if ((await runMiddlewares(middlewares, req, res)) === 'responded') {
        ctx.answered('middlewares');
        return res.toResponse(ctx.method === 'HEAD');
      }
      const headers = res.headerRecord();
      // Static files are served as json-server serves them: before (without) its middlewares.
      if (Object.keys(headers).length > 0) ctx.onAnswer((r) => (ctx.answeredBy?.layer === 'static' ? r : withHeaders(r, headers)));
      return undefined;
    },
    peek(ctx) {
      if (middlewares.length > 0) return undefined;
      return readOnly && !READS.has(ctx.method) ? undefined : PASS;
    },
  };
}
