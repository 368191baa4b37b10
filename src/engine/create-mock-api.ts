/**
 * createMockApi(options): the mock API engine. A request whose path is under a prefix (longest
 * first, on a segment boundary) goes to
 *   1. the handler layer (handlers/layer.ts),
 *   2. file-system mode (fs/), global `delay` applied,
 *   3. nothing matched: JSON 404 (`noHandledRestFsRequestsAction: '404'`) or `undefined` ('forward').
 * Requests outside every prefix, and every request of a disabled engine, get `undefined`.
 */
import { corsHeaders, isPreflight, preflightHeaders } from '../core/cors.js';
import { errorResponse, responseForError } from '../core/errors.js';
import { FastResponse, withHeaders } from '../core/fast-response.js';
import { underPrefix, type Engine } from '../core/engine.js';
import { KeyedQueue } from '../core/keyed-queue.js';
import { createLogger, type Logger } from '../core/logger.js';
import { OptionsError } from '../core/options.js';
import type { UpgradeResult } from '../core/socket.js';
import { jsonDbFs, type JsonDbVfs } from '../vfs/json-db.js';
import type { Vfs } from '../vfs/types.js';
import { PASS, type Layer } from './collections/contract.js';
import { createCollectionsLayer } from './collections/layer.js';
import { createContext, type RequestContext } from './context.js';
import { getDefaultFsFactory, getScratchFsFactory } from './default-fs.js';
import { createFsMode, type FsMode } from './fs/fs-mode.js';
import { createHandlerLayer, type HandlerLayer } from './handlers/layer.js';
import { resolveMockApiOptions, type ResolvedMockApiOptions } from './options.js';
import type { EngineServices, FsServeOverrides } from './services.js';
import { Sleeper } from './sleeper.js';
import type { MockApiApp, MockApiOptions } from './types.js';
import type { WsLayer } from './ws/layer.js';
import { broadcastRoute } from './ws/routes.js';

export interface MockApi extends Engine {
  handle(request: Request): Promise<Response | undefined>;
  handleCached(request: Request): Response | undefined;
  upgrade(request: Request): Promise<UpgradeResult> | UpgradeResult;
  /** Normalised prefixes, longest first (`[]` when disabled). */
  readonly prefixes: readonly string[];
  /** `broadcast(pattern, data)` to the clients of a WebSocket handler; returns how many got it. */
  readonly ws: MockApiApp['ws'];
  /** The services handlers see as `req.app`. */
  readonly app: MockApiApp;
  /** The validated options. */
  readonly options: ResolvedMockApiOptions;
  /**
   * Resolves once start-up is done (fsDir checked; with enableWs, the WebSocket layer loaded);
   * tells whether file routing is on.
   */
  ready(): Promise<boolean>;
  close(): Promise<void>;
}

const NOT_FOUND = 'Not Found';

/** Splits an absolute URL into its encoded path and query (`?…` or ''), without `new URL()`. */
function splitUrl(url: string): [string, string] {
  const scheme = url.indexOf('://');
  let p = scheme === -1 ? -1 : url.indexOf('/', scheme + 3);
  if (p === -1) {
    if (scheme === -1) {
      const u = new URL(url, 'http://localhost');
      return [u.pathname, u.search];
    }
    p = url.length;
  }
  let end = url.length;
  const hash = url.indexOf('#', p);
  if (hash !== -1) end = hash;
  const q = url.indexOf('?', p);
  if (q !== -1 && q < end) return [url.slice(p, q) || '/', url.slice(q, end)];
  return [url.slice(p, end) || '/', ''];
}

