/**
 * createMockApi(options): the mock API engine, assembled: options → services → layers
 * (pipeline/build.ts) → pipeline (pipeline/run.ts) → Engine. A request whose path is under a
 * prefix (longest first, on a segment boundary) gets a RequestContext and walks the layer list;
 * requests outside every prefix, and every request of a disabled engine, get `undefined`.
 *
 * Context hand-off between `handleCached` and `handle`: when `handleCached` cannot answer at
 * once, it keeps the context it prepared in `prepared` (a WeakMap keyed by the Request; nothing
 * is written on the Request itself). `handle` called with the same Request takes it from there
 * and resumes the walk where the fast path stopped, without parsing the URL again. Any other
 * `handle` call starts afresh; an entry no `handle` claims goes with its Request.
 */
import { responseForError } from '../core/errors.js';
import { underPrefix, type Engine } from '../core/engine.js';
import { KeyedQueue } from '../core/keyed-queue.js';
import { createLogger, type Logger } from '../core/logger.js';
import { OptionsError } from '../core/options.js';
import type { UpgradeResult } from '../core/socket.js';
import type { Vfs } from '../vfs/types.js';
import { createContext, type RequestContext } from './context.js';
import { getDefaultFsFactory, getScratchFsFactory } from './default-fs.js';
import { resolveMockApiOptions, type ResolvedMockApiOptions } from './options.js';
import { buildLayers, type BuiltLayers } from './pipeline/build.js';
import type { Recorder } from './proxy/recorder.js';
import type { Layer } from './pipeline/layer.js';
import { createPipeline, type Observer } from './pipeline/run.js';
import type { EngineServices } from './services.js';
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
  /**
   * Calls `observer` after each request under the prefixes (both the fast and the promise
   * path) with `{ method, pathname, search, status, ms, answeredBy, request, response }`;
   * returns the function that stops it. Costs nothing while nobody observes.
   */
  observe(observer: Observer): () => void;
  /**
   * With `proxy.record`: the recorder (`har()`: the session's HAR 1.2 log; `settled()`: waits
   * for the files being written; `onEntry(fn)`), else undefined.
   */
  readonly recorder: Recorder | undefined;
  /** The layer names in pipeline order (`['handlers', 'files']`). */
  readonly layers: readonly string[];
  close(): Promise<void>;
}

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

/** The mock API engine for `options` (see the top of this file). */
export function createMockApi(options: MockApiOptions): MockApi {
  return assembleMockApi(options, {});
}

/**
 * Internal assembly seam (not exported by the package): `arrange` gets the layers build.ts made
 * and returns the list the engine walks, e.g. with a test layer inserted. Features add their
 * layer in build.ts, not here.
 */
export interface MockApiAssembly {
  arrange?(built: BuiltLayers): Layer[];
}

