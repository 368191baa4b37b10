/**
 * Validates and normalises MockApiOptions at start-up. Every mistake is an OptionsError naming
 * the option (`mock.delay`), except the cases where the spec says the engine switches itself off:
 *   - `disable: true`                      → engine answers nothing (other options are not checked),
 *   - empty / invalid `endpointPrefix`     → engine disabled, one warning,
 *   - `fsDir: null`                         → file routing off,
 *   - `fsDir` directory missing            → file routing off (checked asynchronously by the
 *                                            engine, handlers still work, one warning).
 * Prefixes are normalised (leading `/`, no trailing `/`), de-duplicated and sorted longest first.
 */
import { DEFAULT_MAX_JSON_DEPTH } from '../core/json-depth.js';
import { check, describe, OptionsError } from '../core/options.js';
import { BACKEND_KEYS, resolveBackendOptions, type BackendOptions } from './openapi-backend/options.js';
import { LOG_LEVELS, type LoggerSink, type LogLevel } from '../core/logger.js';
import { resolveCors, type CorsPolicy } from '../core/cors.js';
import type { Vfs } from '../vfs/types.js';
import { resolveProxy, type ResolvedProxyOptions } from './proxy/options.js';
import { compileWsRoutes, type WsRoute } from './ws/routes.js';
import { NO_DELAY, resolveDelay, type DrawDelay } from './delay.js';
import type { RewriteRule } from './json-server/routes.js';
import { resolveRequestMiddlewares, resolveRoutes } from './json-server/options.js';
import { liveJsonServerRules, type LiveJsonServerRules } from './json-server/live-rules.js';
import { resolveStatic } from './static/options.js';
import { resolveCollections } from './collections/options.js';
import { resolveDb, resolveFilesFolder, type FilesFolder } from './files/options.js';
import { resolvePreset } from './preset-hints/options.js';
import { resolveHarOption, type HarOption } from './replay/options.js';
import { resolveSessions, type ResolvedSessions } from './sessions/options.js';
import { resolveFaultRules, type FaultRule } from './faults/options.js';
import { resolveGraphqlOptions, type ResolvedGraphql } from './graphql/options.js';
import { DEFAULT_STREAMS, resolveStreamsOptions, type ResolvedStreams } from './streams/options.js';
import type { GraphqlOperationHandler } from './handler-api/operation-handlers.js';
import { resolveFilters, resolvePagination } from './file-cache/query-options.js';
import { graphqlHandlersIn, resolveFunctions, resolveHandlers, resolveParser } from './handlers/options.js';
import { resolveScenarios, type ResolvedScenario } from './scenarios/options.js';
import { resolveWsHandlers } from './ws/options.js';
import { resolveStoreOptions } from './store/options.js';
import { ERROR_MESSAGE_HEADER } from './openapi/documented-error.js';
import { resolveOpenApiOption, type OpenApiValidation } from './openapi/options.js';
import { resolveWebhooksOption, type ResolvedWebhook } from './webhooks/options.js';
import type { RelationNaming } from './store-contract/contract.js';
import type {
  ErrorHandlerFunction,
  FilterConfig,
  MiddlewareFunction,
  PaginationConfig,
  ProxyOptions,
  ParserConfig,
  PerMethod,
  RestHandler,
  WsHandler,
} from './types.js';
import type {
  MockApiOptions,
} from './mock-api-options.js';

export const DEFAULT_BODY_LIMIT = 10 * 1024 * 1024;
export const DEFAULT_GATEWAY_TIMEOUT = 30_000;

