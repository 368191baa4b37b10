/**
 * The WebSocket layer: `wsHandlers` matched on the handshake URL (patterns as for REST handlers,
 * relative to the prefix, array order), `authenticate` checked before accepting (401), then one
 * Connection per client on the host-neutral socket seam (src/core/socket.ts), grouped per
 * handler in a Hub (rooms, broadcasts). `broadcast(pattern, data, { room })` reaches every client
 * of the handler with that pattern; it backs `app.ws.broadcast` so REST handlers can push to
 * WebSocket subscribers.
 *
 * The engine imports this module at start-up only when `enableWs` is on (in browser bundles its
 * own chunk, never fetched by a page whose mock API has no WebSocket handlers); the handlers were
 * already checked and compiled with the options (routes.ts).
 * Order: outside the list (layers.ts): an upgrade is offered first to the listed layers that take
 *   sockets (graphql at its path), then to this one (create-mock-api.ts).
 */
import { responseForError } from '../../core/errors.js';
import { withMessageLimit, type SocketAccept, type UpgradeResult } from '../../core/socket.js';
import type { RequestContext } from '../context.js';
import { checkAuthenticate } from '../handler-api/authenticate.js';
import { PortableRequest } from '../handler-api/request.js';
import type { EngineServices } from '../services.js';
import { Connection } from './connection.js';
import { Hub } from './hub.js';
import { broadcastRoute, type WsRoute } from './routes.js';

export interface WsLayer {
  upgrade(ctx: RequestContext): UpgradeResult | Promise<UpgradeResult>;
  broadcast(pattern: string, data: unknown, options?: { room?: string }): number;
  count(pattern: string, options?: { room?: string }): number;
  /** Closes every connection (1001). */
  close(): void;
}

/** What the WebSocket layer reads of the resolved options (the option list passes them whole). */
export interface WsLayerOptions {
  readonly wsRoutes: readonly WsRoute[];
  readonly maxJsonDepth: number;
  readonly bodyLimit: number;
}

export function createWsLayer(options: WsLayerOptions, services: EngineServices): WsLayer {
  const { logger, app } = services;
  const routes = options.wsRoutes;
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
        maxJsonDepth: options.maxJsonDepth,
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
    broadcast: (pattern, data, opts = {}) => hubs.get(broadcastRoute(routes, pattern))!.broadcast(data, opts.room),
    count: (pattern, opts = {}) => hubs.get(broadcastRoute(routes, pattern, 'app.ws.count'))!.size(opts.room),
    close() {
      for (const hub of hubs.values()) {
        for (const conn of [...hub.clients]) conn.shutdown();
      }
    },
  };
}
