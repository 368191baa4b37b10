/**
 * STUB (owned by the programmable-layer colleague, who replaces this file): the handler layer.
 * `handle(ctx)` answers a Response when a REST handler matched, `undefined` otherwise.
 */
import type { RequestContext } from '../context.js';
import type { ResolvedMockApiOptions } from '../options.js';
import type { EngineServices } from '../services.js';

export interface HandlerLayer {
  handle(ctx: RequestContext): Promise<Response | undefined>;
  close?(): Promise<void>;
}

export function createHandlerLayer(_options: ResolvedMockApiOptions, _services: EngineServices): HandlerLayer {
  return {
    async handle() {
      return undefined;
    },
  };
}
