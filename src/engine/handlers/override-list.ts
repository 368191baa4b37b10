/**
 * Handlers added at run time (`api.use(...handlers)`, as msw's `server.use`): the same handler
 * objects as the `handlers` option, newest first, taking precedence over every other layer;
 * `reset()` empties the list (`api.resetHandlers()`). A small piece any pipeline can consult
 * (overrides-layer.ts): the engine's base and scenario pipelines, sessions'.
 */
import type { RestHandler } from '../types.js';

export interface OverrideList {
  /** Newest first. */
  readonly handlers: readonly RestHandler[];
  /** Bumped on every change (a layer rebuilds its routes when it differs). */
  readonly version: number;
  /** Puts `handlers` in front (their own order kept among themselves), as msw's `use`. */
  use(handlers: readonly RestHandler[]): void;
  reset(): void;
}

export function createOverrideList(): OverrideList {
  let handlers: readonly RestHandler[] = [];
  let version = 0;
  return {
    get handlers() {
      return handlers;
    },
    get version() {
      return version;
    },
    use(added) {
      if (added.length === 0) return;
      handlers = [...added, ...handlers];
      version++;
    },
    reset() {
      if (handlers.length === 0) return;
      handlers = [];
      version++;
    },
  };
}
