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
import { createLogger, type LoggerSink } from '../core/logger.js';
import type { Engine } from '../core/engine.js';
import { check } from '../core/options.js';
import { ADMIN_BASE, DEVTOOLS_BASE, isDevtoolsEngine } from '../devtools/paths.js';
import { isMockApi } from '../engine/is-mock-api.js';
import { isCollector } from '../tracker/is-collector.js';
import type { MockApiOptions } from '../engine/mock-api-options.js';
import { isEngine } from '../core/engine.js';
import { isLoopbackHost, type ServerNames } from '../devtools/guard.js';
import { resolve } from 'node:path';
import { nodeHost, type EngineSources } from './engines.js';
import { middlewareFor, type Middleware, type MiddlewareOptions } from './middleware.js';

interface ViteLikeLogger {
  info(msg: string, options?: unknown): void;
  warn(msg: string, options?: unknown): void;
  error(msg: string, options?: unknown): void;
}

/** Vite's `server` / `preview` options this plugin reads (its host rule). */
interface ViteLikeServerOptions {
  host?: string | boolean;
  allowedHosts?: string[] | true;
  https?: unknown;
}

/** The members of Vite's ViteDevServer / PreviewServer this plugin uses. */
export interface ViteLikeServer {
  config: { root: string; logger?: ViteLikeLogger; server?: ViteLikeServerOptions; preview?: ViteLikeServerOptions };
  middlewares: { use(fn: Middleware): unknown };
  /** node:http (or http2) server; null in middleware mode. */
  httpServer: { on(event: string, listener: (...args: any[]) => void): unknown } | null; // eslint-disable-line @typescript-eslint/no-explicit-any
}

export interface ViteLikePlugin {
  name: string;
  configureServer(server: ViteLikeServer): Promise<void>;
  configurePreviewServer(server: ViteLikeServer): Promise<void>;
}

export type MockyardViteOptions = EngineSources &
  Pick<MiddlewareOptions, 'logLevel' | 'logger'> & {
    /**
     * Also serve the engines under `vite preview` (default true: the built app previews against
     * the same mocks). `false`: the preview server is left alone (the built app then calls
     * whatever its URLs point to).
     */
    preview?: boolean;
    /**
     * A `.d.ts` file (relative to Vite's root) to keep the types of `mock.db` or `mock.fsDir` in,
     * written at start-up and again on every change of the data (docs/contract.md).
     */
    types?: string;
  };

function sinkFor(logger: ViteLikeLogger | undefined): LoggerSink | undefined {
  if (!logger) return undefined;
  return {
    info: (m: string) => logger.info(m, { timestamp: true }),
    warn: (m: string) => logger.warn(m, { timestamp: true }),
    error: (m: string) => logger.error(m, { timestamp: true }),
  };
}

/**
 * Vite's host rule for the devtools (src/devtools/guard.ts): its `host` (default `localhost`, so
 * the devtools are on by default, as on any loopback server) and `allowedHosts`. Vite checks the
 * Host of its own requests; the plugin's middleware runs before Vite's, so the guard applies the
 * same rule to the admin API.
 */
function viteSite(options: ViteLikeServerOptions | undefined, which: 'server' | 'preview'): { local: boolean; server: ServerNames } {
  const host = options?.host;
  const listen = typeof host === 'string' ? host : host === true ? '0.0.0.0' : 'localhost';
  // Over https Vite checks no Host (a rebinding page cannot show the certificate): nor does the guard.
  const allowed = options?.https ? true : options?.allowedHosts;
  return { local: isLoopbackHost(listen), server: { listen, allowed, option: `Vite's ${which}.allowedHosts (or devtools.allowedHosts)` } };
}

