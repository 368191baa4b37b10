/**
 * Public types of the mock API engine: options (the spec's names), handlers, middlewares,
 * pagination and filters. Runtime validation lives in options.ts.
 */
import type { StoreFor } from './store/typed-store.js';
export type { NewItem, TypedCollectionStore } from './store/typed-store.js';
import type { StoreOptions } from './store/options.js';
import type { GraphqlOption } from './graphql/options.js';
import type { StreamsOption } from './streams/options.js';
import type { SignatureStyle } from '../core/webhook-signature.js';
import type { StoreChange } from './store/contract.js';
import type { kGraphqlOperation } from './operation-symbol.js';
import type { LoggerSink, LogLevel } from '../core/logger.js';
import type { CorsOptions } from '../core/cors.js';
import type { Vfs } from '../vfs/types.js';
import type { BodySchema } from './body-schema.js';
import type { DelayOption } from './delay.js';
import type { PathParams } from './path-params.js';

export type { DelayOption, DelayRange, DelayPercentiles } from './delay.js';
import type { FaultOptions, FaultRule } from './faults/types.js';
export type { FaultOptions, FaultRule } from './faults/types.js';
export type { BodySchema, StandardSchemaV1 } from './body-schema.js';
export type { PathParams, PathParamNames } from './path-params.js';

export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';

// ---------------------------------------------------------------------------------------------
// Pagination and filters (file-system mode)

export interface PaginationConfig {
  /** Where pagination input is read from. */
  type: 'query-param' | 'body';
  /** Name of the parameter / body field carrying the page size. */
  limit?: string;
  /** Name of the parameter / body field carrying the offset. */
  skip?: string;
  /** Name of the sort-field parameter. */
  sort?: string;
  /** Name of the sort-order parameter (`asc`/`desc` in any case, `1`/`-1`). */
  order?: string;
  /** For `type: 'body'`: the body field holding the pagination object (dot path allowed). */
  root?: string;
}

export type FilterComparison = 'eq' | 'neq' | 'ne' | 'gt' | 'gte' | 'lt' | 'lte' | 'in' | 'nin' | 'contains';
export type FilterValueType = 'string' | 'number' | 'boolean' | 'date' | 'string[]' | 'number[]' | 'boolean[]' | 'date[]';

export interface FilterEntry {
  /** Parameter (or body field) name. */
  key: string;
  /** Item field compared; defaults to `key`; may be a dot path (`address.city`). */
  field?: string;
  valueType?: FilterValueType;
  comparison?: FilterComparison;
}

export interface FilterConfig {
  type: 'query-param' | 'body';
  /** For `type: 'body'`: the body field holding the filter values (dot path allowed). */
  root?: string;
  filters: FilterEntry[];
}

/** Per-method configuration map (`{ GET: {...}, POST: {...} }`); `ALL` applies to every method. */
export type PerMethod<T> = Partial<Record<HttpMethod | 'ALL', T>>;

// ---------------------------------------------------------------------------------------------
// Handlers (programmable layer)

export interface UploadedFile {
  fieldName: string;
  filename: string;
  contentType: string;
  bytes: Uint8Array;
}

/**
 * The request object handed to handlers and middlewares. `Params` and `Body` are typed per
 * handler by `defineHandler` (from the pattern literal and the `body` schema).
 */
export interface HandlerRequest<Params extends Record<string, string> = Record<string, string>, Body = unknown, Api = {}> {
  method: string;
  /** Full URL string. */
  url: string;
  /** URL path (`/api/users/1`), not decoded. */
  path: string;
  headers: Headers;
  /** Decoded values captured by the pattern. */
  params: Params;
  /** Query parameters; a repeated key becomes an array. */
  query: Record<string, string | string[]>;
  /** Parsed body (see the `parser` option); `undefined` when there is none. */
  body: Body;
  files: UploadedFile[];
  /** The original platform Request. */
  request: Request;
  /** Engine services for handlers (`req.app.ws.broadcast(pattern, data)`). */
  app: MockApiApp<Api>;
  /** Free slot for middlewares to pass data to handlers (`req.locals.user = …`). */
  locals: Record<string, unknown>;
  /** A request header (case-insensitive), Express style. */
  get(name: string): string | undefined;
}