export function createMockApi(input: MockApiOptions): MockApi {
  const options = resolveMockApiOptions(input);
  const logger: Logger = createLogger(options.logLevel, options.logger ?? console);
  for (const w of options.warnings) logger.warn(w);
  if (options.disabledReason && options.disabledReason !== 'disable: true') logger.warn(options.disabledReason);

  const prefixes = options.prefixes;
  const disabled = options.disabled;
  const sleeper = new Sleeper();
  const queue = new KeyedQueue();
  let closed = false;

  // The filesystem: given, or the registered default (disk in Node) when fsDir is set.
  let vfs: Vfs | null = options.fs ?? null;
  let ownVfs = false;
  let db: JsonDbVfs | undefined;
  let dbInner: Vfs | undefined;
  if (!disabled && options.db !== null) {
    // json-server's db.json: one file seen as a folder of `<key>.json` files (src/vfs/json-db.ts).
    let inner = vfs;
    let file = options.db;
    if (!inner) {
      const factory = getDefaultFsFactory();
      if (!factory) throw new OptionsError('mock.fs', 'is required with mock.db here: no default filesystem is registered (outside Node, pass fs: memoryFs() or indexedDbFs())');
      const cut = Math.max(file.lastIndexOf('/'), file.lastIndexOf('\\'));
      inner = dbInner = factory(cut === -1 ? '.' : file.slice(0, cut) || '/', options.root);
      file = file.slice(cut + 1);
    }
    vfs = db = jsonDbFs(inner, file, { onWarning: (m) => logger.warn(m) });
    ownVfs = true;
  } else if (!disabled && !vfs && options.fsDir !== null) {
    const factory = getDefaultFsFactory();
    if (!factory) throw new OptionsError('mock.fs', 'is required here: no default filesystem is registered (outside Node, pass fs: memoryFs() or indexedDbFs())');
    vfs = factory(options.fsDirOption!, options.root);
    ownVfs = true;
  }
  let fallbackFs: Vfs | undefined;

  let fsMode: FsMode | undefined;
  let fsChecked = false;
  const fsReady: Promise<boolean> = (async () => {
    if (disabled || options.fsDir === null || !vfs) return false;
    if (db) {
      try {
        await db.ready();
      } catch (err) {
        logger.error(`${options.db}: ${(err as Error)?.message ?? String(err)}; file routing is disabled`);
        return false;
      }
    }
    let ok = false;
    try {
      const s = await vfs.stat(options.fsDir);
      ok = s !== null && s.kind === 'dir';
    } catch {
      ok = false;
    }
    if (!ok) {
      logger.warn(`fsDir "${options.fsDirOption ?? ''}" does not exist (${vfs.driver}); file routing is disabled, handlers still work`);
      return false;
    }
    fsMode = createFsMode({
      vfs,
      fsDir: options.fsDir,
      bodyLimit: options.bodyLimit,
      logger,
      queue,
      pagination: options.pagination,
      filters: options.filters,
    });
    return true;
  })().finally(() => {
    fsChecked = true;
  });

  let wsLayer: WsLayer | undefined;
  const app: MockApiApp = {
    ws: {
      // Before the WebSocket layer is loaded no client exists (an unknown pattern still throws).
      broadcast: (pattern, data, opts) => (wsLayer ? wsLayer.broadcast(pattern, data, opts) : options.enableWs ? (broadcastRoute(options.wsRoutes, pattern), 0) : 0),
    },
    get fs(): Vfs {
      if (vfs) return vfs;
      if (!fallbackFs) {
        const scratch = getScratchFsFactory();
        if (!scratch) throw new OptionsError('mock.fs', 'is needed for req.app.fs: no scratch filesystem is registered here (pass fs: memoryFs() or indexedDbFs())');
        fallbackFs = scratch();
      }
      return fallbackFs;
    },
  };

  const notFound = (ctx: RequestContext) => errorResponse(404, NOT_FOUND, ctx.pathname, { head: ctx.method === 'HEAD' });

  const services: EngineServices = {
    logger,
    get vfs() {
      return vfs;
    },
    app,
    queue,
    fsEnabled: () => fsReady,
    async serveFs(ctx: RequestContext, overrides?: FsServeOverrides): Promise<Response> {
      if (!fsChecked) await fsReady;
      if (!fsMode) return notFound(ctx);
      return (await fsMode.serve(ctx, overrides)) ?? notFound(ctx);
    },
    sleep: (ms) => sleeper.sleep(ms),
    get closed() {
      return closed;
    },
  };

  const handlers: HandlerLayer | undefined = disabled ? undefined : createHandlerLayer(options, services);
  // The WebSocket layer is imported only with enableWs (its own chunk in browser bundles), at once;
  // ready() waits for it and so does a handshake that comes earlier. A failed import is retried
  // by the next handshake.
  let wsLoad: Promise<WsLayer> | undefined;
  const loadWs = (): Promise<WsLayer> =>
    (wsLoad ??= import('./ws/layer.js').then(
      (m) => (wsLayer = m.createWsLayer(options, services)),
      (err: unknown) => {
        wsLoad = undefined;
        logger.error(`could not load the WebSocket layer: ${(err as Error)?.message ?? err}`);
        throw err;
      },
    ));
  const wsReady = disabled || !options.enableWs ? undefined : loadWs().catch(() => undefined);
  const delay = options.delay;
  const forward = options.noHandledRestFsRequestsAction === 'forward';
  // Layers after the handlers, before file mode (the pipeline's list once issue 14 lands).
  const collections: Layer | undefined = disabled || !options.collections
    ? undefined
    : createCollectionsLayer(
      { idField: options.collections.idField, jsonServer: options.preset === 'json-server', pagination: options.pagination, filters: options.filters },
      { mode: () => fsMode, ready: () => fsReady },
    );
  const cors = options.cors;

  function matchPrefix(pathname: string): string | undefined {
    for (let i = 0; i < prefixes.length; i++) {
      const p = prefixes[i]!;
      if (underPrefix(pathname, p)) return p;
    }
    return undefined;
  }

  function contextFor(request: Request, start: number): RequestContext | undefined {
    const [pathname, search] = splitUrl(request.url);
    const prefix = matchPrefix(pathname);
    if (prefix === undefined) return undefined;
    // Fetch upper-cases only the six standard methods; `fetch(url, { method: 'patch' })` in a
    // page reaches the engine as "patch". Methods are case-insensitive here, as in llhttp.
    return createContext(request, request.method.toUpperCase(), pathname, search, prefix, start);
  }

  async function respond(ctx: RequestContext): Promise<Response | undefined> {
    try {
      if (handlers) {
        const r = await handlers.handle(ctx);
        if (r !== undefined) return r;
      }
      if (collections) {
        const r = await collections.handle(ctx);
        if (r !== undefined) {
          if (delay > 0) await sleeper.sleep(delay);
          return r;
        }
      }
      if (!fsChecked) await fsReady;
      if (fsMode) {
        const r = await fsMode.serve(ctx);
        if (r !== undefined) {
          if (delay > 0) await sleeper.sleep(delay);
          return r;
        }
      }
      if (forward) return undefined;
      if (delay > 0) await sleeper.sleep(delay);
      return notFound(ctx);
    } catch (err) {
      logger.error(`${ctx.method} ${ctx.pathname} failed: ${(err as Error)?.message ?? String(err)}`);
      return responseForError(err, ctx.pathname, ctx.method === 'HEAD');
    }
  }

  const debug = logger.enabled('debug');

  /**
   * Hot path: a GET/HEAD of a cached, fresh file that no handler claims, answered without a
   * promise chain (the same answer respond() gives; anything else is left to it).
   */
  function cachedAnswer(ctx: RequestContext): Response | undefined {
    if (fsMode === undefined || delay !== 0 || debug) return undefined;
    let cached: Response | undefined;
    if (collections) {
      const c = collections.peek!(ctx);
      if (c === undefined) return undefined;
      cached = c === PASS ? fsMode.serveCached(ctx) : c;
    } else cached = fsMode.serveCached(ctx);
    // Handlers win over files. Asked only on a cache hit: a handler's own request then costs a
    // cache miss here, not a second route match before the handler layer's.
    return cached !== undefined && handlers !== undefined && handlers.claims(ctx) ? undefined : cached;
  }

  async function handleInner(request: Request): Promise<Response | undefined> {
    const start = debug ? performance.now() : 0;
    let ctx: RequestContext | undefined;
    if (request === declined) {
      ctx = declinedCtx!;
      declined = declinedCtx = undefined;
    } else {
      ctx = contextFor(request, start);
      if (ctx === undefined) return undefined;
      const cached = cachedAnswer(ctx);
      if (cached !== undefined) return cached;
    }
    const res = await respond(ctx);
    if (debug) {
      const ms = (performance.now() - start).toFixed(1);
      logger.debug(`${ctx.method} ${ctx.pathname}${ctx.search} ${res ? res.status : 'forwarded'} ${ms}ms`);
    }
    return res;
  }

  function handleCachedInner(request: Request): Response | undefined {
    if (disabled || fsMode === undefined || debug) return undefined;
    try {
      const ctx = contextFor(request, 0);
      if (ctx === undefined) return undefined;
      const cached = cachedAnswer(ctx);
      if (cached === undefined) {
        declined = request;
        declinedCtx = ctx;
      }
      return cached;
    } catch {
      return undefined;
    }
  }

  /**
   * CORS (`mock.cors`) around the engine's answers: a preflight under a prefix gets 204 with the
   * allowed methods and headers (403 for an origin that is not allowed) before file mode's
   * OPTIONS → 405; every other answer carries Access-Control-Allow-Origin (src/core/cors.ts).
   */
  async function handleWithCors(request: Request): Promise<Response | undefined> {
    const origin = request.headers.get('origin');
    if (origin !== null && isPreflight(request, request.method.toUpperCase())) {
    const [pathname] = splitUrl(request.url);
    if (matchPrefix(pathname) === undefined) return undefined;
    const headers = preflightHeaders(cors, request, origin);
    return headers ? FastResponse.empty(204, headers) : errorResponse(403, `Origin ${origin} is not allowed`, pathname);
    }
    const res = await handleInner(request);
    return res === undefined ? undefined : withHeaders(res, corsHeaders(cors, origin));
  }

  // The request `handleCached` last declined, with its context: hosts call `handle` for it right
  // after (synchronously), which then neither parses it again nor repeats the hot-path check.
  let declined: Request | undefined;
  let declinedCtx: RequestContext | undefined;

  return {
    prefixes: options.publicPrefixes,
    options,
    app,
    ws: app.ws,

    async handle(request: Request): Promise<Response | undefined> {
      if (disabled) return undefined;
      if (cors !== undefined) return handleWithCors(request);
      return handleInner(request);
    },

    handleCached(request: Request): Response | undefined {
      const r = handleCachedInner(request);
      return r !== undefined && cors !== undefined ? withHeaders(r, corsHeaders(cors, request.headers.get('origin'))) : r;
    },

    upgrade(request: Request): Promise<UpgradeResult> | UpgradeResult {
      if (!wsReady) return undefined;
      const ctx = contextFor(request, 0);
      if (ctx === undefined) return undefined;
      return wsLayer ? wsLayer.upgrade(ctx) : loadWs().then((layer) => layer.upgrade(ctx), (err: unknown) => responseForError(err, ctx.pathname));
    },

    ready: () => (wsReady ? wsReady.then(() => fsReady) : fsReady),

    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      sleeper.close();
      await fsReady.catch(() => false);
      await handlers?.close?.();
      await wsReady;
      wsLayer?.close();
      fsMode?.close();
      if (ownVfs) await vfs?.close?.();
      await dbInner?.close?.();
    },
  };
}