/** The resolved options; `fsDir`, `fsDirOption`, `fs`, `root`: files/options.ts. */
export interface ResolvedMockApiOptions extends FilesFolder {
  /** True when the engine answers nothing (`disable: true` or no valid prefix). */
  disabled: boolean;
  /** Why the engine is disabled (for the one warning), when it is. */
  disabledReason?: string;
  logLevel: LogLevel;
  logger?: LoggerSink;
  /** Normalised prefixes, longest first. The root prefix `/` is stored as `''`. */
  prefixes: string[];
  /** Prefixes as shown to hosts (`'/'` for the root prefix). */
  publicPrefixes: string[];
  enableWs: boolean;
  /** The global delay: draws this request's ms (`NO_DELAY` when there is none). */
  delay: DrawDelay;
  gatewayTimeout: number;
  noHandledRestFsRequestsAction: '404' | 'forward';
  parser: boolean | ParserConfig;
  handlerMiddlewares: MiddlewareFunction[];
  errorMiddlewares: ErrorHandlerFunction[];
  handlers: RestHandler[];
  wsHandlers: WsHandler[];
  /** With enableWs: the enabled wsHandlers, compiled (else empty). */
  wsRoutes: WsRoute[];
  pagination: PerMethod<PaginationConfig> | null;
  filters: PerMethod<FilterConfig> | null;
  bodyLimit: number;
  maxJsonDepth: number;
  /** `openapi`: the document (path/URL or object) requests are validated against, or null. */
  openapi: (OpenApiValidation & { backend: BackendOptions }) | null;
  /** `proxy`, validated (null: no proxy layer). */
  proxy: ResolvedProxyOptions | null;
  /**
   * A proxy answers what file mode does not: `proxy`, or browser mode with a proxy (the worker
   * lets it through, src/sw/engines.ts). File mode then passes writes naming nothing the mocks hold
   * (src/engine/files/unmocked-write.ts).
   */
  passUnmockedWrites: boolean;
  /** Collections on: their id field; null = off. */
  collections: { idField: string } | null;
  preset: 'json-server' | null;
  /** `store`: relation naming of the collection store (store/options.ts). */
  relations: RelationNaming;
  /** `graphql`: GraphQL over the collections (graphql/options.ts), or null (off). */
  graphql: ResolvedGraphql | null;
  /** The GraphQL handlers of `handlers` (handler-api/operation-handlers.ts), in order. */
  graphqlHandlers: GraphqlOperationHandler[];
  /** `streams`: how recorded streams replay (streams/options.ts). */
  streams: ResolvedStreams;
  /** `db` option: the JSON file (as given), or null. */
  db: string | null;
  /** CORS policy, or undefined (off). */
  cors: CorsPolicy | undefined;
  /**
   * The devtools request journal's option as given: the host that attaches a journal resolves it
   * (src/host/journal.ts); the engine itself keeps no journal.
   */
  journal: MockApiOptions['journal'];
  /** Named scenarios (src/engine/scenarios/), in the order given. */
  scenarios: ResolvedScenario[];
  /** `routes`: json-server's rewrite rules, compiled (json-server/routes.ts), and as given. */
  routes: RewriteRule[];
  routesSource: Record<string, string> | null;
  readOnly: boolean;
  /** `static`: folders (Node) or Vfs serving static files (static/layer.ts). */
  static: Array<string | Vfs>;
  /** `middlewares`: Express-style, on every request (json-server/middleware-layer.ts). */
  middlewares: MiddlewareFunction[];
  /**
   * The rewrite rules and middlewares the layers read per request, swapped whole at run time by
   * `api.reload` (json-server/live-rules.ts); starts as `routes`/`middlewares` above.
   */
  jsonServerRules: LiveJsonServerRules;
  /** Sessions (src/engine/sessions/): on by default. */
  sessions: ResolvedSessions;
  /** Fault rules of routes (src/engine/faults/), validated. */
  faults: FaultRule[];
  /** `har`: a HAR log served as recorded traffic (replay/layer.ts), or null. */
  har: HarOption | null;
  /** `webhooks` (webhooks/options.ts): what the mock sends the app after requests and store changes; [] = none. */
  webhooks: ResolvedWebhook[];
  /** Warnings found while resolving (logged once by the engine). */
  warnings: string[];
}

/**
 * Set by the browser host on the page's options when they had a `proxy` (src/sw/engines.ts
 * `pageMockOptions`): no proxy layer there, the worker lets what the engine passes go to the
 * network, and file mode treats writes as it does in front of a proxy.
 */
export const kNetworkBehind = Symbol.for('mockyard.networkBehind');

const KNOWN_KEYS = [
  'disable', 'logLevel', 'logger', 'endpointPrefix', 'fsDir', 'fs', 'root', 'enableWs', 'delay', 'gatewayTimeout',
  'noHandledRestFsRequestsAction', 'parser', 'handlerMiddlewares', 'errorMiddlewares', 'handlers', 'wsHandlers',
  'pagination', 'filters', 'bodyLimit', 'maxJsonDepth', 'proxy', 'openapi', 'collections', 'preset', 'db', 'cors', 'journal', 'scenarios',
  'routes', 'readOnly', 'static', 'middlewares',
  'sessions', 'faults', 'store', 'graphql', 'streams', 'har', 'webhooks',
] as const;

/**
 * Headers the mock API lets browsers read on cross-origin answers (with `*` when it sends no
 * credentials: core/cors.ts), mockyard's own message beside a document's error example included.
 */
export const MOCK_EXPOSED_HEADERS = `X-Total-Count, X-Deleted-Count, Link, Location, ${ERROR_MESSAGE_HEADER}`;
export const MOCK_CORS_METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS';