/** The response builder handed to handlers: Node style and Express style both work. */
export interface HandlerResponse {
  statusCode: number;
  statusMessage: string;
  readonly headersSent: boolean;
  readonly writableEnded: boolean;
  setHeader(name: string, value: string | number | readonly string[]): this;
  getHeader(name: string): string | undefined;
  removeHeader(name: string): this;
  hasHeader(name: string): boolean;
  writeHead(status: number, headers?: Record<string, string | number | readonly string[]>): this;
  writeHead(status: number, statusMessage: string, headers?: Record<string, string | number | readonly string[]>): this;
  write(chunk: string | Uint8Array): boolean;
  end(chunk?: string | Uint8Array): this;
  /**
   * Sends the head now: what is written next streams to the client as it is written, until
   * `end()` (as with a `Content-Type` of `text/event-stream` or `application/x-ndjson`, which
   * stream without it). docs/streams.md.
   */
  flushHeaders(): void;
  /**
   * `'close'`: the answer ended, or the client went away (stop writing: clear timers there).
   * `'drain'`: while streaming, `write` returned false (the client is 16 KiB behind) and the
   * client has caught up: write on (Node's backpressure contract).
   */
  on(event: 'close' | 'drain', listener: () => void): this;
  once(event: 'close' | 'drain', listener: () => void): this;
  off(event: 'close' | 'drain', listener: () => void): this;
  status(code: number): this;
  type(contentType: string): this;
  set(name: string, value: string | number | readonly string[]): this;
  set(headers: Record<string, string | number | readonly string[]>): this;
  /** Express alias of `set(name, value)` (json-server's README middleware uses it). */
  header(name: string, value: string | number | readonly string[]): this;
  json(value: unknown): this;
  send(value?: unknown): this;
  /** The status with its number as plain text. */
  sendStatus(code: number): this;
  /** `redirect(url)` (302) or `redirect(status, url)`. */
  redirect(statusOrUrl: number | string, url?: string): this;
}

export type NextFunction = (err?: unknown) => void;
export type HandlerFunction<Params extends Record<string, string> = Record<string, string>, Body = unknown, Api = {}> = (req: HandlerRequest<Params, Body, Api>, res: HandlerResponse) => unknown;
export type MiddlewareFunction = (req: HandlerRequest, res: HandlerResponse, next: NextFunction) => unknown;
export type ErrorHandlerFunction = (err: HandlerError, req: HandlerRequest, res: HandlerResponse, next: NextFunction) => unknown;

/** What error middlewares receive: always has `status` and `message`. */
export interface HandlerError extends Error {
  status: number;
  cause?: unknown;
}

export type AuthenticateOption = boolean | string | ((req: HandlerRequest) => boolean | Promise<boolean>);

export interface FsHandlerOptions {
  pagination?: PerMethod<PaginationConfig> | null;
  filters?: PerMethod<FilterConfig> | null;
  /** Maps the request path below the prefix (`/people/1`) to the file path to use (`/users/1`). */
  rewrite?: (path: string, req: HandlerRequest) => string;
}

/**
 * A REST handler. In a `handlers` array `req.params` is `Record<string, string>` and `req.body`
 * `unknown`; wrap it in `defineHandler({...})` to type them from the pattern literal and the
 * `body` schema.
 */
export interface RestHandler<P extends string = string, Body = unknown, Api = {}> extends FsHandlerOptions {
  pattern: P;
  /** HTTP method, or `'*'` for any. Default `'GET'`. */
  method?: string;
  /** ms, or `[min, max]` drawn uniformly per request; overrides the global delay (0 included). */
  delay?: DelayOption;
  /** A function, or `'FS'` to serve the pattern from the file system. */
  handle: HandlerFunction<PathParams<P>, Body, Api> | 'FS';
  /**
   * Checks (and types) `req.body` after parsing: a Standard Schema (zod, valibot, arktype…) or a
   * type guard. A body that does not pass is a 400 `Invalid request body` (schema issues in
   * `issues`), through the errorMiddlewares.
   */
  body?: BodySchema<Body>;
  authenticate?: AuthenticateOption;
  disabled?: boolean;
  /**
   * Faults on this handler's route (docs/sessions.md "Faults"): `delay` distributions,
   * `errorRate` + `status`, a connection `fault`, a `seed` for replayable draws.
   */
  fault?: FaultOptions;
}

