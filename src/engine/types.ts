/**
 * Public types of the mock API engine: options (the spec's names), handlers, middlewares,
 * pagination and filters. Runtime validation lives in options.ts.
 */
import type { StoreFor } from './store-contract/typed-store.js';
export type { NewItem, TypedCollectionStore } from './store-contract/typed-store.js';
import type { SignatureStyle } from '../core/webhook-signature.js';
import type { kGraphqlOperation } from './operation-symbol.js';
import type { Vfs } from '../vfs/types.js';
import type { BodySchema } from './body-schema.js';
import type { DelayOption } from './delay.js';
import type { PathParams } from './path-params.js';

export type { DelayOption, DelayRange, DelayPercentiles } from './delay.js';
import type { FaultOptions } from './fault-spec.js';
export type { FaultOptions, FaultRule } from './fault-spec.js';
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
// Webhooks sent by a handler (`req.app.webhook`; the option's types: src/engine/webhooks/options.ts, docs/webhooks.md)

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