/** The plugin's start-up lines in Vite's log: what it serves, where the devtools are (or why they are off). */
export function startupLines(engines: readonly Engine[], base: string, mock: MockyardViteOptions['mock']): string[] {
  const lines: string[] = [];
  const source = mock && !isEngine(mock) ? (typeof mock.db === 'string' ? mock.db : typeof mock.fsDir === 'string' ? `files in ${mock.fsDir}` : mock.fs ? 'its filesystem' : undefined) : undefined;
  for (const e of engines) {
    if (isDevtoolsEngine(e)) lines.push(`devtools at ${base}${DEVTOOLS_BASE}/ (admin API at ${ADMIN_BASE}/)`);
    else if (isDevtoolsEngine(e, true)) lines.push(`devtools off (${ADMIN_BASE}/ answers why): on by default only on a loopback Vite; with --host set devtools: { token }`);
    else if (isCollector(e)) lines.push(`event collector at ${base}${e.basePath}`);
    else if (isMockApi(e)) {
      lines.push(`mock API at ${e.prefixes.map((p) => `${base}${p === '/' ? '/' : p}`).join(', ')}${source ? ` (${source})` : ''}`);
      const graphql = e.options.graphql;
      if (graphql) lines.push(`GraphQL at ${base}${e.prefixes[0] === '/' ? '' : (e.prefixes[0] ?? '')}${graphql.path}`);
    }
    else lines.push(`engine at ${e.prefixes.join(', ')}`);
  }
  return lines;
}

/** The plugin's `types` option: the data's types written now and on every change (contract-cli.ts). */
async function keepTypes(root: string, mock: EngineSources['mock'], types: string, logger: LoggerSink | undefined): Promise<AbortController | undefined> {
  const options = mock && !isEngine(mock) && typeof mock === 'object' ? (mock as MockApiOptions) : undefined;
  // The data's types, else the OpenAPI document's (a path: `openapi: './openapi.yaml'` or `{ document: './openapi.yaml' }`), as `mockyard export` writes either.
  const openapi = options?.openapi as unknown;
  const documentPath = typeof openapi === 'string' ? openapi : typeof openapi === 'object' && openapi !== null && typeof (openapi as { document?: unknown }).document === 'string' ? ((openapi as { document: string }).document) : undefined;
  const data = options?.db ?? (typeof options?.fsDir === 'string' ? options.fsDir : undefined) ?? documentPath;
  if (data === undefined) throw new Error('mockyard: the Vite option "types" writes the types of mock.db, mock.fsDir or mock.openapi (a file path): give one of them');
  const { exportContract, watchContract } = await import('./contract-cli.js');
  const source = resolve(options?.root ?? root, data);
  const flags = { types: resolve(root, types), mock: options };
  const write = () => exportContract(source, flags, root).catch((err: unknown) => (logger ?? console).warn(`mockyard: types not written: ${(err as Error).message}`));
  await write();
  const stop = new AbortController();
  watchContract(source, async () => void (await write()), stop.signal);
  return stop;
}

export function mockyard(options: MockyardViteOptions): ViteLikePlugin {
  const preview = check.boolean(options.preview, 'preview', true);
  const install = async (server: ViteLikeServer, which: 'server' | 'preview') => {
    const mock = options.mock && !isEngine(options.mock) ? ({ root: server.config.root, ...options.mock } as MockApiOptions) : options.mock;
    const logger = options.logger ?? sinkFor(server.config.logger);
    const site = viteSite(which === 'preview' ? server.config.preview : server.config.server, which);
    const hostApp = await nodeHost({ mock, tracker: options.tracker, engines: options.engines, devtools: options.devtools, logger, ...site });
    const mw = middlewareFor(hostApp, { logger, ...(options.logLevel ? { logLevel: options.logLevel } : {}), owned: [hostApp] });
    server.middlewares.use(mw);
    const log = createLogger(options.logLevel ?? 'info', logger ?? console);
    const announce = (base: string) => {
      for (const line of startupLines(hostApp.engines, base, mock)) log.info(line);
    };
    if (server.httpServer) {
      server.httpServer.on('listening', () => {
        const address = (server.httpServer as { address?: () => unknown }).address?.() as { port?: number } | string | null | undefined;
        const name = site.server.listen === undefined || site.server.listen === '0.0.0.0' || site.server.listen === '::' ? 'localhost' : site.server.listen;
        announce(typeof address === 'object' && address?.port ? `http://${name.includes(':') ? `[${name}]` : name}:${address.port}` : '');
      });
    } else announce('');
    const stopTypes = which === 'server' && options.types !== undefined ? await keepTypes(server.config.root, mock, options.types, logger) : undefined;
    if (server.httpServer) {
      server.httpServer.on('upgrade', mw.upgrade);
      server.httpServer.on('close', () => {
        stopTypes?.abort();
        void mw.close();
      });
    }
  };
  return {
    name: 'mockyard',
    configureServer: (server) => install(server, 'server'),
    configurePreviewServer: (server) => (preview ? install(server, 'preview') : Promise.resolve()),
  };
}
