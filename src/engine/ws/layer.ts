/**
 * The WebSocket layer: `wsHandlers` matched on the handshake URL (patterns as for REST handlers,
 * relative to the prefix, array order), `authenticate` checked before accepting (401), then one
 * Connection per client on the host-neutral socket seam (src/core/socket.ts).
 * `broadcast(pattern, data, { room })` reaches every client of the handler with that pattern; it
 * backs `app.ws.broadcast` so REST handlers can push to WebSocket subscribers.
 */
import { responseForError } from '../../core/errors.js';
import { OptionsError } from '../../core/options.js';
import { withMessageLimit, type SocketAccept, type UpgradeResult } from '../../core/socket.js';
import type { RequestContext } from '../context.js';
import { checkAuthenticate } from '../handlers/authenticate.js';
import { compilePattern, type CompiledPattern } from '../handlers/pattern.js';
import { PortableRequest } from '../handlers/request.js';
import { validateAuthenticate } from '../handlers/routes.js';
import type { ResolvedMockApiOptions } from '../options.js';
import type { EngineServices } from '../services.js';
import type { AuthenticateOption, WsHandler } from '../types.js';
import { Connection } from './connection.js';
import { Hub } from './hub.js';

export interface WsLayer {
  upgrade(ctx: RequestContext): UpgradeResult | Promise<UpgradeResult>;
  broadcast(pattern: string, data: unknown, options?: { room?: string }): number;
  close?(): Promise<void>;
}

interface WsRoute {
  handler: WsHandler;
  pattern: CompiledPattern;
  authenticate: AuthenticateOption | undefined;
  hub: Hub<Connection>;
}

export function createWsLayer(options: ResolvedMockApiOptions, services: EngineServices): WsLayer | undefined {
  if (!options.enableWs) return undefined;
  const { logger, app } = services;
  const routes: WsRoute[] = [];
  const byPattern = new Map<string, WsRoute>();
  options.wsHandlers.forEach((handler, i) => {
    const at = `mock.wsHandlers[${i}]`;
    if (handler.disabled === true) return;
    for (const key of ['onConnect', 'onClose', 'onError'] as const) {
      if (handler[key] !== undefined && typeof handler[key] !== 'function') throw new OptionsError(`${at}.${key}`, 'must be a function');
    }
    const route: WsRoute = {
      handler,
      pattern: compilePattern(handler.pattern, `${at}.pattern`),
      authenticate: validateAuthenticate(handler.authenticate, `${at}.authenticate`),
      hub: new Hub<Connection>(),
    };
    routes.push(route);
    if (!byPattern.has(handler.pattern)) byPattern.set(handler.pattern, route);
  });

  async function refuseOrAccept(ctx: RequestContext, route: WsRoute, params: Record<string, string>): Promise<UpgradeResult> {
    const req = new PortableRequest(ctx, params, app);
    try {
      await checkAuthenticate(route.authenticate, req);
    } catch (err) {
      logger.debug(`WebSocket ${ctx.pathname}: handshake refused (${(err as Error)?.message ?? err})`);
      return responseForError(err, ctx.pathname);
    }
    return accept(ctx, route, req);
  }

  // WebSocket messages obey the same size limit as request bodies (hosts enforce it on receipt).
  function accept(ctx: RequestContext, route: WsRoute, req: PortableRequest): SocketAccept {
    return withMessageLimit((peer) => {
      const conn = new Connection(peer, route.handler, route.hub, logger, {
        params: req.params,
        query: req.query,
        headers: req.headers,
        path: ctx.pathname,
        app,
      });
      logger.debug(`WebSocket ${ctx.pathname}: client ${conn.id} connected (${route.handler.pattern})`);
      return conn.open(route.handler.heartbeat ?? 0);
    }, options.bodyLimit);
  }

  return {
    upgrade(ctx) {
      for (const route of routes) {
        let params: Record<string, string> | null;
        try {
          params = route.pattern.match(ctx.subPath);
        } catch (err) {
          return responseForError(err, ctx.pathname);
        }
        if (!params) continue;
        if (route.authenticate === undefined) return accept(ctx, route, new PortableRequest(ctx, params, app));
        return refuseOrAccept(ctx, route, params);
      }
      return undefined;
    },
    broadcast(pattern, data, opts = {}) {
      const route = byPattern.get(pattern);
      if (!route) {
        throw new Error(`app.ws.broadcast: no WebSocket handler with pattern ${JSON.stringify(pattern)} (known: ${[...byPattern.keys()].map((p) => JSON.stringify(p)).join(', ')})`);
      }
      return route.hub.broadcast(data, opts.room);
    },
    async close() {
      for (const route of routes) {
        for (const conn of [...route.hub.clients]) conn.shutdown();
      }
    },
  };
}
