/**
 * The `overrides` layer, first in every pipeline: the handlers of an OverrideList
 * (handler-api/override-list.ts: `api.use`) answered by a handler layer built from them, exactly as the
 * `handlers` option's (delay, parser, middlewares, `handle: 'FS'`…). PASS at once while the list
 * is empty; the routes are compiled again only when the list changed.
 * Order: after webhooks, before the route overrides and every configured layer: handlers added in
 *   code (`api.use`) win over everything configured.
 */
import { PASS, type Layer } from '../pipeline/layer.js';
import type { EngineServices } from '../services.js';
import { createHandlerLayer, type FsServer, type HandlerLayer, type HandlerLayerOptions } from './layer.js';
import type { OverrideList } from '../handler-api/override-list.js';

const NAME = 'overrides';

export function createOverridesLayer(list: OverrideList, options: HandlerLayerOptions, services: EngineServices, files: FsServer): Layer {
  let built: { version: number; layer: HandlerLayer } | undefined;
  const current = (): HandlerLayer => {
    if (built === undefined || built.version !== list.version) {
      void built?.layer.close?.();
      built = { version: list.version, layer: createHandlerLayer({ ...options, handlers: [...list.handlers] }, services, files, NAME) };
    }
    return built.layer;
  };
  return {
    name: NAME,
    ownDelay: true,
    peek: (ctx) => (list.handlers.length === 0 ? PASS : current().peek(ctx)),
    handle: (ctx) => (list.handlers.length === 0 ? undefined : current().handle(ctx)),
    close: () => built?.layer.close?.(),
  };
}
