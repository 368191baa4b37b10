/**
 * Handlers added at run time (`api.use(...handlers)`, as msw's `server.use`): the same handler
 * objects as the `handlers` option, newest first, taking precedence over every other layer;
 * `reset()` empties the list (`api.resetHandlers()`). A small piece any pipeline can consult:
 * the REST handlers through the overrides layer (overrides-layer.ts), the GraphQL operation
 * handlers (`graphql.query(…)`) through the GraphQL layer; the engine's base and scenario
 * pipelines, sessions'.
 */
import { isGraphqlHandler } from './operation-handlers.js';
import type { GraphqlOperationHandler, RestHandler } from '../types.js';

export interface OverrideList {
  /** The REST handlers, newest first. */
  readonly handlers: readonly RestHandler[];
  /** The GraphQL operation handlers, newest first. */
  readonly graphql: readonly GraphqlOperationHandler[];
  /** Bumped on every change (a layer rebuilds its routes when it differs). */
  readonly version: number;
  /** Puts `handlers` in front (their own order kept among themselves), as msw's `use`. */
  use(handlers: ReadonlyArray<RestHandler | GraphqlOperationHandler>): void;
  reset(): void;
}

export function createOverrideList(): OverrideList {
  let handlers: readonly RestHandler[] = [];
  let graphql: readonly GraphqlOperationHandler[] = [];
  let version = 0;
  return {
    get handlers() {
      return handlers;
    },
    get graphql() {
      return graphql;
    },
    get version() {
      return version;
    },
    use(added) {
      if (added.length === 0) return;
      handlers = [...added.filter((h): h is RestHandler => !isGraphqlHandler(h)), ...handlers];
      graphql = [...added.filter(isGraphqlHandler), ...graphql];
      version++;
    },
    reset() {
      if (handlers.length === 0 && graphql.length === 0) return;
      handlers = [];
      graphql = [];
      version++;
    },
  };
}