export function assembleMockApi(input: MockApiOptions, assembly: MockApiAssembly): MockApi {
  const options = resolveMockApiOptions(input);
  const logger: Logger = createLogger(options.logLevel, options.logger ?? console);
  for (const w of options.warnings) logger.warn(w);
  if (options.disabledReason && options.disabledReason !== 'disable: true') logger.warn(options.disabledReason);

  const { prefixes, disabled } = options;
  const sleeper = new Sleeper();
  let closed = false;

  // The filesystem: given, or the registered default (disk in Node) when fsDir is set.
  let vfs: Vfs | null = options.fs ?? null;
  let ownVfs = false;
  if (!disabled && !vfs && options.fsDir !== null) {
    const factory = getDefaultFsFactory();
    if (!factory) throw new OptionsError('mock.fs', 'is required here: no default filesystem is registered (outside Node, pass fs: memoryFs() or indexedDbFs())');
    vfs = factory(options.fsDirOption!, options.root);
    ownVfs = true;
  }
  let fallbackFs: Vfs | undefined;

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

  const services: EngineServices = {
    logger,
    app,
    queue: new KeyedQueue(),
    sleep: (ms) => sleeper.sleep(ms),
    get closed() {
      return closed;
    },
  };

  const built = disabled ? undefined : buildLayers({ options, services, vfs, fsDir: options.fsDir });
  const pipeline = createPipeline({
    layers: built === undefined ? [] : assembly.arrange ? assembly.arrange(built) : built.layers,
    delay: options.delay,
    gatewayTimeout: options.gatewayTimeout,
    forward: options.noHandledRestFsRequestsAction === 'forward',
    sleep: services.sleep,
    logger,
  });
  // A layer may watch the answers (the openapi layer's validateResponses): an observer like any other.
  for (const layer of built?.layers ?? []) {
    const observer = (layer as { observer?: Observer }).observer;
    if (typeof observer === 'function') pipeline.observe(observer);
  }
  // ready(): every layer's start-up (the files layer's answer: whether file routing is on).
  const others = (built?.layers ?? []).filter((l) => l !== built?.files && l.ready !== undefined).map((l) => l.ready);
  const filesReady: Promise<boolean> = built?.files.ready ?? Promise.resolve(false);
  const fsReady: Promise<boolean> = others.length ? Promise.all(others).then(() => filesReady) : filesReady;
  if (logger.enabled('debug')) {
    // The access log is an observer like any other.
    pipeline.observe((x) => logger.debug(`${x.method} ${x.pathname}${x.search} ${x.status ?? 'forwarded'} ${x.ms.toFixed(1)}ms`));
  }

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

  function contextFor(request: Request): RequestContext | undefined {
    const [pathname, search] = splitUrl(request.url);
    let prefix: string | undefined;
    for (let i = 0; i < prefixes.length; i++) {
      if (underPrefix(pathname, prefixes[i]!)) {
        prefix = prefixes[i]!;
        break;
      }
    }
    if (prefix === undefined) return undefined;
    // Fetch upper-cases only the six standard methods; `fetch(url, { method: 'patch' })` in a
    // page reaches the engine as "patch". Methods are case-insensitive here, as in llhttp.
    return createContext(request, request.method.toUpperCase(), pathname, search, prefix, pipeline.observed ? performance.now() : 0);
  }

  /** Contexts `handleCached` prepared and could not answer at once, for `handle` (see the top). */
  const prepared = new WeakMap<Request, RequestContext>();

  return {
    prefixes: options.publicPrefixes,
    forwardsUnmatched: options.noHandledRestFsRequestsAction === 'forward',
    options,
    app,
    ws: app.ws,
    layers: pipeline.layers.map((l) => l.name),
    recorder: built?.proxy?.recorder,

    handle(request: Request): Promise<Response | undefined> {
      if (disabled) return Promise.resolve(undefined);
      let ctx = prepared.get(request);
      if (ctx !== undefined) prepared.delete(request);
      else {
        try {
          ctx = contextFor(request);
        } catch (err) {
          return Promise.reject(err);
        }
        if (ctx === undefined) return Promise.resolve(undefined);
        const now = pipeline.peek(ctx);
        if (now !== undefined) return Promise.resolve(now);
      }
      return pipeline.handle(ctx);
    },

    handleCached(request: Request): Response | undefined {
      if (disabled) return undefined;
      try {
        const ctx = contextFor(request);
        if (ctx === undefined) return undefined;
        const now = pipeline.peek(ctx);
        if (now === undefined) prepared.set(request, ctx);
        return now;
      } catch {
        return undefined;
      }
    },

    upgrade(request: Request): Promise<UpgradeResult> | UpgradeResult {
      if (!wsReady) return undefined;
      const ctx = contextFor(request);
      if (ctx === undefined) return undefined;
      return wsLayer ? wsLayer.upgrade(ctx) : loadWs().then((layer) => layer.upgrade(ctx), (err: unknown) => responseForError(err, ctx.pathname));
    },

    observe: (observer) => pipeline.observe(observer),

    ready: () => (wsReady ? wsReady.then(() => fsReady) : fsReady),

    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      sleeper.close();
      await pipeline.close();
      await wsReady;
      wsLayer?.close();
      if (ownVfs) await vfs?.close?.();
    },
  };
}
