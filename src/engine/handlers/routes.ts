/**
 * The REST handler table, compiled once at start-up: patterns, methods, per-handler options.
 * Matching walks the array in order; the first handler whose pattern and method fit wins. A HEAD
 * request that no HEAD or `'*'` handler takes falls back to the first matching GET handler (the
 * body is dropped later). A path that matches a pattern with another method is not the
 * handler's: it goes on to file-system mode.
 */
import { OptionsError, describe } from '../../core/options.js';
import { validateAuthenticate } from '../handler-api/authenticate.js';
import { resolveDelay, type DrawDelay } from '../delay.js';
import { resolveFilters, resolvePagination } from '../file-cache/query-options.js';
import type { AuthenticateOption, FilterConfig, HandlerFunction, PaginationConfig, PerMethod, RestHandler } from '../types.js';
import { compilePattern, type CompiledPattern } from '../handler-api/pattern.js';

export interface Route {
  readonly index: number;
  readonly handler: RestHandler;
  readonly pattern: CompiledPattern;
  /** Upper-cased method, or '*'. */
  readonly method: string;
  /** The handler's own delay, or undefined to use the global one. */
  readonly delay: DrawDelay | undefined;
  readonly handle: HandlerFunction | 'FS';
  readonly authenticate: AuthenticateOption | undefined;
  /** `handle: 'FS'`: the handler's own pagination / filters (undefined: the global ones; null: none). */
  readonly fsPagination: PerMethod<PaginationConfig> | null | undefined;
  readonly fsFilters: PerMethod<FilterConfig> | null | undefined;
  /** `METHOD pattern` for messages. */
  readonly label: string;
}

export interface RouteMatch {
  route: Route;
  params: Record<string, string>;
}

export function compileRoutes(handlers: readonly RestHandler[], option = 'mock.handlers'): Route[] {
  const routes: Route[] = [];
  handlers.forEach((handler, index) => {
    if (handler.disabled === true) return;
    const at = `${option}[${index}]`;
    const method = (handler.method ?? 'GET').toUpperCase();
    if (method !== '*' && !/^[A-Z][A-Z0-9_-]*$/.test(method)) throw new OptionsError(`${at}.method`, `must be an HTTP method or "*" (got ${describe(handler.method)})`);
    routes.push({
      index,
      handler,
      pattern: compilePattern(handler.pattern, `${at}.pattern`),
      method,
      delay: resolveDelay(handler.delay, `${at}.delay`),
      handle: handler.handle,
      authenticate: validateAuthenticate(handler.authenticate, `${at}.authenticate`),
      fsPagination: handler.pagination === undefined ? undefined : resolvePagination(handler.pagination, `${at}.pagination`),
      fsFilters: handler.filters === undefined ? undefined : resolveFilters(handler.filters, `${at}.filters`),
      label: `${method} ${handler.pattern}`,
    });
  });
  return routes;
}

/** First route for the method and path (below the prefix). Throws 400 on malformed params. */
export function matchRoute(routes: readonly Route[], method: string, path: string): RouteMatch | undefined {
  let headFallback: RouteMatch | undefined;
  for (const route of routes) {
    const m = route.method;
    if (m === method || m === '*') {
      const params = route.pattern.match(path);
      if (params) return { route, params };
    } else if (method === 'HEAD' && m === 'GET' && !headFallback) {
      const params = route.pattern.match(path);
      if (params) headFallback = { route, params };
    }
  }
  return headFallback;
}
