/**
 * THE ordered layer list of the mock API, built once from the options. Nothing else knows the
 * order: the engine's promise path and its synchronous fast path (hosts' `handleCached`) both
 * walk this list (run.ts).
 *
 * Today:   webhooks (with `webhooks` or `openapi`) → overrides (`api.use`) → route-overrides → faults (with fault rules)
 *          → openapi (with `openapi`) → rewrite, middlewares (json-server's `routes`, `readOnly`, `middlewares`)
 *          → handlers → har (with `har`) → recorded, streams (with files) → graphql (when on)
 *          → collections (when on) → files → openapi-mock (with `openapi`) → static (with `static`)
 *          → proxy (with `proxy`) → preset hints (spec mode, nothing behind)
 * Outside the list: ws (WebSocket upgrades, not requests: ws/layer.ts, loaded by create-mock-api.ts with `enableWs`).
 * Each line names its folder's layer file; a folder is one surface of one shape (options.ts,
 * layer.ts with an `Order:` line in its opening comment, test/engine/<name>/: test/engine/surface-shape.test.ts).
 * Adding a layer: copy a folder (ARCHITECTURE.md, "How to add a surface"), add ONE line below
 * where it belongs in the order (e.g. `collections` between handlers and files).
 *
 * `buildLayers` is the whole recipe, so a second pipeline (a scenario: its own handlers over an
 * overlay Vfs, src/vfs/overlay.ts) is built from the same parts by calling it again with other
 * `handlers`, `vfs` and `fsDir`.
 */
import type { Vfs } from '../vfs/types.js';
import { createFaultLayer } from './faults/layer.js';
import { faultRulesOf } from './faults/options.js';
import type { SharedBelow } from './file-cache/file-cache.js';
import type { FilesLayer } from './file-cache/files-layer.js';
import { createFilesLayer } from './files/layer.js';
import { itemRouteHints, unreadQueryWarning } from './preset-hints/layer.js';
import { createHandlerLayer, type HandlerLayer } from './handlers/layer.js';
import { createOverridesLayer } from './handlers/overrides-layer.js';
import { createRouteOverridesLayer, type OverrideSource } from './sessions/layer.js';
import type { ResolvedMockApiOptions } from './options.js';
import type { EngineServices } from './services.js';
import { createOpenApiLayer } from './openapi/layer.js';
import { proxyLayerFor, type ProxyLayer } from './proxy/layer.js';
import type { Layer } from './pipeline/layer.js';
import type { CollectionStore } from './store/store.js';
import { lazyCollectionStore } from './store/lazy-store.js';
import { lazyLayer } from './pipeline/lazy-layer.js';
import { registerOpenApiResources, type OpenApiResources } from './openapi-backend/resources-view.js';
import { registerSchemaFirstTypes, type SchemaFirstTypes } from './graphql/types-view.js';
import { createRewriteLayer } from './json-server/layer.js';
import { createMiddlewareLayer } from './json-server/middleware-layer.js';
import { createStaticLayer } from './static/layer.js';
import { createHarLayer } from './replay/layer.js';
import { createRecordedLayer } from './replay/recorded-layer.js';
import { createStreamsLayer } from './streams/layer.js';

export interface LayerSources {
  /** The validated options (handlers, pagination, filters, delay, limits…). */
  options: ResolvedMockApiOptions;
  services: EngineServices;
  /** The filesystem the files layer serves (null: file routing off). */
  vfs: Vfs | null;
  /** The mocks folder inside `vfs` (null: file routing off). */
  fsDir: string | null;
  /** The files layer's name (default `files`), e.g. `scenario:slow-network` for a second one. */
  filesName?: string;
  /** A files cache below whose entries the files layer shares (a session over the base, file-cache.ts). */
  below?: SharedBelow;
  /**
   * Another set's layers that hold no data of their own (openapi, proxy) to use instead of
   * building new ones (a session's pipeline reuses its base's compiled document and upstream pool).
   */
  reuse?: BuiltLayers;
  /**
   * The route overrides that apply to this pipeline's requests (a session's, the shared ones, a
   * saved scenario's), read per request by the route-overrides layer (sessions/layer.ts).
   */
  overrides?: OverrideSource;
}

