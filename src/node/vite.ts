/**
 * Vite plugin: the engines as dev-server (and preview-server) middleware, WebSockets on Vite's
 * own port.
 *
 *   // vite.config.ts
 *   import { mockyard } from 'mockyard/node';
 *   export default { plugins: [mockyard({ mock: { endpointPrefix: '/api', fsDir: 'mocks' }, tracker: {} })] };
 *
 * A relative `fsDir` resolves against Vite's `root` (unless `mock.root` is given). Requests the
 * engines do not answer continue down Vite's middleware chain; upgrades they do not claim are
 * left to Vite (HMR). The types below are the few Vite members used, so `mockyard` does not
 * depend on Vite.
 */
import type { LoggerSink } from '../core/logger.js';
import type { MockApiOptions } from '../engine/types.js';
import { isEngine } from '../core/engine.js';
import type { EngineSources } from './engines.js';
import { createMiddleware, type Middleware, type MiddlewareOptions } from './middleware.js';

interface ViteLikeLogger {
  info(msg: string, options?: unknown): void;
  warn(msg: string, options?: unknown): void;
  error(msg: string, options?: unknown): void;
}

/** The members of Vite's ViteDevServer / PreviewServer this plugin uses. */
export interface ViteLikeServer {
  config: { root: string; logger?: ViteLikeLogger };
  middlewares: { use(fn: Middleware): unknown };
  /** node:http (or http2) server; null in middleware mode. */
  httpServer: { on(event: string, listener: (...args: any[]) => void): unknown } | null; // eslint-disable-line @typescript-eslint/no-explicit-any
}

export interface ViteLikePlugin {
  name: string;
  configureServer(server: ViteLikeServer): Promise<void>;
  configurePreviewServer(server: ViteLikeServer): Promise<void>;
}

export type MockyardViteOptions = EngineSources & Pick<MiddlewareOptions, 'logLevel' | 'logger'>;

function sinkFor(logger: ViteLikeLogger | undefined): LoggerSink | undefined {
  if (!logger) return undefined;
  return {
    info: (m: string) => logger.info(m, { timestamp: true }),
    warn: (m: string) => logger.warn(m, { timestamp: true }),
    error: (m: string) => logger.error(m, { timestamp: true }),
  };
}

export function mockyard(options: MockyardViteOptions): ViteLikePlugin {
  const install = async (server: ViteLikeServer) => {
    const mock = options.mock && !isEngine(options.mock) ? ({ root: server.config.root, ...options.mock } as MockApiOptions) : options.mock;
    const mw = await createMiddleware({
      ...options,
      mock,
      logger: options.logger ?? sinkFor(server.config.logger),
    });
    server.middlewares.use(mw);
    if (server.httpServer) {
      server.httpServer.on('upgrade', mw.upgrade);
      server.httpServer.on('close', () => void mw.close());
    }
  };
  return {
    name: 'mockyard',
    configureServer: install,
    configurePreviewServer: install,
  };
}