/** One route of `Api['routes']`: the request body it takes and the answer it gives. */
export interface RouteSpec {
  body?: unknown;
  response?: unknown;
}

/** The response builder of a typed route: `json` takes the route's answer. */
export interface AnswerResponse<T> extends HandlerResponse {
  json(value: T): this;
}

type Awaitable<T> = T | Promise<T>;
/** `Api['routes']` when the Api type names them, else never. */
export type ApiRoutes<Api> = Api extends { routes: infer R extends object } ? R : never;
type RoutesOf<Api> = ApiRoutes<Api>;
type PatternOf<K> = K extends `${string} ${infer P}` ? P : string;
/** The answer of one route of `Api['routes']` (`RouteAnswer<Api['routes']['GET /todos/:id']>`). */
export type RouteAnswer<S> = S extends { response: infer R } ? R : unknown;
/** The request body of one route of `Api['routes']`. */
export type RouteBody<S> = S extends { body: infer B } ? B : unknown;
type Answer<S> = RouteAnswer<S>;
type BodyOf<S> = RouteBody<S>;

/**
 * A REST handler named by its route, `'METHOD /pattern'` (`{ route: 'GET /users/:id', handle }`):
 * the same as `{ method, pattern, handle }`. With an `Api` naming `routes`, the route must be one
 * of them and `req.body`, `res.json()` and the value returned are checked against it.
 */
export type RouteHandler<Api = {}> = [RoutesOf<Api>] extends [never]
  ? Omit<RestHandler, 'pattern' | 'method'> & { route: `${string} /${string}`; pattern?: undefined; method?: undefined }
  : {
      [K in keyof RoutesOf<Api> & string]: Omit<RestHandler<PatternOf<K>, BodyOf<RoutesOf<Api>[K]>, Api>, 'pattern' | 'method' | 'handle' | 'body'> & {
        route: K;
        pattern?: undefined;
        method?: undefined;
        body?: BodySchema<BodyOf<RoutesOf<Api>[K]>>;
        handle:
          | ((req: HandlerRequest<PathParams<PatternOf<K>>, BodyOf<RoutesOf<Api>[K]>, Api>, res: AnswerResponse<Answer<RoutesOf<Api>[K]>>) => Awaitable<Answer<RoutesOf<Api>[K]> | HandlerResponse | Response | void>)
          | 'FS';
      };
    }[keyof RoutesOf<Api> & string];

/** A REST handler of the `handlers` option and `api.use()`: by pattern (untyped) or by route. */
export type HandlerFor<Api = {}> = (RestHandler<string, unknown, Api> & { route?: undefined }) | RouteHandler<Api>;

// ---------------------------------------------------------------------------------------------
// WebSocket handlers

export interface WsConnection {
  readonly id: string;
  readonly params: Record<string, string>;
  readonly query: Record<string, string | string[]>;
  readonly headers: Headers;
  /** Objects are sent as JSON; strings as text; bytes as binary. */
  send(data: unknown): void;
  broadcast(data: unknown, options?: { includeSelf?: boolean; room?: string }): void;
  join(room: string): void;
  leave(room: string): void;
  readonly rooms: ReadonlySet<string>;
  close(code?: number, reason?: string): void;
  /** Free slot for per-connection state. */
  data: Record<string, unknown>;
  /** Engine services, as `req.app` for REST handlers (`conn.app.ws.broadcast('/other', data)`, `conn.app.fs`). */
  readonly app: MockApiApp;
}

export interface WsHandler {
  pattern: string;
  onConnect?(conn: WsConnection): unknown;
  /** Optional when `onConnect` is given (a handler that only pushes); a message then goes unanswered. */
  onMessage?(conn: WsConnection, message: unknown): unknown;
  onClose?(conn: WsConnection, code: number, reason: string): unknown;
  onError?(conn: WsConnection, error: unknown): unknown;
  /** Ping interval in ms; a peer that misses two pongs is terminated. */
  heartbeat?: number;
  authenticate?: AuthenticateOption;
  /** `true` skips the handler. */
  disabled?: boolean;
}

