/**
 * The handler layer's options, resolved next to it: `handlers` (REST; the GraphQL ones among them
 * go to the GraphQL layer), `handlerMiddlewares` / `errorMiddlewares`, `parser`. Each handler is
 * checked at start-up (pattern, method, delay, handle, its own pagination/filters, rewrite, body
 * schema); `api.use()` and each scenario's `handlers` go through the same check.
 */
import { check, describe, isPlainObject, OptionsError } from '../../core/options.js';
import { checkBodySchema } from '../body-schema.js';
import { resolveDelay } from '../delay.js';
import { resolveFilters, resolvePagination } from '../file-cache/query-options.js';
import { isGraphqlHandler, type GraphqlOperationHandler } from '../handler-api/operation-handlers.js';
import type { ParserConfig, RestHandler } from '../types.js';
import { lintPattern } from '../handler-api/pattern-lint.js';

export function resolveFunctions<T>(value: unknown, option: string): T[] {
  const arr = check.array<unknown>(value, option);
  arr.forEach((fn, i) => check.fn(fn, `${option}[${i}]`) ?? fail(option, i, 'a function', fn));
  return arr as T[];
}

export function fail(option: string, index: number | string, expected: string, value: unknown): never {
  throw new OptionsError(`${option}[${index}]`, `must be ${expected} (got ${describe(value)})`);
}

export function resolveParser(value: unknown, option: string): boolean | ParserConfig {
  if (value === undefined) return true;
  if (typeof value === 'boolean') return value;
  if (!isPlainObject(value)) throw new OptionsError(option, `must be true, false or { parser, transform } (got ${describe(value)})`);
  check.knownKeys(value, option, ['parser', 'transform']);
  const p = value.parser;
  if (Array.isArray(p)) p.forEach((fn, i) => { if (typeof fn !== 'function') fail(`${option}.parser`, i, 'a function', fn); });
  else if (typeof p !== 'function') throw new OptionsError(`${option}.parser`, `must be a function or an array of functions (got ${describe(p)})`);
  check.fn(value.transform, `${option}.transform`);
  return value as unknown as ParserConfig;
}

/** The GraphQL handlers of a `handlers` list (the GraphQL layer asks them; the REST layer never sees them). */
export function graphqlHandlersIn(value: unknown): GraphqlOperationHandler[] {
  return Array.isArray(value) ? value.filter(isGraphqlHandler) : [];
}

const ROUTE = /^([A-Za-z]+|\*) +(\/\S*)$/;

/**
 * A handler named by its route (`{ route: 'GET /users/:id', handle }`, as the types of
 * docs/contract.md write it) as the handler layer reads every handler: `method` and `pattern`
 * (a copy; a handler without `route` is returned as it is).
 */
function byRoute(h: Record<string, unknown>, at: string): Record<string, unknown> {
  if (h.route === undefined) return h;
  const m = typeof h.route === 'string' ? ROUTE.exec(h.route.trim()) : null;
  if (!m) throw new OptionsError(`${at}.route`, `must be "METHOD /pattern", e.g. "GET /users/:id" (got ${describe(h.route)})`);
  if (h.pattern !== undefined || h.method !== undefined) throw new OptionsError(`${at}.route`, 'names the method and pattern: give route, or method and pattern, not both');
  return Object.assign(Object.create(Object.getPrototypeOf(h) as object | null) as Record<string, unknown>, h, { method: m[1]!.toUpperCase(), pattern: m[2]! });
}

export function resolveHandlers(value: unknown, option: string, warnings: string[]): RestHandler[] {
  const arr = check.array<unknown>(value, option);
  const rest: RestHandler[] = [];
  arr.forEach((h, i) => {
    if (isGraphqlHandler(h)) return;
    const at = `${option}[${i}]`;
    if (!isPlainObject(h) && !(h && typeof h === 'object' && !Array.isArray(h))) throw new OptionsError(at, `must be an object (got ${describe(h)})`);
    const o = byRoute(h as Record<string, unknown>, at);
    rest.push(o as unknown as RestHandler);
    if (check.string(o.pattern, `${at}.pattern`, undefined, { nonEmpty: true }) === undefined) throw new OptionsError(`${at}.pattern`, 'is required');
    const foreign = lintPattern(o.pattern as string, `${at}.pattern`);
    if (foreign && o.disabled !== true) warnings.push(foreign);
    check.string(o.method, `${at}.method`, undefined, { nonEmpty: true });
    resolveDelay(o.delay, `${at}.delay`);
    if (o.handle !== 'FS' && typeof o.handle !== 'function') throw new OptionsError(`${at}.handle`, `must be a function or "FS" (got ${describe(o.handle)})`);
    if (o.pagination !== undefined) resolvePagination(o.pagination, `${at}.pagination`);
    if (o.filters !== undefined) resolveFilters(o.filters, `${at}.filters`);
    check.fn(o.rewrite, `${at}.rewrite`);
    checkBodySchema(o.body, `${at}.body`);
  });
  return rest;
}
