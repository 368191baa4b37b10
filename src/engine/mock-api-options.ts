/**
 * The option list's type (`createMockApi(options)`, `mock` in a config), on the engine's assembly
 * floor: composed from the contract's types (handlers, delay, pagination, filters) and each
 * layer's own option type, declared in the layer's folder (`graphql/options.ts`,
 * `streams/options.ts`, `store/options.ts`, `webhooks/options.ts`, the fault rules of
 * `fault-spec.ts`). Validated and resolved by options.ts; published by public-types.ts.
 * A new surface adds its field here, typed by its own `options.ts`.
 */
import type { CorsOptions } from '../core/cors.js';
import type { LoggerSink, LogLevel } from '../core/logger.js';
import type { Vfs } from '../vfs/types.js';
import type { DelayOption } from './delay.js';
import type { FaultRule } from './fault-spec.js';
import type { GraphqlOption } from './graphql/options.js';
import type { StoreOptions } from './store/options.js';
import type { StreamsOption } from './streams/options.js';
import type { ErrorHandlerFunction, FilterConfig, GraphqlOperationHandler, HandlerFor, MiddlewareFunction, PaginationConfig, ParserConfig, PerMethod, ProxyOptions, WsHandler } from './types.js';
import type { WebhookOption } from './webhooks/options.js';
import type { CollectionsOption } from './collections/options.js';
import type { Preset } from './preset-hints/options.js';
import type { HarOption } from './replay/options.js';
import type { SessionsOption } from './sessions/options.js';
import type { StaticOption } from './static/options.js';

/**
 * `Api`: the types `mockyard export … --types` writes (docs/contract.md): `collections` types
 * `req.app.store`, `routes` the handlers given as `{ route: 'GET /todos/:id', handle }`. Without
 * it (`{}`) every type is as it always was.
 */