/** Characters allowed in a prefix: RFC 3986 path characters without `%`, `?`, `#`, plus non-ASCII (encoded). */
const PREFIX_CHARS = /^[A-Za-z0-9\-._~!$&'()*+,;=:@/\u0080-\uffff]+$/;

/**
 * Normalises one prefix: `api/` → `/api`, `//api//v1/` → `/api/v1`, `/` → `''` (root),
 * `/données` → `/donn%C3%A9es` (as URL paths arrive).
 * Returns undefined when invalid (empty, not a string, characters outside a URL path, dot segments).
 */
export function normalizePrefix(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  if (trimmed === '' || !PREFIX_CHARS.test(trimmed)) return undefined;
  const segs = trimmed.split('/').filter((s) => s !== '');
  if (segs.some((s) => s === '.' || s === '..')) return undefined;
  // URL paths arrive percent-encoded: `/données` matches `/donn%C3%A9es`.
  try {
    return segs.length ? `/${segs.map((seg) => encodeURI(seg)).join('/')}` : '';
  } catch {
    return undefined; // lone surrogates
  }
}

function resolvePrefixes(value: unknown, warnings: string[]): string[] {
  const list = Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
  const out = new Set<string>();
  const bad: unknown[] = [];
  for (const v of list) {
    const p = normalizePrefix(v);
    if (p === undefined) bad.push(v);
    else out.add(p);
  }
  if (bad.length && out.size) warnings.push(`ignoring invalid endpointPrefix value(s) ${bad.map((b) => describe(b)).join(', ')}`);
  return [...out].sort((a, b) => b.length - a.length || (a < b ? -1 : 1));
}

/**
 * Validates user options. `name` is the prefix used in error messages (`mock` → `mock.delay`).
 */
export function resolveMockApiOptions(input: MockApiOptions, name = 'mock'): ResolvedMockApiOptions {
  const at = (key: string) => (name ? `${name}.${key}` : key);
  if (!input || typeof input !== 'object' || Array.isArray(input)) {
    throw new OptionsError(name || 'options', `must be an object (got ${describe(input)})`);
  }
  const o = input as unknown as Record<string, unknown>;
  const warnings: string[] = [];
  const disable = check.boolean(o.disable, at('disable'), false);
  const base: ResolvedMockApiOptions = {
    disabled: true,
    logLevel: 'info',
    prefixes: [],
    publicPrefixes: [],
    fsDir: null,
    fsDirOption: undefined,
    enableWs: false,
    delay: NO_DELAY,
    gatewayTimeout: DEFAULT_GATEWAY_TIMEOUT,
    noHandledRestFsRequestsAction: '404',
    parser: true,
    handlerMiddlewares: [],
    errorMiddlewares: [],
    handlers: [],
    wsHandlers: [],
    wsRoutes: [],
    pagination: null,
    filters: null,
    bodyLimit: DEFAULT_BODY_LIMIT,
    maxJsonDepth: DEFAULT_MAX_JSON_DEPTH,
    proxy: null,
    passUnmockedWrites: false,
    openapi: null,
    collections: null,
    preset: null,
    relations: { convention: 'both', declared: {} },
    graphql: null,
    graphqlHandlers: [],
    streams: DEFAULT_STREAMS,
    db: null,
    cors: undefined,
    journal: false,
    scenarios: [],
    routes: [],
    routesSource: null,
    readOnly: false,
    static: [],
    middlewares: [],
    jsonServerRules: liveJsonServerRules({ routes: [], routesSource: null, middlewares: [] }, { rewrite: false, middlewares: false }),
    sessions: resolveSessions(false, 'sessions'),
    faults: [],
    har: null,
    webhooks: [],
    warnings,
  };
  if (disable) return { ...base, disabledReason: 'disable: true' };

  check.knownKeys(o, name, KNOWN_KEYS);
  base.logLevel = check.oneOf(o.logLevel, at('logLevel'), LOG_LEVELS, 'info');
  if (o.logger !== undefined) {
    const l = o.logger as Record<string, unknown> | null;
    if (!l || typeof l !== 'object' || typeof l.info !== 'function' || typeof l.warn !== 'function' || typeof l.error !== 'function') {
      throw new OptionsError(at('logger'), `must have info, warn and error methods (got ${describe(o.logger)})`);
    }
    base.logger = l as unknown as LoggerSink;
  }

  // fsDir / fs / root (files/options.ts)
  const folder = resolveFilesFolder(o, at);
  const fsDirOption = folder.fsDirOption;
  Object.assign(base, folder);

  base.enableWs = check.boolean(o.enableWs, at('enableWs'), false);
  base.delay = resolveDelay(o.delay, at('delay')) ?? NO_DELAY;
  base.gatewayTimeout = check.number(o.gatewayTimeout, at('gatewayTimeout'), DEFAULT_GATEWAY_TIMEOUT, { min: 0 });
  const action = o.noHandledRestFsRequestsAction === 404 ? '404' : o.noHandledRestFsRequestsAction;
  base.noHandledRestFsRequestsAction = check.oneOf(action, at('noHandledRestFsRequestsAction'), ['404', 'forward'] as const, '404');
  base.parser = resolveParser(o.parser, at('parser'));
  base.handlerMiddlewares = resolveFunctions<MiddlewareFunction>(o.handlerMiddlewares, at('handlerMiddlewares'));
  base.errorMiddlewares = resolveFunctions<ErrorHandlerFunction>(o.errorMiddlewares, at('errorMiddlewares'));
  base.handlers = resolveHandlers(o.handlers, at('handlers'), warnings);
  base.graphqlHandlers = graphqlHandlersIn(o.handlers);
  base.wsHandlers = resolveWsHandlers(o.wsHandlers, at('wsHandlers'), warnings);
  if (base.enableWs && base.wsHandlers.length === 0) {
    throw new OptionsError(at('wsHandlers'), 'is required (a non-empty array) when enableWs is true');
  }
  if (base.enableWs) base.wsRoutes = compileWsRoutes(base.wsHandlers, at('wsHandlers'));
  base.pagination = resolvePagination(o.pagination, at('pagination'));
  base.filters = resolveFilters(o.filters, at('filters'));
  base.bodyLimit = check.number(o.bodyLimit, at('bodyLimit'), DEFAULT_BODY_LIMIT, { min: 0, integer: true });
  base.maxJsonDepth = check.number(o.maxJsonDepth, at('maxJsonDepth'), DEFAULT_MAX_JSON_DEPTH, { min: 1, max: 1000, integer: true });
  base.proxy = resolveProxy(o.proxy as ProxyOptions | undefined, at('proxy'));
  base.passUnmockedWrites = base.proxy !== null || (o as Record<symbol, unknown>)[kNetworkBehind] === true;
  const openapi = resolveOpenApiOption(o.openapi, at('openapi'), BACKEND_KEYS);
  base.openapi = openapi && { source: openapi.source, validateResponses: openapi.validateResponses, strictResponses: openapi.strictResponses, backend: resolveBackendOptions(openapi.fields, at('openapi')) };
  base.preset = resolvePreset(o.preset, at('preset'));
  base.collections = resolveCollections(o.collections, at('collections'), base.preset !== null);
  base.relations = resolveStoreOptions(o.store, at('store'));
  base.graphql = resolveGraphqlOptions(o.graphql, at('graphql'), base.preset !== null);
  base.streams = resolveStreamsOptions(o.streams, at('streams'));
  base.cors = resolveCors(o.cors, at('cors'), { credentials: false, maxAge: 600, methods: MOCK_CORS_METHODS, expose: MOCK_EXPOSED_HEADERS, exposeAll: true, allowAnyWithCredentials: false }, false);
  if (o.db !== undefined) {
    base.db = resolveDb(o.db, at('db'), fsDirOption, base.fs);
    base.fsDir = '';
  }

  base.journal = o.journal as MockApiOptions['journal'];
  base.routes = resolveRoutes(o.routes, at('routes'));
  base.routesSource = base.routes.length > 0 ? (o.routes as Record<string, string>) : null;
  base.readOnly = check.boolean(o.readOnly, at('readOnly'), false);
  base.static = resolveStatic(o.static, at('static'));
  base.middlewares = resolveRequestMiddlewares(o.middlewares, at('middlewares'));
  base.jsonServerRules = liveJsonServerRules(base, { rewrite: base.routes.length > 0 || base.preset === 'json-server', middlewares: base.readOnly || base.middlewares.length > 0 });
  base.scenarios = resolveScenarios(o.scenarios, at('scenarios'), base.fs !== undefined, warnings);
  base.sessions = resolveSessions(o.sessions, at('sessions'));
  base.faults = resolveFaultRules(o.faults, at('faults'));
  base.har = resolveHarOption(o.har, at('har'));
  base.webhooks = resolveWebhooksOption(o.webhooks, at('webhooks'));

  // endpointPrefix last: an invalid one disables the engine, it does not throw.
  base.prefixes = resolvePrefixes(o.endpointPrefix, warnings);
  base.publicPrefixes = base.prefixes.map((p) => p || '/');
  if (base.prefixes.length === 0) {
    base.disabledReason = `endpointPrefix is empty or invalid (got ${describe(o.endpointPrefix)}); the mock API is disabled`;
    return base;
  }
  base.disabled = false;
  return base;
}
