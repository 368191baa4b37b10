/**
 * createMockApi(options): the mock API engine, assembled: options → filesystem (mock-fs.ts) →
 * services → layers (layers.ts) → pipeline (pipeline/run.ts) → scenario pipelines
 * (scenario-pipelines.ts) → CORS around the entry points (cors.ts) → Engine. Features live in
 * their own rooms; this file only assembles them. A request whose path is under a
 * prefix (longest first, on a segment boundary) gets a RequestContext and walks the layer list;
 * requests outside every prefix, and every request of a disabled engine, get `undefined`.
 *
 * Context hand-off between `handleCached` and `handle`: when `handleCached` cannot answer at
 * once, it leaves the context it prepared on the Request under this engine's own symbol
 * (`kPrepared`: one per engine, so two engines never take each other's). `handle` called with
 * the same Request takes it (and clears it) and resumes the walk where the fast path stopped,
 * without parsing the URL again; any other `handle` call starts afresh. (A symbol property
 * rather than a WeakMap: a WeakMap insertion per declined request costs more than the whole
 * synchronous walk, and the entry would die with the Request anyway.)
 */
import type { Engine } from '../core/engine.js';
import { HttpError, responseForError } from '../core/errors.js';
import { fileQueueOf } from './file-queue.js';
import { createLogger, type Logger } from '../core/logger.js';
import { OptionsError } from '../core/options.js';
import type { UpgradeResult } from '../core/socket.js';
import type { Vfs } from '../vfs/types.js';
import type { CollectionStore } from './store/store.js';
import { contextUnder, type RequestContext } from './context.js';
import { socketRefusal, withMockCors, type EntryPoints } from './cors.js';
import { withNoCache } from './json-server/no-cache.js';
import { openMockFs } from './mock-fs.js';
import { resolveHandlers } from './handlers/options.js';
import { resolveMockApiOptions, type ResolvedMockApiOptions } from './options.js';
import { createOverrideList } from './handler-api/override-list.js';
import type { MockApiRuntime } from './runtime.js';
import { buildLayers, type BuiltLayers, type LayerSources } from './layers.js';
import type { Recorder } from './proxy/recorder.js';
import type { Layer } from './pipeline/layer.js';
import { createPipeline, type Pipeline } from './pipeline/run.js';
import { createScenarioSet } from './scenario-pipelines.js';
import { createSessionSet, type SessionControl, type SessionObserver } from './session-set.js';
import type { EngineServices } from './services.js';
import { Sleeper } from './sleeper.js';
import type { GraphqlOperationHandler, HandlerFor, MockApiApp, RestHandler } from './types.js';
import type { MockApiOptions } from './mock-api-options.js';
import { isGraphqlHandler } from './handler-api/operation-handlers.js';
import type { WsLayer } from './ws/layer.js';
import { createWebhooks } from './webhooks/layer.js';
import { documentModel, sharedOpenApiDocument } from './openapi-document/document-loader.js';
import type { WebhooksControl } from './webhooks/control.js';
import { broadcastRoute } from './ws/routes.js';
import type { JsonServerReload } from './json-server/live-rules.js';
import { createRouteOverrides, type RouteOverrideControl } from './route-overrides.js';
import type { OverrideSource } from './sessions/layer.js';
import { requestedScenario } from './selection/scenario.js';

