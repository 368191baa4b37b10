/**
 * The runtime half of the WebSocket layer (layer.ts imports it at start-up when `enableWs` is on;
 * its own chunk in browser bundles): handshakes matched against the compiled routes,
 * `authenticate` (401), then one Connection per client, grouped per route in a Hub (rooms,
 * broadcasts).
 */
import { responseForError } from '../../core/errors.js';
import { withMessageLimit, type SocketAccept, type UpgradeResult } from '../../core/socket.js';
import type { RequestContext } from '../context.js';
import { checkAuthenticate } from '../handlers/authenticate.js';
import { PortableRequest } from '../handlers/request.js';
import type { EngineServices } from '../services.js';
import { Connection } from './connection.js';
import { Hub } from './hub.js';
import type { WsRoute } from './layer.js';

export interface WsClients {
  upgrade(ctx: RequestContext): UpgradeResult | Promise<UpgradeResult>;
  broadcast(route: WsRoute, data: unknown, room?: string): number;
  /** Closes every connection (1001). */
  close(): void;
}

export function createWsClients(routes: readonly WsRoute[], bodyLimit: number, services: EngineServices): WsClients {
  const { logger, app } = services;
  const hubs = new Map<WsRoute, Hub<Connection>>(routes.map((r) => [r, new Hub<Connection>()]));

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
      const conn = new Connection(peer, route.handler, hubs.get(route)!, logger, {
        params: req.params,
        query: req.query,
        headers: req.headers,
        path: ctx.pathname,
        app,
      });
      logger.debug(`WebSocket ${ctx.pathname}: client ${conn.id} connected (${route.handler.pattern})`);
      return conn.open(route.handler.heartbeat ?? 0);
    }, bodyLimit);
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
    broadcast: (route, data, room) => hubs.get(route)!.broadcast(data, room),
    close() {
      for (const hub of hubs.values()) {
        for (const conn of [...hub.clients]) conn.shutdown();
      }
    },
  };
}