export interface BuiltLayers {
  /** In order: what the pipeline walks. */
  layers: Layer[];
  handlers: HandlerLayer;
  files: FilesLayer;
  /** With `proxy`: the proxy layer (and its recorder). */
  proxy: ProxyLayer | undefined;
  /** With `openapi`: the request validation layer. */
  openapi: Layer | undefined;
  /** The collection store over `files` (`req.app.store`, GraphQL). */
  store: CollectionStore;
}

export function buildLayers({ options, services, vfs, fsDir, filesName, below, reuse, overrides }: LayerSources): BuiltLayers {
  // `proxy.record.serveFiles: false` (mockyard record): every request goes to the target.
  const serveFiles = options.proxy?.record?.serveFiles !== false;
  const mockBackend = options.openapi !== null && (options.openapi.backend.mock ?? !options.proxy);
  const files = createFilesLayer({
    name: filesName,
    vfs: serveFiles ? vfs : null,
    fsDir: serveFiles ? fsDir : null,
    fsDirLabel: options.fsDirOption ?? '',
    bodyLimit: options.bodyLimit,
    inflate: services.runtime.inflate,
    maxJsonDepth: options.maxJsonDepth,
    logger: services.logger,
    queue: services.queue,
    pagination: options.pagination,
    filters: options.filters,
    passUnmockedWrites: options.passUnmockedWrites || mockBackend, // writes naming no file go on to the document's backend
    below,
    onUnreadQuery: options.preset === null ? unreadQueryWarning(services.logger) : undefined,
    countObjects: options.preset === null, // json-server 0.17 sends no X-Total-Count on a singular (/profile)
  });
  const store = lazyCollectionStore({ files, idField: options.collections?.idField ?? 'id', relations: options.relations });
  // The OpenAPI backend (loaded on demand); its state (in memory, or a state folder's files) is what the devtools' Data tab reads of this pipeline (resources-view.ts).
  const backend = mockBackend ? lazyLayer('openapi-mock', () => import('./openapi-backend/layer.js').then((m) => m.createOpenApiBackendLayer({ ...options.openapi!, option: options.openapi!, root: options.root, bodyLimit: options.bodyLimit, logger: services.logger, loadDocument: services.runtime.openApiDocument, queue: services.queue, openFiles: createFilesLayer, maxJsonDepth: options.maxJsonDepth, relations: options.relations, defaultFs: services.runtime.defaultFs, inflate: services.runtime.inflate, announce: (changes) => store.announce(changes) }))) : undefined;
  if (backend) registerOpenApiResources(store, (backend.ready as Promise<{ resources?: Promise<OpenApiResources | undefined> }>).then((l) => l.resources, () => undefined));
  // GraphQL (loaded on demand); a schema-first API's state is what the devtools' Data tab reads of its types (graphql/types-view.ts).
  const graphql = options.graphql ? lazyLayer('graphql', () => import('./graphql/layer.js').then((m) => m.createGraphqlLayer({ ...options.graphql!, readOnly: options.readOnly }, store, services, options.graphqlHandlers, options.graphql!.schema === undefined ? undefined : m.schemaSource(options.graphql!.schema, vfs, fsDir)))) : undefined;
  if (graphql && options.graphql!.schema !== undefined) registerSchemaFirstTypes(store, (graphql.ready as Promise<{ schemaFirstTypes?: SchemaFirstTypes }>).then((l) => l.schemaFirstTypes, () => undefined));
  const handlers = createHandlerLayer(options, services, files);
  const proxy = reuse ? reuse.proxy : options.proxy ? proxyLayerFor(options.proxy, services.logger, vfs, fsDir, services.runtime.upstream) : undefined;
  const openapi = reuse ? reuse.openapi : options.openapi ? createOpenApiLayer({ ...options.openapi, option: options.openapi, root: options.root, bodyLimit: options.bodyLimit, logger: services.logger, loadDocument: services.runtime.openApiDocument, inflate: services.runtime.inflate }) : undefined;
  const faults = faultRulesOf(options.faults, options.handlers);
  const layers: Layer[] = [
    ...(services.webhooksLayer ? [services.webhooksLayer] : []), // webhooks and OpenAPI callbacks after the answers of everything below (webhooks/layer.ts)
    ...(services.overrides ? [createOverridesLayer(services.overrides, options, services, files)] : []), // api.use(...handlers): before everything (handlers/overrides-layer.ts)
    ...(overrides ? [createRouteOverridesLayer(overrides, options, services, files, serveFiles ? fsDir : null)] : []), // route overrides set at run time: a session's, shared, a saved scenario's (sessions/layer.ts)
    ...(faults.length > 0 ? [createFaultLayer(faults, services)] : []), // delays, errors and connection faults on demand (faults/layer.ts)
    ...(openapi ? [openapi] : []), // requests checked against the OpenAPI document (openapi/layer.ts)
    ...(options.routes.length > 0 || options.preset === 'json-server' ? [createRewriteLayer(options.jsonServerRules, options.preset === 'json-server', services.sleep)] : []), // json-server's routes.json and trailing slash: the path later layers see (json-server/layer.ts)
    ...(options.readOnly || options.middlewares.length > 0 ? [createMiddlewareLayer(() => options.jsonServerRules.current.middlewares, options.readOnly, services.app, options.gatewayTimeout, { limit: options.bodyLimit, maxDepth: options.maxJsonDepth, inflate: services.runtime.inflate }, options.graphql?.path)] : []), // readOnly 403, Express-style middlewares on every request (json-server/middleware-layer.ts)
    handlers, // REST handlers (handlers/layer.ts): first match wins; `handle: 'FS'` serves through `files`
    ...(options.har ? [createHarLayer({ har: options.har, prefixes: options.prefixes, root: options.root, readHar: services.runtime.readHar, fallback: proxy, logger: services.logger, bodyLimit: options.bodyLimit, inflate: services.runtime.inflate })] : []), // a HAR log served as recorded (replay/layer.ts)
    ...(serveFiles && vfs !== null && fsDir !== null ? [createRecordedLayer({ files, fallback: proxy, logger: services.logger, bodyLimit: options.bodyLimit })] : []), // recorded answers in the mock folder, <name>@recorded.json (replay/recorded-layer.ts)
    ...(serveFiles && vfs !== null && fsDir !== null ? [createStreamsLayer(files, options.streams, options.bodyLimit)] : []), // recorded streams (.sse/.ndjson files) replayed with their timing (streams/layer.ts)
    ...(graphql ? [graphql] : []), // GraphQL over the collections (graphql/layer.ts, loaded on demand)
    ...(options.collections ? [lazyLayer('collections', () => import('./collections/layer.js').then((m) => m.createCollectionsLayer({ options, files, store, inflate: services.runtime.inflate })))] : []), // json-server collections over the store (collections/layer.ts, loaded on demand)
    files, // file-system mode (files/layer.ts)
    ...(backend ? [backend] : []), // the document's operations from generated, stateful data (openapi-backend/layer.ts)
    ...(options.static.length > 0 ? [createStaticLayer(options.static, options.root, services.runtime.defaultFs)] : []), // static files nothing above answered (static/layer.ts)
    ...(proxy ? [proxy] : []), // what nothing answered → the real API, recorded with proxy.record (proxy/layer.ts)
    ...(!proxy && !options.collections && options.noHandledRestFsRequestsAction === '404' ? [itemRouteHints(files)] : []), // a 404 for <array>/<id> names the preset (preset-hints/layer.ts)
  ];
  return { layers, handlers, files, proxy, openapi, store };
}
