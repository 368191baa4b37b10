/**
 * The WebSocket layer: `wsHandlers` matched on the handshake URL (patterns as for REST handlers,
 * relative to the prefix, array order), `authenticate` checked before accepting (401), then one
 * Connection per client on the host-neutral socket seam (src/core/socket.ts).
 * `broadcast(pattern, data, { room })` reaches every client of the handler with that pattern; it
 * backs `app.ws.broadcast` so REST handlers can push to WebSocket subscribers.
 *
 * This file is the part needed at start-up: options are checked and patterns compiled here, so a
 * mistake is an OptionsError from `createMockApi`. The rest (clients.ts: handshakes, connections,
 * hubs and rooms, heartbeats, frames) is a dynamic import started at start-up, only when
 * `enableWs` is on: in browser bundles its own chunk, never fetched by a page whose mock API has
 * no WebSocket handlers. `ready` resolves once it is loaded (the engine's `ready()` waits for it,
 * and so does `startWorker`); a handshake that comes earlier waits for it.
 */
import { responseForError } from '../../core/errors.js';
import { OptionsError } from '../../core/options.js';
import type { UpgradeResult } from '../../core/socket.js';
import type { RequestContext } from '../context.js';
import { compilePattern, type CompiledPattern } from '../handlers/pattern.js';
import { validateAuthenticate } from '../handlers/routes.js';
import type { ResolvedMockApiOptions } from '../options.js';
import type { EngineServices } from '../services.js';
import type { AuthenticateOption, WsHandler } from '../types.js';
import type { WsClients } from './clients.js';

export interface WsLayer {
  /** Resolves once the connection code is loaded (never rejects; a failed load is retried by the next handshake). */
  readonly ready: Promise<void>;
  upgrade(ctx: RequestContext): UpgradeResult | Promise<UpgradeResult>;
  broadcast(pattern: string, data: unknown, options?: { room?: string }): number;
  close?(): Promise<void>;
}

export interface WsRoute {
  handler: WsHandler;
  pattern: CompiledPattern;
  authenticate: AuthenticateOption | undefined;
}

export function createWsLayer(options: ResolvedMockApiOptions, services: EngineServices): WsLayer | undefined {
  if (!options.enableWs) return undefined;
  const { logger } = services;
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
    };
    routes.push(route);
    if (!byPattern.has(handler.pattern)) byPattern.set(handler.pattern, route);
  });

  let clients: WsClients | undefined;
  let loading: Promise<WsClients> | undefined;
  const load = () =>
    (loading ??= import('./clients.js').then(
      (m) => (clients = m.createWsClients(routes, options.bodyLimit, services)),
      (err: unknown) => {
        loading = undefined; // the next handshake tries again
        throw err;
      },
    ));
  const ready = load().then(() => {}, (err: unknown) => {
    logger.error(`WebSocket: could not load the WebSocket layer: ${(err as Error)?.message ?? err}`);
  });

  return {
    ready,
    upgrade(ctx) {
      if (clients) return clients.upgrade(ctx);
      return load().then((c) => c.upgrade(ctx), (err: unknown) => responseForError(err, ctx.pathname));
    },
    broadcast(pattern, data, opts = {}) {
      const route = byPattern.get(pattern);
      if (!route) {
        throw new Error(`app.ws.broadcast: no WebSocket handler with pattern ${JSON.stringify(pattern)} (known: ${[...byPattern.keys()].map((p) => JSON.stringify(p)).join(', ')})`);
      }
      // Before the connection code is loaded no client exists.
      return clients ? clients.broadcast(route, data, opts.room) : 0;
    },
    async close() {
      clients?.close();
    },
  };
}