export interface MockApiOptions<Api = {}> {
  disable?: boolean;
  logLevel?: LogLevel;
  /** Plug in the host's logger (Vite's, pino, console). */
  logger?: LoggerSink;
  endpointPrefix: string | string[];
  /** Directory for file mocks, relative to `root` (or absolute). `null` disables file routing. */
  fsDir?: string | null;
  /** Filesystem to serve from; default: disk at `root`. */
  fs?: Vfs;
  /** Project root for a relative fsDir (default: process.cwd() in Node hosts). */
  root?: string;
  enableWs?: boolean;
  /** ms before every response, or `[min, max]` drawn uniformly per request. */
  delay?: DelayOption;
  gatewayTimeout?: number;
  noHandledRestFsRequestsAction?: '404' | 'forward';
  parser?: boolean | ParserConfig;
  handlerMiddlewares?: MiddlewareFunction[];
  errorMiddlewares?: ErrorHandlerFunction[];
  /**
   * REST handlers (`{ pattern, method, handle }`, or `{ route: 'GET /users/:id', handle }` —
   * typed by `Api['routes']`), and GraphQL handlers by operation name (`graphql.query('GetUser',
   * …)`, src/engine/handler-api/operation-handlers.ts).
   */
  handlers?: Array<HandlerFor<Api> | GraphqlOperationHandler>;
  wsHandlers?: WsHandler[];
  pagination?: PerMethod<PaginationConfig> | null;
  filters?: PerMethod<FilterConfig> | null;
  /** Largest request body accepted, in bytes (default 10 MiB); larger → 413. */
  bodyLimit?: number;
  /**
   * Deepest nesting of JSON accepted from request bodies and files (default 256): a deeper
   * request body → 400 naming the limit; a deeper file is served as stored, but not queried or
   * patched (one warning). At most 1000: deeper documents overflow the stack of the recursive
   * code that handles JSON (JSON.stringify, merges, copies).
   */
  maxJsonDepth?: number;
  /**
   * json-server collections: a JSON array of objects answers item routes
   * (`GET/PUT/PATCH/DELETE <prefix>/<name>/<id>`) and POST appends with an id. `true` uses the
   * `id` field; `{ idField }` names another. Default off (the spec's file mode), on with the preset.
   */
  collections?: CollectionsOption;
  /**
   * `'json-server'`: collections on, json-server 0.17's query syntax on GET of collections
   * (`_page`, `_limit`, `_sort`, `field_gte`, `q`, `_embed`, …), nested routes. Without it, query
   * parameters keep the meaning `pagination`/`filters` give them.
   */
  preset?: Preset | null;
  /**
   * json-server's rewrite rules (its `routes.json`): `{ "/api/*": "/$1", "/:resource/:id/show":
   * "/:resource/:id", "/posts/:category": "/posts?category=:category" }`, applied in order before
   * every layer (src/engine/json-server/routes.ts); `GET /__rules` lists them.
   */
  routes?: Record<string, string>;
  /** Only GET, HEAD and OPTIONS: every other method answers 403 (json-server's `--read-only`). */
  readOnly?: boolean;
  /**
   * Folders of static files served beside the API, after it (json-server's `--static`): a folder
   * (relative to `root`, Node) or a Vfs, or a list of them (the first holding the file wins).
   * `GET /` serves `index.html`. Types, ranges, ETag/Last-Modified (src/engine/static/layer.ts).
   */
  static?: StaticOption;
  /**
   * Express-style `(req, res, next)` middlewares run on every request under the prefix, in
   * order, before the handlers (json-server's `--middlewares`): `res.header('X-Hello', 'World');
   * next()` adds a header to whatever answers; `res.status(401).json({…})` answers.
   */
  middlewares?: MiddlewareFunction[];
  /**
   * One JSON file whose top-level keys are the resources (json-server's `db.json`): a path
   * relative to `root` (Node) or a file inside `fs`. Replaces `fsDir`.
   */
  db?: string;
  /**
   * CORS for browsers on other origins (default off): `true` for every origin, or
   * `{ origins, credentials, maxAge }` (src/core/cors.ts); `false` off.
   */
  cors?: boolean | CorsOptions;
  /**
   * Devtools request journal (src/devtools/journal.ts): on by default (1,000 entries, 4 KiB of
   * each body); `false` turns it off; `{ size, bodyLimit }` sizes it (`size: 0` = off).
   */
  journal?: boolean | { size?: number; bodyLimit?: number };
  /**
   * Named scenarios selected at run time (per request by the `X-Mockyard-Scenario` header or the
   * `?__scenario=` query parameter, else `api.useScenario(name)`): a scenario's handlers come
   * before the base ones, its `fsDir` is laid over the base mocks (overlay), `delay` replaces
   * the global delay, `disabled` lists base handler patterns (`/users/:id` or `GET /users/:id`)
   * switched off in it.
   */
  scenarios?: Record<string, ScenarioOptions>;
  /**
   * Sessions (on by default): a request carrying `X-Mockyard-Session` (header, cookie of that
   * name, or `?__session=`) reads and writes a private copy-on-write view of the mocks, with its
   * own scenario and overrides (docs/sessions.md). `false` turns them off.
   */
  sessions?: SessionsOption;
  /**
   * Fault rules for routes (docs/sessions.md "Faults"): `{ method, path, delay, errorRate,
   * status, fault, seed }`, first match wins.
   */
  faults?: FaultRule[];
  /**
   * Validate every request under the prefix against this OpenAPI 3.0/3.1 or Swagger 2 document
   * (a path or URL, relative to `root`/the working directory; or the document object) before any
   * handler or file runs: 400 with the problems, 404/405 for operations it does not have.
   * `{ document, validateResponses: true }` also checks every answer against the documented
   * response for its status and content type (violations logged with their JSON pointers and
   * marked in the journal); `strictResponses: true` answers 500 listing them instead (for CI).
   * What no handler or file answers is answered from the document (docs/openapi.md): stateful
   * collections with generated data (`seed`, `count`), unless `mock: false` (default false
   * when a `proxy` is set). `ids: 'any'` answers any id of a collection (Prism's stateless rule)
   * instead of the 404 of an id never created.
   */
  openapi?: string | object | { document: string | object; validateResponses?: boolean; strictResponses?: boolean; mock?: boolean; seed?: number | string; count?: number | Record<string, number>; ids?: 'population' | 'any'; state?: string | Vfs };
  /** The collection store (`req.app.store`, GraphQL): how relation fields are named (src/engine/store/options.ts). */
  store?: StoreOptions;
  /** GraphQL over the collections (src/engine/graphql/options.ts); on with the json-server preset. */
  graphql?: GraphqlOption;
  /** How recorded streams (`.sse` / `.ndjson` files) replay (src/engine/streams/options.ts). */
  streams?: StreamsOption;
  /**
   * Pass what no handler or file answers to a real API (the last layer of the pipeline).
   * In browser mode such requests go to the network instead (see docs/proxy.md).
   */
  proxy?: ProxyOptions;
  /**
   * Serve a HAR log as recorded traffic (docs/proxy.md): the HAR object, or on Node the path of a
   * `.har` file. Requests are matched by method, path, query and (writes) body.
   */
  har?: HarOption;
  /**
   * Webhooks the mock sends after a request pattern's answer (`'POST /api/orders'`) or a store
   * change (`'orders.created'`): signed, retried, in order per receiver (docs/webhooks.md).
   */
  webhooks?: WebhookOption[];
}

export interface ScenarioOptions {
  /** REST handlers (by pattern or route), and GraphQL handlers by operation name (`graphql.query('GetUser', …)`, src/engine/handler-api/operation-handlers.ts). */
  handlers?: Array<HandlerFor | GraphqlOperationHandler>;
  /** Folder laid over the base mocks: inside `fs` when given, else relative to `root`. */
  fsDir?: string;
  /** ms, a range [min, max] or { p50, p99 }, like the global delay. */
  delay?: DelayOption;
  disabled?: string[];
  /** Fault rules tried before the base ones (docs/sessions.md "Faults"). */
  faults?: FaultRule[];
}