export interface MockApiApp<Api = {}> {
  ws: {
    /** Sends `data` to every client connected to the handler with this pattern. Returns the count. */
    broadcast(pattern: string, data: unknown, options?: { room?: string }): number;
    /** How many clients are connected to the handler with this pattern (in `room`, when given). */
    count(pattern: string, options?: { room?: string }): number;
  };
  fs: Vfs;
  /**
   * The collection store (src/engine/store/): the JSON-array collections of the mocks folder,
   * read and written through the same queue as REST and GraphQL, with change events.
   */
  store: StoreFor<Api>;
  /**
   * Sends a webhook now through the engine's delivery queue (retries, signing, the journal's
   * outgoing rows): `req.app.webhook('http://127.0.0.1:3000/hook', { body: { paid: true } })`.
   * Returns the delivery id (undefined when the queue is full). docs/webhooks.md.
   */
  webhook(url: string, init?: WebhookInit): string | undefined;
}

// ---------------------------------------------------------------------------------------------
// Options

export interface ParserConfig {
  parser: MiddlewareFunction | MiddlewareFunction[];
  transform?: (req: HandlerRequest) => { body?: unknown; query?: Record<string, string | string[]> };
}

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
  collections?: boolean | { idField?: string };
  /**
   * `'json-server'`: collections on, json-server 0.17's query syntax on GET of collections
   * (`_page`, `_limit`, `_sort`, `field_gte`, `q`, `_embed`, …), nested routes. Without it, query
   * parameters keep the meaning `pagination`/`filters` give them.
   */
  preset?: 'json-server' | null;
  /**
   * json-server's rewrite rules (its `routes.json`): `{ "/api/*": "/$1", "/:resource/:id/show":
   * "/:resource/:id", "/posts/:category": "/posts?category=:category" }`, applied in order before
   * every layer (src/engine/json-server/routes.ts); `GET /__rules` lists them.
   */
  routes?: Record<string, string>;
  /** Only GET, HEAD and OPTIONS: every other method answers 403 (json-server's `--read-only`). */
  readOnly?: boolean;
  /**
   * Folders of static files served beside the API, before it (json-server's `--static`): a folder
   * (relative to `root`, Node) or a Vfs, or a list of them (the first holding the file wins).
   * `GET /` serves `index.html`. Types, ranges, ETag/Last-Modified (src/engine/static/layer.ts).
   */
  static?: string | Vfs | Array<string | Vfs>;
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
  sessions?: false | { idleTimeout?: number; max?: number; clock?: () => number };
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
  openapi?: string | object | { document: string | object; validateResponses?: boolean; strictResponses?: boolean; mock?: boolean; seed?: number | string; count?: number | Record<string, number>; ids?: 'population' | 'any' };
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
  har?: string | { log: { entries: unknown[] } & Record<string, unknown> };
  /**
   * Webhooks the mock sends after a request pattern's answer (`'POST /api/orders'`) or a store
   * change (`'orders.created'`): signed, retried, in order per receiver (docs/webhooks.md).
   */
  webhooks?: WebhookOption[];
}

export interface ProxyOptions {
  /**
   * The real API: an absolute http(s) URL. The request's path (prefix included) and query are
   * appended to it: target `https://staging.example.com/v2` + `/api/users?page=2` →
   * `https://staging.example.com/v2/api/users?page=2`.
   */
  target: string;
  /** Rewrites the path (with its query string) before it is appended: `(p) => p.replace(/^\/api/, '')`. */
  rewrite?: (path: string) => string;
  /** Headers set on every forwarded request (replacing the client's of the same name), e.g. an API key. */
  headers?: Record<string, string>;
  /** Milliseconds to wait for the target's response headers (default 30000); then 504. */
  timeout?: number;
  /**
   * Record the proxied answers as mock files in `fsDir` (and a HAR log: `api.recorder.har()`).
   * See docs/proxy.md.
   */
  record?: boolean | RecordOptions;
}