/** `Api`: the generated types of docs/contract.md (`{}`: untyped, as always). */
export interface MockApi<Api = {}> extends Engine {
  readonly kind: 'mock-api';
  handle(request: Request): Promise<Response | undefined>;
  handleCached(request: Request): Response | undefined;
  upgrade(request: Request): Promise<UpgradeResult> | UpgradeResult;
  /** Normalised prefixes, longest first (`[]` when disabled). */
  readonly prefixes: readonly string[];
  /**
   * For hosts: their own answer (`answer()`) to a request no engine took, sent as the mock API
   * sends its own (the json-server preset's no-cache headers, CORS), a CORS preflight answered as
   * under the prefixes. The CLI's 404s and home page go out this way.
   */
  adopt(request: Request, answer: () => Promise<Response>): Promise<Response>;
  /** `broadcast(pattern, data)` to the clients of a WebSocket handler; returns how many got it. */
  readonly ws: MockApiApp['ws'];
  /** The services handlers see as `req.app`. */
  readonly app: MockApiApp<Api>;
  /** The validated options. */
  readonly options: ResolvedMockApiOptions;
  /**
   * Resolves once start-up is done (fsDir checked; with enableWs, the WebSocket layer loaded);
   * tells whether file routing is on.
   */
  ready(): Promise<boolean>;
  /**
   * Calls `observer` after each request under the prefixes (both the fast and the promise
   * path) with `{ method, pathname, search, status, ms, answeredBy, request, response }`, the
   * scenario that answered (null: the base) and the session (null: none); returns the function
   * that stops it. Costs nothing while nobody observes.
   */
  observe(observer: SessionObserver): () => void;
  /**
   * With `proxy.record`: the recorder (`har()`: the session's HAR 1.2 log; `settled()`: waits
   * for the files being written; `onEntry(fn)`), else undefined.
   */
  readonly recorder: Recorder | undefined;
  /**
   * Recording through the proxy, switched at run time (the devtools' Record tab): `start()` keeps
   * every proxied exchange as `proxy.record` does (409 without `mock.proxy`), `stop()` forwards
   * without keeping; `target` the proxy's target (null: none).
   */
  readonly recording: { readonly active: boolean; readonly target: string | null; start(): Recorder; stop(): void; har(): ReturnType<Recorder['har']> | undefined };
  /** The scenario names: the configured ones in their order, then the saved ones (`routeOverrides`) in the order saved. */
  readonly scenarios: readonly string[];
  /**
   * Route overrides kept outside sessions (route-overrides.ts, docs/devtools.md): the shared ones
   * (every request without a session) and saved scenarios made of overrides, selectable as the
   * configured ones are; each undoable.
   */
  readonly routeOverrides: RouteOverrideControl;
  /** The current scenario (null: the base), used by requests that ask for none. */
  readonly scenario: string | null;
  /**
   * Switches the current scenario (null: back to the base) without restarting; the next request
   * that asks for none walks its pipeline. An unknown name throws HttpError 400.
   */
  useScenario(name: string | null): void;
  /**
   * Adds handlers in front of everything (the same objects as the `handlers` option; newest
   * first), as msw's `server.use`: for one test. Validated like the option (OptionsError).
   * GraphQL handlers (`graphql.query('GetUser', …)`) go in front of the GraphQL endpoint's.
   */
  use(...handlers: Array<HandlerFor<Api> | GraphqlOperationHandler>): void;
  /** Drops the handlers added with `use` (the configured ones stay), as msw's `resetHandlers`. */
  resetHandlers(): void;
  /**
   * Swaps json-server's rewrite rules (`routes`) and/or middleware chain (`middlewares`) of the
   * running engine at once (the CLI's `--watch` on routes.json and `-m` files): a request already
   * past the rewrite or into the middlewares finishes on the old ones, the next one walks the new
   * ones. Validated as the options (OptionsError naming `mock.routes` / `mock.middlewares`; nothing
   * changes then). Only an engine that started with routes (or the json-server preset) / with
   * middlewares (or readOnly) has those layers to swap.
   */
  reload(next: JsonServerReload): void;
  /**
   * Back to the start: `use`'s handlers and the shared route overrides dropped (saved scenarios
   * are kept), the base scenario current, and the data of a
   * filesystem that can reset (memoryFs: its seed; overlayFs: its top emptied; indexedDbFs: its
   * seed) back to its start. For a test's `afterEach`.
   */
  reset(): Promise<void>;
  /** The layer names in pipeline order (`['overrides', 'handlers', 'files']`). */
  readonly layers: readonly string[];
  /** The sessions (src/engine/sessions/, docs/sessions.md): create, reset, drop, set a scenario, add overrides, list. */
  readonly sessions: SessionControl;
  /**
   * Webhooks (webhooks/layer.ts, docs/webhooks.md): send one now, the document's 3.1 webhooks
   * (list, send to a URL), observe every delivery attempt, wait until all are settled.
   */
  readonly webhooks: WebhooksControl;
  close(): Promise<void>;
}

/**
 * The mock API engine for `options` (see the top of this file), on `runtime` (runtime.ts: what
 * the runtime provides, e.g. Node's disk default for `fsDir`; the `mockyard` entry under Node
 * passes Node's).
 */
export function createMockApi<Api = {}>(options: MockApiOptions<Api>, runtime: MockApiRuntime = {}): MockApi<Api> {
  return assembleMockApi(options as MockApiOptions, { runtime }) as unknown as MockApi<Api>;
}

/**
 * Internal assembly seam (not exported by the package): `arrange` gets the layers layers.ts made
 * and returns the list the engine walks, e.g. with a test layer inserted; `more` builds another
 * set of the same parts over another Vfs (a scenario's). The engine starts, awaits (`ready()`)
 * and closes the layers in the returned list only: leave nothing built out of it. Features add
 * their layer in layers.ts, not here.
 */
