/**
 * Which requests the page host intercepts: same-origin URLs under an engine's prefix. Anything
 * else (other paths, other origins — e.g. the node host on another port) goes to the network
 * untouched. One route per prefix, in engine order (the collector first, then the mock API).
 */
import { underPrefix, type Engine } from '../core/engine.js';
import type { HttpRoute } from './msw-adapter.js';
import { toPageResponse } from './response.js';

export function httpRoutes(engines: readonly Engine[], origin: string): HttpRoute[] {
  const routes: HttpRoute[] = [];
  const seen = new Set<string>();
  for (const engine of engines) {
    for (const prefix of engine.prefixes) {
      if (seen.has(prefix)) continue;
      seen.add(prefix);
      routes.push({
        test: (url) => url.origin === origin && underPrefix(url.pathname, prefix),
        async handle(request) {
          // As on the node host: engines in order, the first answer that is not `undefined`.
          const pathname = new URL(request.url).pathname;
          for (const e of engines) {
            if (!e.prefixes.some((p) => underPrefix(pathname, p))) continue;
            const response = await e.handle(request);
            if (response !== undefined) return toPageResponse(response);
          }
          return undefined;
        },
      });
    }
  }
  return routes;
}