export interface RecordOptions {
  /** Replace files that exist (default false: an existing file is kept). */
  overwrite?: boolean;
  /** More header names whose values the HAR log redacts (Authorization, Cookie, Set-Cookie and `proxy.headers` always are). */
  redact?: string[];
  /** false: do not serve existing files; every request goes to the target (default true). */
  serveFiles?: boolean;
  /** Largest body recorded, in bytes (default 50 MiB). */
  captureLimit?: number;
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

// GraphQL operation handlers (`graphql.query('GetUser', …)`, src/engine/handler-api/operation-handlers.ts).
export type GraphqlOperationType = 'query' | 'mutation' | 'subscription';

export interface GraphqlResolverInput {
  /** The document as sent. */
  readonly query: string;
  readonly variables: Record<string, unknown>;
  readonly operationName: string;
  readonly operationType: GraphqlOperationType;
  /** The HTTP request (the WebSocket handshake's, over a socket). */
  readonly request: Request;
  /** The engine's services (`app.store`, `app.fs`, `app.ws`). */
  readonly app: MockApiApp;
}

export interface GraphqlAnswer {
  data?: unknown;
  errors?: ReadonlyArray<{ message: string; path?: ReadonlyArray<string | number>; extensions?: Record<string, unknown> }>;
  extensions?: Record<string, unknown>;
}

export type GraphqlResolver = (input: GraphqlResolverInput) => GraphqlAnswer | Response | Promise<GraphqlAnswer | Response>;

/**
 * A subscription's resolver (`graphql.subscription('OnTick', async function* () { … })`): the
 * events, each a `{ data, errors? }` answer sent to the subscriber as a `next` message; the
 * subscription completes when the iterable ends, and the iterable is closed (`return()`, the
 * generator's `finally`) when the client completes it or goes away.
 */
export type GraphqlSubscriptionResolver = (input: GraphqlResolverInput) => AsyncIterable<GraphqlAnswer> | Promise<AsyncIterable<GraphqlAnswer>>;

export interface GraphqlOperationHandler {
  readonly [kGraphqlOperation]: true;
  /** `query`, `mutation`, `subscription`, or `'*'` for queries and mutations. */
  readonly operationType: GraphqlOperationType | '*';
  /** The operation name, a pattern, or `'*'` (any, anonymous operations included). */
  readonly operationName: string | RegExp;
  /** A `GraphqlSubscriptionResolver` when `operationType` is `subscription`. */
  readonly resolve: GraphqlResolver | GraphqlSubscriptionResolver;
  /** `true` skips the handler. */
  readonly disabled?: boolean;
}

// ---------------------------------------------------------------------------------------------
// Webhooks (the option, `req.app.webhook`; src/engine/webhooks/, docs/webhooks.md)

/** What a webhook's `url` and `body` functions are given: the request and answer, or the store change, that caused it. */
export interface WebhookCause {
  /** `POST /api/orders` or `orders.created`. */
  event: string;
  /** A request pattern's cause: the request (its body already read: `body`). */
  request?: Request;
  /** The request's JSON body (or text), when it had one. */
  requestBody?: unknown;
  /** A request pattern's cause: the answer's status, headers and JSON body (or text). */
  response?: { status: number; headers: Headers; body: unknown };
  /** A store change's cause. */
  change?: StoreChange;
}

export type WebhookValue<T> = T | ((cause: WebhookCause) => T | Promise<T>);

export interface WebhookRetry {
  /** Attempts in all, the first included (default 5; 1 = no retry). */
  attempts?: number;
  /** Milliseconds before each retry (default [500, 1000, 2000, 4000]); the last one repeats. */
  delays?: number[];
}

export interface WebhookOption {
  on: string;
  url: WebhookValue<string | undefined>;
  method?: string;
  headers?: Record<string, string>;
  /** A JSON value, or a function of the cause returning one (default: the changed item, else the answer's body). */
  body?: string | number | boolean | null | object | ((cause: WebhookCause) => unknown);
  /** Milliseconds before the first attempt (default 0). */
  delay?: number;
  retry?: false | number | WebhookRetry;
  /** Signs the exact bytes sent (core/webhook-signature.ts). */
  secret?: string;
  /** `github` (default: X-Hub-Signature-256) or `stripe` (Stripe-Signature). */
  signature?: SignatureStyle;
  /** The event name sent as `X-Mockyard-Event` (default: the `on` text). */
  event?: string;
}

/** `req.app.webhook(url, init)` / `api.webhooks.send(url, init)`. */
export interface WebhookInit {
  method?: string;
  headers?: Record<string, string>;
  /** JSON value (sent as JSON), text or bytes. */
  body?: unknown;
  event?: string;
  delay?: number;
  retry?: false | number | { attempts?: number; delays?: number[] };
  secret?: string;
  signature?: SignatureStyle;
}
