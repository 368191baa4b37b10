/**
 * `serve()`: the engines on a node:http server (plus WebSocket upgrades on the same port).
 *
 *   const server = await serve({ mock: { endpointPrefix: '/api', fsDir: 'mocks' }, port: 0 });
 *   server.url   // http://127.0.0.1:49152
 *   await server.close();
 *
 * Engines are tried in order: the collector (`tracker`), the mock API (`mock`), then `engines`.
 * A request no engine answers gets the JSON 404 of src/core/errors.ts; an upgrade no engine
 * claims gets a 404 and its socket is closed; a request the HTTP parser refuses (URL and headers
 * over `maxHeaderSize`, a malformed request line) gets the JSON 431/400 (client-error.ts).
 */
import { createServer, maxHeaderSize as defaultMaxHeaderSize, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Engine } from '../core/engine.js';
import { errorResponse } from '../core/errors.js';
import { createLogger, type Logger, type LoggerSink, type LogLevel } from '../core/logger.js';
import { check } from '../core/options.js';
import { isLoopbackHost } from '../devtools/guard.js';
import { createClientErrorHandler } from './client-error.js';
import type { Host } from '../host/create-host.js';
import type { Runtime } from '../host/runtime.js';
import { createNodeHandler } from './request-handler.js';
import { nodeHost, type EngineSources } from './engines.js';
import { pathOf } from './request.js';
import { createUpgradeHandler } from './upgrade.js';
import { writeResponse } from './write-response.js';

export interface ServeOptions extends EngineSources {
  /** What the platform provides (default: Node's, src/node/runtime.ts); e.g. another proxy transport. */
  runtime?: Runtime;
  /** TCP port; 0 picks a free one. Default 3000. */
  port?: number;
  /** Interface to listen on. Default `127.0.0.1`. */
  host?: string;
  /** Where the host's own messages go (default console). */
  logger?: LoggerSink;
  /** Host log level (default `info`). */
  logLevel?: LogLevel;
  /**
   * Asked for a request no engine answered, before the JSON 404 (the CLI's home page at `/` and
   * its request log of unmatched requests). Not a routing engine: it never costs the engines'
   * fast path anything.
   */
  fallback?: (request: Request) => Promise<Response | undefined> | Response | undefined;
  /**
   * Most bytes the request line (the URL included) and headers may take together (Node's
   * `maxHeaderSize`; default Node's own, 16 KiB). Past it: a JSON 431.
   */
  maxHeaderSize?: number;
}

export interface RunningServer {
  /** Base URL, e.g. `http://127.0.0.1:3000` (unspecified addresses shown as 127.0.0.1). */
  readonly url: string;
  readonly port: number;
  readonly host: string;
  readonly server: Server;
  /** The engines in the order they are tried. */
  readonly engines: readonly Engine[];
  /** Stops accepting, closes WebSockets (1001) and connections, then closes the engines serve created. */
  close(): Promise<void>;
}

/** `http://host:port` for an address, with loopback shown for unspecified ones. */
export function baseUrl(host: string, port: number): string {
  const shown = host === '0.0.0.0' || host === '::' || host === '' ? '127.0.0.1' : host;
  return `http://${shown.includes(':') ? `[${shown}]` : shown}:${port}`;
}

function listen(server: Server, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException) => {
      server.off('listening', onListening);
      if (err.code === 'EADDRINUSE') reject(Object.assign(new Error(`Port ${port} on ${host} is already in use (try --port 0 for a free port)`), { code: err.code }));
      else if (err.code === 'EACCES') reject(Object.assign(new Error(`Not allowed to listen on ${host}:${port}`), { code: err.code }));
      else reject(err);
    };
    const onListening = () => {
      server.off('error', onError);
      resolve(server.address() as AddressInfo);
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, host);
  });
}

/** Where and how a node:http server listens, checked (defaults: port 3000 on 127.0.0.1). */
export interface ListenOptions {
  port: number;
  host: string;
  maxHeaderSize: number;
  logger: Logger;
}

export function listenOptions(options: Pick<ServeOptions, 'port' | 'host' | 'maxHeaderSize' | 'logger' | 'logLevel'>): ListenOptions {
  return {
    port: check.number(options.port, 'port', 3000, { min: 0, max: 65535, integer: true }),
    host: check.string(options.host, 'host', '127.0.0.1', { nonEmpty: true })!,
    maxHeaderSize: check.number(options.maxHeaderSize, 'maxHeaderSize', defaultMaxHeaderSize, { min: 1024, integer: true }),
    logger: createLogger(options.logLevel ?? 'info', options.logger ?? console),
  };
}

export async function serve(options: ServeOptions = {}): Promise<RunningServer> {
  const listen = listenOptions(options);
  const { mock, tracker, engines, devtools } = options;
  const hostApp = await nodeHost({ mock, tracker, engines, devtools, logger: options.logger, local: isLoopbackHost(listen.host), server: { listen: listen.host }, ...(options.runtime ? { runtime: options.runtime } : {}) });
  let running: RunningServer;
  try {
    running = await serveHost(hostApp, { ...listen, fallback: options.fallback });
  } catch (err) {
    await hostApp.close();
    throw err;
  }
  let closing: Promise<void> | undefined;
  // The host serve() made is serve()'s: closed once the server has stopped.
  return { ...running, close: () => (closing ??= running.close().then(() => hostApp.close())) };
}

/**
 * A host on a node:http server (`serve` after assembling one; the CLI, which assembles once).
 * `close()` stops the server and its WebSockets; the host stays the caller's to close.
 */
export async function serveHost(hostApp: Host, options: ListenOptions & Pick<ServeOptions, 'fallback'>): Promise<RunningServer> {
  const { port, host, maxHeaderSize, logger } = options;
  const { engines } = hostApp;

  let hostHeader = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  const fallbackHost = () => hostHeader;
  const handler = createNodeHandler(hostApp, {
    logger,
    fallbackHost,
    unhandled(req, res, request) {
      const notFound = () => errorResponse(404, 'Not Found', pathOf(req.url ?? '/'), { head: req.method === 'HEAD' });
      if (!options.fallback) {
        void writeResponse(notFound(), req, res);
        return;
      }
      Promise.resolve()
        .then(() => options.fallback!(request))
        .then(
          (r) => writeResponse(r ?? notFound(), req, res),
          (err: unknown) => {
            logger.error(`${req.method} ${req.url} failed: ${(err as Error)?.message ?? String(err)}`);
            return writeResponse(errorResponse(500, 'Internal Server Error', pathOf(req.url ?? '/')), req, res);
          },
        )
        .catch(() => res.destroy());
    },
  });
  const upgrade = createUpgradeHandler(hostApp, { logger, fallbackHost, embedded: false });
  const server = createServer({ maxHeaderSize }, handler);
  server.on('upgrade', upgrade);
  // Requests the HTTP parser refuses (URL/headers too large, malformed) get the JSON error body too.
  server.on('clientError', createClientErrorHandler({ logger, maxHeaderSize }));

  let address: AddressInfo;
  address = await listen(server, port, host);
  hostHeader = `${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;
  const url = baseUrl(address.address, address.port);

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      await upgrade.close();
      // Requests in flight get a moment to finish; then every connection is dropped.
      const grace = setTimeout(() => server.closeAllConnections(), 500);
      grace.unref();
      await stopped;
      clearTimeout(grace);
    })();
    return closing;
  };

  return { url, port: address.port, host: address.address, server, engines, close };
}