export interface MockApiAssembly {
  /** What the runtime provides (default: nothing, the web-standard ways). */
  runtime?: MockApiRuntime;
  arrange?(built: BuiltLayers, more: (sources: Pick<LayerSources, 'vfs' | 'fsDir' | 'filesName'>) => BuiltLayers): Layer[];
}

export function assembleMockApi(input: MockApiOptions, assembly: MockApiAssembly): MockApi {
  const options = resolveMockApiOptions(input);
  const logger: Logger = createLogger(options.logLevel, options.logger ?? console);
  for (const w of options.warnings) logger.warn(w);
  if (options.disabledReason && options.disabledReason !== 'disable: true') logger.warn(options.disabledReason);

  const { prefixes, disabled } = options;
  const sleeper = new Sleeper();
  const runtime = assembly.runtime ?? {};
  let closed = false;

  // The filesystem (mock-fs.ts): given, db.json, or the runtime's default (disk in Node).
  const mockFs = openMockFs(options, logger, runtime.defaultFs);
  const vfs = mockFs.vfs;
  let fallbackFs: Vfs | undefined;

  let wsLayer: WsLayer | undefined;
  const app: MockApiApp = {
    ws: {
      // Before the WebSocket layer is loaded no client exists (an unknown pattern still throws).
      broadcast: (pattern, data, opts) => (wsLayer ? wsLayer.broadcast(pattern, data, opts) : options.enableWs ? (broadcastRoute(options.wsRoutes, pattern), 0) : 0),
      count: (pattern, opts) => (wsLayer ? wsLayer.count(pattern, opts) : options.enableWs ? (broadcastRoute(options.wsRoutes, pattern, 'app.ws.count'), 0) : 0),
    },
    get store(): CollectionStore {
      if (!built) throw new OptionsError('mock', 'is disabled: req.app.store needs the mock API');
      return built.store;
    },
    get fs(): Vfs {
      if (vfs) return vfs;
      if (!fallbackFs) {
        const scratch = runtime.scratchFs;
        if (!scratch) throw new OptionsError('mock.fs', 'is needed for req.app.fs: this runtime has no scratch filesystem (pass fs: memoryFs() or indexedDbFs())');
        fallbackFs = scratch();
      }
      return fallbackFs;
    },
    webhook: (url, init) => webhooks.control.send(url, init),
  };

  const overrides = createOverrideList();
  const services: EngineServices = {
    get webhooksLayer() {
      return webhooks.layer;
    },
    logger,
    app,
    overrides,
    queue: fileQueueOf(app),
    sleep: (ms) => sleeper.sleep(ms),
    runtime,
    get closed() {
      return closed;
    },
  };

  // Webhooks (webhooks/layer.ts): one surface per engine (its queue, its store listener), the same
  // layer heading every pipeline; with `openapi` it reads the document the OpenAPI layers share.
  const openapi = options.openapi;
  const webhooks = createWebhooks(
    {
      rules: options.webhooks,
      bodyLimit: options.bodyLimit,
      contract: openapi?.strictResponses ? 'strict' : openapi?.validateResponses ? 'log' : 'off',
      document: openapi
        ? async () => {
            const doc = await sharedOpenApiDocument(openapi, openapi.source, options.root, runtime.openApiDocument);
            const { deref, model, route } = documentModel(doc);
            const routeOf = (method: string, subPath: string) => {
              const m = route(method, subPath);
              return 'operation' in m ? { label: m.operation.label, params: m.params } : undefined;
            };
            // The payload check: for the contract options, and for webhooks bound to requests (`x-mockyard-on`: the answer is their payload when it fits).
            const bound = JSON.stringify(doc.webhooks ?? null).includes('"x-mockyard-on"');
            const check = openapi.validateResponses || openapi.strictResponses || bound ? (await import('./openapi/payload-check.js')).payloadChecker(doc, deref) : () => [];
            return { doc, deref, seed: openapi.backend.seed, operations: model.operations, route: routeOf, check };
          }
        : null,
    },
    services,
  );
  // Route overrides kept outside sessions (route-overrides.ts): the shared ones, and saved
  // scenarios walking the base pipeline with their overrides first.
  const routeOverrides = createRouteOverrides(options.scenarios.map((sc) => sc.name));
  const baseOverrides: OverrideSource = {
    idle: () => routeOverrides.shared.length === 0 && routeOverrides.saved.size === 0,
    lists(ctx) {
      const name = routeOverrides.saved.size === 0 ? null : (requestedScenario(ctx) ?? scenarios.current);
      const saved = name === null ? undefined : routeOverrides.saved.get(name);
      return saved ? [saved, routeOverrides.shared] : [routeOverrides.shared];
    },
  };
  const built = disabled ? undefined : buildLayers({ options, services, vfs, fsDir: options.fsDir, overrides: baseOverrides });
  const pipeline = createPipeline({
    layers: built === undefined ? [] : assembly.arrange ? assembly.arrange(built, (more) => buildLayers({ options, services, overrides: baseOverrides, ...more })) : built.layers,
    delay: options.delay,
    gatewayTimeout: options.gatewayTimeout,
    forward: options.noHandledRestFsRequestsAction === 'forward',
    sleep: services.sleep,
    logger,
  });
  // Scenarios (scenario-pipelines.ts): each a second pipeline from the same recipe.
  const scenarios = createScenarioSet({ base: pipeline, routeOverrides, options, services, logger, vfs, factory: mockFs.factory, baseBuilt: built });
  routeOverrides.onDrop((name) => {
    if (scenarios.current === name) scenarios.use(null);
  });
  // Sessions (session-set.ts): a private pipeline per session id, over the base's or a scenario's.
  const sessions = createSessionSet({ settings: options.sessions, options, services, logger, scenarios, routeOverrides });
  const pipelines = scenarios.pipelines;
  const observeAll = (fn: SessionObserver): (() => void) => {
    const offs = [scenarios.observe((x, scenario) => fn(x, scenario, null)), sessions.observe(fn)];
    return () => offs.forEach((off) => off());
  };

  // ready(): every layer's start-up (e.g. each files layer's fsDir check); true when the engine's
  // own files layer routes files.
  const primaryFiles: Promise<boolean> = built?.files.ready ?? Promise.resolve(false);
  const fsReady: Promise<boolean> = Promise.allSettled(pipelines.flatMap((p) => p.layers.map((l) => l.ready))).then(() => primaryFiles);
  if (logger.enabled('debug')) {
    // The access log is an observer like any other.
    observeAll((x) => logger.debug(`${x.method} ${x.pathname}${x.search} ${x.status ?? 'forwarded'} ${x.ms.toFixed(1)}ms`));
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

  // Each pipeline's layers that take sockets (GraphQL subscriptions): a session's or a scenario's
  // pipeline has its own, over its own store, as its requests do.
  const socketLayersOf = new WeakMap<Pipeline, readonly Layer[]>();
  const socketLayers = (pipe: Pipeline): readonly Layer[] => {
    let list = socketLayersOf.get(pipe);
    if (list === undefined) socketLayersOf.set(pipe, (list = pipe.layers.filter((l) => typeof l.upgrade === 'function')));
    return list;
  };
  const wsUpgrade = (ctx: RequestContext): Promise<UpgradeResult> | UpgradeResult => {
    if (!wsReady) return undefined;
    return wsLayer ? wsLayer.upgrade(ctx) : loadWs().then((layer) => layer.upgrade(ctx), (err: unknown) => responseForError(err, ctx.pathname));
  };

  const contextFor = (request: Request): RequestContext | undefined => contextUnder(request, prefixes, pipeline.observed ? performance.now() : 0);

  /** Where `handleCached` leaves a context it could not answer at once, for `handle` (see the top). */
  const kPrepared = Symbol('mockyard.mockApi.prepared');
  /** With scenarios: the pipeline that context was walking. */
  const kPipeline = Symbol('mockyard.mockApi.pipeline');
  type Prepared = Request & { [kPrepared]?: RequestContext | undefined; [kPipeline]?: Pipeline | undefined };

  function handleInner(request: Request): Promise<Response | undefined> {
    let ctx = (request as Prepared)[kPrepared];
    let pipe: Pipeline | Response = pipeline;
    if (ctx !== undefined) {
      (request as Prepared)[kPrepared] = undefined;
      pipe = (request as Prepared)[kPipeline] ?? pipeline;
      (request as Prepared)[kPipeline] = undefined;
    } else {
      try {
        ctx = contextFor(request);
        if (ctx === undefined) return Promise.resolve(undefined);
        pipe = sessions.pipelineFor(ctx) ?? scenarios.pipelineFor(ctx);
      } catch (err) {
        return Promise.reject(err);
      }
      if (pipe instanceof Response) return Promise.resolve(pipe);
      const now = pipe.peek(ctx);
      if (now !== undefined) return Promise.resolve(now);
    }
    return (pipe as Pipeline).handle(ctx);
  }

  function handleCachedInner(request: Request): Response | undefined {
    if (disabled) return undefined;
    try {
      const ctx = contextFor(request);
      if (ctx === undefined) return undefined;
      const pipe = sessions.pipelineFor(ctx) ?? scenarios.pipelineFor(ctx);
      if (pipe instanceof Response) return pipe;
      const now = pipe.peek(ctx);
      if (now === undefined) {
        (request as Prepared)[kPrepared] = ctx;
        if (pipe !== pipeline) (request as Prepared)[kPipeline] = pipe;
      }
      return now;
    } catch {
      return undefined;
    }
  }

  // json-server 0.17's no-cache headers under the preset (json-server/no-cache.ts), then CORS (`mock.cors`, cors.ts), around both entry points.
  const own: EntryPoints = { handle: handleInner, handleCached: handleCachedInner, adopt: (_request, answer) => answer() };
  const inner = options.preset === 'json-server' ? withNoCache(own) : own;
  const entry = options.cors === undefined ? inner : withMockCors(options.cors, prefixes, inner);

  return {
    kind: 'mock-api',
    prefixes: options.publicPrefixes,
    forwardsUnmatched: options.noHandledRestFsRequestsAction === 'forward',
    options,
    app,
    ws: app.ws,
    layers: pipeline.layers.map((l) => l.name),
    get recorder() {
      return built?.proxy?.recorder;
    },
    recording: {
      get active() {
        return built?.proxy?.recorder !== undefined;
      },
      get target() {
        return options.proxy ? `${options.proxy.origin}${options.proxy.basePath}` : null;
      },
      start() {
        if (!built?.proxy) throw new HttpError(409, 'Recording goes through the proxy: set mock.proxy (a target) to record');
        return built.proxy.startRecording();
      },
      stop() {
        built?.proxy?.stopRecording();
      },
      har() {
        return built?.proxy?.lastRecorder?.har();
      },
    },

    handle(request: Request): Promise<Response | undefined> {
      if (disabled) return Promise.resolve(undefined);
      return entry.handle(request);
    },

    handleCached(request: Request): Response | undefined {
      return entry.handleCached(request);
    },

    adopt(request: Request, answer: () => Promise<Response>): Promise<Response> {
      return disabled ? answer() : entry.adopt(request, answer);
    },

    upgrade(request: Request): Promise<UpgradeResult> | UpgradeResult {
      if (disabled) return undefined;
      const ctx = contextFor(request);
      if (ctx === undefined) return undefined;
      // A page on an origin the mock API's CORS does not allow opens no socket (cors.ts).
      const refused = options.cors === undefined ? undefined : socketRefusal(options.cors, request, ctx.pathname);
      if (refused !== undefined) return refused;
      // The pipeline a request with these headers walks (its session's, its scenario's), so a
      // subscription of a session hears that session's writes, as its queries read its data.
      let pipe: Pipeline | Response;
      try {
        pipe = sessions.pipelineFor(ctx) ?? scenarios.pipelineFor(ctx);
      } catch (err) {
        return responseForError(err, ctx.pathname); // a malformed session id: its 400, as for a request
      }
      if (pipe instanceof Response) return pipe;
      // A layer's own sockets first (GraphQL subscriptions at its path), then the WebSocket handlers.
      for (const layer of socketLayers(pipe)) {
        const claimed = layer.upgrade!(ctx);
        if (claimed !== undefined) return claimed instanceof Promise ? claimed.then((r) => r ?? wsUpgrade(ctx)) : claimed;
      }
      return wsUpgrade(ctx);
    },

    observe: (observer) => observeAll(observer),

    get scenarios() {
      return scenarios.names;
    },
    routeOverrides,
    get scenario() {
      return scenarios.current;
    },
    useScenario: (name: string | null) => scenarios.use(name),
    use(...handlers: Array<RestHandler | GraphqlOperationHandler>) { // typed by MockApi<Api>; the REST ones by route or pattern
      const warnings: string[] = [];
      const rest = resolveHandlers(handlers, 'api.use', warnings); // validates the REST ones (GraphQL handlers are checked when built)
      overrides.use([...rest, ...handlers.filter(isGraphqlHandler)]);
      for (const w of warnings) logger.warn(w);
    },
    resetHandlers: () => overrides.reset(),
    reload: (next: JsonServerReload) => options.jsonServerRules.reload(next),
    async reset() {
      overrides.reset();
      routeOverrides.clear();
      scenarios.use(null);
      const resettable = vfs as (Vfs & { reset?: () => Promise<void> }) | null;
      if (typeof resettable?.reset === 'function') await resettable.reset();
    },
    sessions,
    webhooks: webhooks.control,

    ready: () => (wsReady ? wsReady.then(() => fsReady) : fsReady),

    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      sleeper.close();
      webhooks.close();
      await sessions.close();
      await scenarios.close();
      await wsReady;
      wsLayer?.close();
      await mockFs.close();
    },
  };
}
