/**
 * Connect-style middleware `(req, res, next)` for dev servers (Vite, webpack-dev-server, Express,
 * connect): the engines answer what is theirs, everything else goes to `next()`.
 *
 *   const mw = await createMiddleware({ mock: { endpointPrefix: '/api', fsDir: 'mocks' } });
 *   app.use(mw);                                  // HTTP
 *   httpServer.on('upgrade', mw.upgrade);         // WebSockets (see upgrade.ts for unclaimed ones)
 *   await mw.close();
 *
 * Under a mounting router (`app.use('/x', mw)`) the original URL (`req.originalUrl`) is used, so
 * engines always see the full path.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Engine } from '../core/engine.js';
import { createLogger, type LoggerSink, type LogLevel } from '../core/logger.js';
import type { NextFunction } from '../engine/types.js';
import { hostFor, type Host } from '../host/create-host.js';
import { createNodeHandler } from './request-handler.js';
import { nodeHost, type EngineSources } from './engines.js';
import { createUpgradeHandler, type UpgradeHandler } from './upgrade.js';

export interface Middleware {
  (req: IncomingMessage, res: ServerResponse, next: NextFunction): void;
  /**
   * 'upgrade' listener for the dev server's http server. An upgrade no engine claims gets a 404
   * under an engine's prefix; elsewhere it is left to the server's other 'upgrade' listeners, or
   * answered 404 when this is the only one (upgrade.ts).
   */
  readonly upgrade: UpgradeHandler;
  readonly engines: readonly Engine[];
  /** Closes WebSockets and the engines created from options. */
  close(): Promise<void>;
}

export interface MiddlewareOptions extends EngineSources {
  logger?: LoggerSink;
  logLevel?: LogLevel;
  /** Host used in request URLs when the Host header is missing (default `localhost`). */
  host?: string;
}

type MaybeMounted = IncomingMessage & { originalUrl?: string };

/** Middleware over ready engines or a host (synchronous); `owned`: closed with it. */
export function middlewareFor(engines: Host | readonly Engine[], options: { logger?: LoggerSink; logLevel?: LogLevel; host?: string; owned?: readonly Engine[] } = {}): Middleware {
  const hostApp = hostFor(engines, 'middlewareFor');
  const logger = createLogger(options.logLevel ?? 'info', options.logger ?? console);
  const host = options.host ?? 'localhost';
  const fallbackHost = () => host;
  const nexts = new WeakMap<IncomingMessage, NextFunction>();
  const handler = createNodeHandler(hostApp, {
    logger,
    fallbackHost,
    target: (req) => (req as MaybeMounted).originalUrl ?? req.url ?? '/',
    unhandled(req) {
      const next = nexts.get(req);
      nexts.delete(req);
      next?.();
    },
  });
  const upgrade = createUpgradeHandler(hostApp, { logger, fallbackHost, embedded: true });
  const owned = options.owned ?? [];
  const mw = ((req: IncomingMessage, res: ServerResponse, next: NextFunction) => {
    nexts.set(req, next);
    handler(req, res);
  }) as Middleware & { upgrade: UpgradeHandler; engines: readonly Engine[] };
  Object.assign(mw, {
    upgrade,
    engines: hostApp.engines,
    async close() {
      await upgrade.close();
      await Promise.allSettled(owned.map((e) => e.close?.()));
    },
  });
  return mw;
}

/** Middleware from host options (`mock`, `tracker`, `engines`), engines created here. */
export async function createMiddleware(options: MiddlewareOptions): Promise<Middleware> {
  const { mock, tracker, engines, devtools } = options;
  // The devtools answer only the Host names of devtools.allowedHosts, loopback names and IP addresses
  // (src/devtools/guard.ts): middleware cannot know its server's own names.
  const hostApp = await nodeHost({ mock, tracker, engines, devtools, logger: options.logger, server: options.host ? { listen: options.host } : {} });
  return middlewareFor(hostApp, { ...options, owned: [hostApp] });
}
