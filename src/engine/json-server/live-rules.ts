/**
 * json-server's rewrite rules and middleware chain as the engine holds them while it runs: one
 * frozen set, read ONCE per request by the rewrite layer and the middleware layer, and replaced
 * whole by `api.reload({ routes, middlewares })` (the CLI's `--watch` on routes.json and the
 * `-m` files). A request keeps the set it started with, so one in flight finishes on the old rules
 * and middlewares while the next one walks the new ones; every pipeline (base, scenarios,
 * sessions) reads the same holder.
 */
import { OptionsError } from '../../core/options.js';
import type { MiddlewareFunction } from '../types.js';
import { resolveRequestMiddlewares, resolveRoutes } from './options.js';
import type { RewriteRule } from './routes.js';

export interface JsonServerRuleSet {
  readonly routes: readonly RewriteRule[];
  /** The rules as given (what `GET /__rules` answers); null: none. */
  readonly routesSource: Record<string, string> | null;
  readonly middlewares: readonly MiddlewareFunction[];
}

/** What `reload` takes: either part, or both (each validated as its option). */
export interface JsonServerReload {
  routes?: Record<string, string>;
  middlewares?: MiddlewareFunction[];
}

export interface LiveJsonServerRules {
  readonly current: JsonServerRuleSet;
  /** Validates everything first (OptionsError naming `mock.routes` / `mock.middlewares`), then swaps at once. */
  reload(next: JsonServerReload): void;
}

export function liveJsonServerRules(initial: JsonServerRuleSet, layers: { rewrite: boolean; middlewares: boolean }): LiveJsonServerRules {
  let current = Object.freeze({ ...initial });
  return {
    get current() {
      return current;
    },
    reload(next) {
      let { routes, routesSource, middlewares } = current;
      if (next.routes !== undefined) {
        if (!layers.rewrite) throw new OptionsError('mock.routes', 'can be swapped at run time only when the engine started with routes (or preset: "json-server")');
        routes = resolveRoutes(next.routes, 'mock.routes');
        routesSource = routes.length > 0 ? next.routes : null;
      }
      if (next.middlewares !== undefined) {
        if (!layers.middlewares) throw new OptionsError('mock.middlewares', 'can be swapped at run time only when the engine started with middlewares (or readOnly)');
        middlewares = resolveRequestMiddlewares(next.middlewares, 'mock.middlewares');
      }
      current = Object.freeze({ routes, routesSource, middlewares });
    },
  };
}
