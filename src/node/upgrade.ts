/**
 * WebSocket upgrades on a node:http server, routed to engines through the socket seam.
 *
 * For each 'upgrade' event the handshake becomes a lazy Request and the engines with an
 * `upgrade()` whose prefixes cover its path are asked in order (host/dispatch.ts):
 *   - a SocketAccept → `ws` completes the handshake (`noServer`, `handleUpgrade`) on the same
 *     port and the engine's session receives the connection's events;
 *   - a Response → the handshake is refused with it (status, headers, body), connection closed;
 *   - `undefined` from every engine → standalone (`serve`): a JSON 404 and the socket is closed;
 *     embedded (middleware, Vite, an app's own server):
 *       - under an engine's prefix: the same JSON 404 (the path is the engine's, as for HTTP),
 *         unless that engine forwards what it does not answer (`forwardsUnmatched`);
 *       - elsewhere: the socket is left to the server's other 'upgrade' listeners (Vite's HMR
 *         socket, the app's own WebSocket server, a proxy); when this handler is the server's
 *         only 'upgrade' listener nobody else will answer, so it gets the 404 too instead of
 *         hanging until the client gives up.
 */
import type { EventEmitter } from 'node:events';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { underPrefix, type Engine } from '../core/engine.js';
import { hostFor, type Host } from '../host/create-host.js';
import { errorResponse, responseForError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import type { SocketAccept } from '../core/socket.js';
import { writeRawResponse } from './raw-response.js';
import { createNodeRequest, pathOf } from './request.js';
import { bindSession } from './ws-peer.js';

export interface UpgradeHandlerOptions {
  logger: Logger;
  fallbackHost: () => string;
  /** true: leave upgrades no engine claims to other listeners; false: answer 404 and close. */
  embedded: boolean;
}

export interface UpgradeHandler {
  (req: IncomingMessage, socket: Duplex, head: Buffer): void;
  /** Closes every WebSocket this handler accepted (code 1001) and stops accepting new ones. */
  close(): Promise<void>;
}

/**
 * Whether the handler is the only 'upgrade' listener of the server the upgrade came to: `this`
 * of the call when Node invoked it as a listener, else the server the connection belongs to. If
 * no server can be found, other listeners are assumed (the socket is left alone, as before).
 */
function onlyUpgradeListener(self: unknown, req: IncomingMessage): boolean {
  const isEmitter = (x: unknown): x is EventEmitter => typeof (x as EventEmitter | null)?.listenerCount === 'function';
  const server = isEmitter(self) ? self : (req.socket as { server?: unknown }).server;
  return isEmitter(server) && server.listenerCount('upgrade') <= 1;
}

/** Frame limit for engines that state none (ws's own default is 100 MiB). */
const DEFAULT_MAX_PAYLOAD = 16 * 1024 * 1024;

export function createUpgradeHandler(engines: Host | readonly Engine[], options: UpgradeHandlerOptions): UpgradeHandler {
  const { logger, embedded, fallbackHost } = options;
  const host = hostFor(engines, 'createUpgradeHandler');
  const upgradable = host.engines.some((e) => typeof e.upgrade === 'function');
  // One `ws` server per message limit an engine asks for (maxPayload is a server option), so a
  // frame over the limit is refused with 1009 while it arrives, never buffered whole.
  const servers = new Map<number, WebSocketServer>();
  let closed = false;

  const accept = (req: IncomingMessage, socket: Duplex, head: Buffer, onSocket: SocketAccept) => {
    const maxPayload = onSocket.maxMessageBytes ?? DEFAULT_MAX_PAYLOAD;
    let wss = servers.get(maxPayload);
    if (!wss) servers.set(maxPayload, (wss = new WebSocketServer({ noServer: true, clientTracking: true, maxPayload })));
    wss.handleUpgrade(req, socket, head, (ws) => bindSession(ws, onSocket, logger));
  };

  const refuse = (socket: Duplex, response: Response) => {
    writeRawResponse(socket, response).catch(() => socket.destroy());
  };

  // Prefixes whose unclaimed upgrades are a 404 even when embedded (see the module comment).
  const owned = host.engines.filter((e) => e.forwardsUnmatched !== true).flatMap((e) => e.prefixes);
  const ownsPath = (path: string) => owned.some((p) => underPrefix(path, p));

  /** An upgrade no engine claimed: 404, or left to the server's other listeners. */
  const unclaimed = (server: unknown, req: IncomingMessage, socket: Duplex) => {
    const path = pathOf(req.url ?? '/');
    if (!embedded || ownsPath(path) || onlyUpgradeListener(server, req)) refuse(socket, errorResponse(404, 'Not Found', path));
  };

  const handler = function (this: unknown, req: IncomingMessage, socket: Duplex, head: Buffer) {
    if (closed) {
      if (!embedded) socket.destroy();
      return;
    }
    const server = this;
    if (!upgradable) {
      unclaimed(server, req, socket);
      return;
    }
    const onError = () => socket.destroy();
    socket.on('error', onError);
    const request = createNodeRequest(req, undefined, fallbackHost());
    host.upgrade(request).then(
      (result) => {
        if (result === undefined) {
          socket.off('error', onError);
          unclaimed(server, req, socket);
          return;
        }
        if (typeof result === 'function') {
          socket.off('error', onError);
          if (closed) return void socket.destroy();
          try {
            accept(req, socket, head, result);
          } catch (err) {
            logger.error(`WebSocket handshake ${req.url} failed: ${err instanceof Error ? err.message : String(err)}`);
            socket.destroy();
          }
          return;
        }
        refuse(socket, result);
      },
      (err: unknown) => {
        logger.error(`WebSocket upgrade ${req.url} failed: ${err instanceof Error ? err.message : String(err)}`);
        refuse(socket, responseForError(err, pathOf(req.url ?? '/')));
      },
    );
  } as UpgradeHandler;

  handler.close = async () => {
    closed = true;
    await Promise.all([...servers.values()].map((server) => {
      for (const client of server.clients) client.close(1001, 'Server shutting down');
      return new Promise<void>((resolve) => {
        const deadline = setTimeout(() => {
          for (const client of server.clients) client.terminate();
        }, 1000);
        deadline.unref();
        server.close(() => {
          clearTimeout(deadline);
          resolve();
        });
      });
    }));
  };
  return handler;
}
