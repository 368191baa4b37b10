/**
 * The json-server surface's options, read by its two layers (layer.ts: the rewrite, and
 * middleware-layer.ts) and swapped whole at run time by `api.reload` (live-rules.ts):
 *   routes        json-server's rewrite rules (`--routes routes.json`), an object of "from": "to"
 *                 paths, compiled as json-server 0.17 reads them (routes.ts); default none
 *   middlewares   Express-style `(req, res, next)` functions on every request (`--middlewares`); default none
 * The layers read two more: `readOnly` (a boolean the option list checks, engine/options.ts) and
 * `preset` (preset-hints/options.ts).
 */
import { check, describe, isPlainObject, OptionsError } from '../../core/options.js';
import type { MiddlewareFunction } from '../types.js';
import { compileRoute, type RewriteRule } from './routes.js';

/** Validates `routes` (an object of "from": "to" strings, each starting with "/"). */
export function resolveRoutes(value: unknown, option: string): RewriteRule[] {
  if (value === undefined || value === null) return [];
  if (!isPlainObject(value)) throw new OptionsError(option, `must be an object of "from": "to" rules, as json-server's routes.json (got ${describe(value)})`);
  return Object.entries(value).map(([from, to]) => {
    const at = `${option}["${from}"]`;
    if (!from.startsWith('/')) throw new OptionsError(at, 'must start with "/" (json-server: "Pay attention to start every route with /")');
    if (typeof to !== 'string' || !to.startsWith('/')) throw new OptionsError(at, `must be a path starting with "/" (got ${describe(to)})`);
    const re = compileRoute(from, at);
    return { from, to, re, names: re.names };
  });
}

/** Validates `middlewares` (an array of functions). */
export function resolveRequestMiddlewares(value: unknown, option: string): MiddlewareFunction[] {
  const list = check.array<unknown>(value, option);
  list.forEach((fn, i) => check.fn(fn, `${option}[${i}]`));
  return list as MiddlewareFunction[];
}
