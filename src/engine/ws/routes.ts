/**
 * The WebSocket handler table, checked and compiled at start-up (from options.ts, when
 * `enableWs` is on), so a mistake is an OptionsError from `createMockApi` even though the
 * WebSocket layer itself (layer.ts) is imported on demand.
 */
import { OptionsError } from '../../core/options.js';
import { validateAuthenticate } from '../handler-api/authenticate.js';
import { compilePattern, type CompiledPattern } from '../handler-api/pattern.js';
import type { AuthenticateOption, WsHandler } from '../types.js';

export interface WsRoute {
  handler: WsHandler;
  pattern: CompiledPattern;
  authenticate: AuthenticateOption | undefined;
}

/** The enabled handlers, compiled (`option` names them in errors: `mock.wsHandlers`). */
export function compileWsRoutes(handlers: readonly WsHandler[], option: string): WsRoute[] {
  const routes: WsRoute[] = [];
  handlers.forEach((handler, i) => {
    const at = `${option}[${i}]`;
    if (handler.disabled === true) return;
    for (const key of ['onConnect', 'onClose', 'onError'] as const) {
      if (handler[key] !== undefined && typeof handler[key] !== 'function') throw new OptionsError(`${at}.${key}`, 'must be a function');
    }
    routes.push({
      handler,
      pattern: compilePattern(handler.pattern, `${at}.pattern`),
      authenticate: validateAuthenticate(handler.authenticate, `${at}.authenticate`),
    });
  });
  return routes;
}

/** The route `app.ws.broadcast(pattern)` reaches (the first with that pattern); throws for an unknown one. */
export function broadcastRoute(routes: readonly WsRoute[], pattern: string, who = 'app.ws.broadcast'): WsRoute {
  const route = routes.find((r) => r.handler.pattern === pattern);
  if (!route) {
    const known = [...new Set(routes.map((r) => r.handler.pattern))];
    throw new Error(`${who}: no WebSocket handler with pattern ${JSON.stringify(pattern)} (known: ${known.map((p) => JSON.stringify(p)).join(', ')})`);
  }
  return route;
}
