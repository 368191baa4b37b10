/**
 * The handler layer: REST handlers matched before file-system mode.
 *
 * For a request whose path (below the prefix) and method match a handler (array order, first
 * match wins; HEAD falls back to GET with the body dropped):
 *   delay (the handler's own, else the global one; 0 included; a range is drawn per request, and
 *   a draw at or past gatewayTimeout is answered 504 after gatewayTimeout ms, see delay.ts)
 *   → authenticate (401)
 *   → body parsing (`parser`) → the handler's `body` schema (400 when it does not pass)
 *   → handlerMiddlewares
 *   → the handler (a function, or `'FS'`: file-system mode with the handler's own pagination,
 *     filters and `rewrite`)
 *   → on any error: errorMiddlewares, then the default JSON error response (status kept).
 * `gatewayTimeout` bounds everything after the delay: past it the client gets 504 (through the
 * errorMiddlewares) and whatever the handler does later is dropped.
 * Order: after the checks (faults, openapi, json-server's rewrite and middlewares), before every
 *   data layer (har, recorded, streams, graphql, collections, files): code wins over data.
 */
import { hasBody } from '../../core/body.js';
import { readDecodedBody } from '../../core/content-encoding.js';
import { DEFAULT_MESSAGES, errorResponse, HttpError, responseForError } from '../../core/errors.js';
import { FastResponse, fastState, withDefaultHeaders } from '../../core/fast-response.js';
import type { RequestContext } from '../context.js';
import { PASS, type Layer } from '../pipeline/layer.js';
import type { EngineServices, FsServeOverrides } from '../services.js';
import { checkAuthenticate } from '../handler-api/authenticate.js';
import { runParser } from './body-parser.js';
import { isThenable, runErrorMiddlewares, runMiddlewares } from '../handler-api/chain.js';
import { Deadlines } from '../handler-api/deadline.js';
import { validateBody, type BodySchema } from '../body-schema.js';
import { afterDelay, NO_DELAY, type DrawDelay } from '../delay.js';
import type { ErrorHandlerFunction, MiddlewareFunction, ParserConfig, RestHandler } from '../types.js';
import { toHandlerError } from '../handler-api/handler-error.js';
import { PortableRequest } from '../handler-api/request.js';
import { ResponseBuilder } from '../handler-api/response.js';
import { compileRoutes, matchRoute, type Route, type RouteMatch } from './routes.js';
import { LiveStreams } from '../handler-api/live-streams.js';

export interface HandlerLayer extends Layer {
  handle(ctx: RequestContext): Promise<Response | undefined>;
  /**
   * PASS when no handler matches; a fast route without delay or body: its answer when the handler
   * gives it synchronously; else undefined (the match, or the work started, waits in `ctx.peeked`).
   */
  peek(ctx: RequestContext): Response | typeof PASS | undefined;
  readonly ownDelay: true;
}

/** Where `handle: 'FS'` handlers get their files: the files layer of the same pipeline. */
export interface FsServer {
  serve(ctx: RequestContext, overrides?: FsServeOverrides): Promise<Response>;
}

/** The same response without its body (HEAD served by a GET handler that returned a Response). */
function withoutBody(response: Response): Response {
  const state = fastState(response);
  if (state) return new FastResponse(null, { status: state.status, statusText: state.statusText, headers: state.headers }) as unknown as Response;
  return new Response(null, { status: response.status, statusText: response.statusText, headers: response.headers });
}

/** Segments of a rewritten path, percent-encoded unless they already are. */
function encodePath(path: string): string {
  const p = path.startsWith('/') ? path : `/${path}`;
  return p
    .split('/')
    .map((seg) => (/%[0-9A-Fa-f]{2}/.test(seg) ? seg : encodeURIComponent(seg)))
    .join('/');
}

const NAME = 'handlers';

/** `options.handlers` (and the options they inherit) as a pipeline layer; `files` serves `handle: 'FS'`. */
/** What the handler layer reads of the resolved options (the option list passes them whole). */
export interface HandlerLayerOptions {
  readonly handlers: RestHandler[];
  readonly delay: DrawDelay;
  readonly parser: boolean | ParserConfig;
  readonly bodyLimit: number;
  readonly maxJsonDepth: number;
  readonly handlerMiddlewares: MiddlewareFunction[];
  readonly errorMiddlewares: ErrorHandlerFunction[];
  readonly gatewayTimeout: number;
}

export function createHandlerLayer(options: HandlerLayerOptions, services: EngineServices, files: FsServer, name = NAME): HandlerLayer {
  const routes = compileRoutes(options.handlers);
  if (routes.length === 0) return { name, ownDelay: true, peek: () => PASS, handle: async () => undefined };
  const { logger, app } = services;
  const deadlines = new Deadlines();
  const streams = new LiveStreams(); // answers still streaming: ended by close()
  const { parser, bodyLimit, maxJsonDepth, handlerMiddlewares, errorMiddlewares, gatewayTimeout } = options;
  const { inflate } = services.runtime;
  // Routes that can skip authenticate, parsing and middlewares when the request has no body.
  const fastRoutes = new Set(routes.filter((r) => r.authenticate === undefined && r.handler.body === undefined && r.handle !== 'FS' && handlerMiddlewares.length === 0 && (parser === true || parser === false)));

  /** Error path: errorMiddlewares in order, then the default error response. */
  async function answerError(err: unknown, route: Route, req: PortableRequest, res: ResponseBuilder, head: boolean): Promise<Response> {
    const error = toHandlerError(err);
    if (error.status >= 500 && error.status !== 504) {
      // A deliberate 5xx (an HttpError thrown on purpose: a test of the app's error path) is one
      // line; its stack only at logLevel 'debug'. Anything else thrown is a bug: with its stack.
      const deliberate = err instanceof HttpError && !logger.enabled('debug');
      logger.error(`${route.label} (${req.method} ${req.path}) failed: ${error.message}`, ...(deliberate ? [] : [(error as { cause?: unknown }).cause ?? error]));
    }
    res.seal();
    const eres = res.forError();
    let unhandled = await runErrorMiddlewares(errorMiddlewares, error, req, eres);
    if (!unhandled) {
      try {
        return eres.toResponse(head);
      } catch (err) {
        unhandled = toHandlerError(err); // e.g. an error middleware set an invalid status
      }
    }
    const message = unhandled.expose ? unhandled.message : DEFAULT_MESSAGES[unhandled.status] ?? 'Internal Server Error';
    return errorResponse(unhandled.status, message, req.path, {
      headers: { ...eres.headerRecord(), ...unhandled.headers },
      details: unhandled.details,
      head,
    });
  }

  async function serveFs(route: Route, ctx: RequestContext, req: PortableRequest, raw: Uint8Array | undefined): Promise<Response> {
    const h = route.handler;
    const overrides: FsServeOverrides = {};
    if (route.fsPagination !== undefined) overrides.pagination = route.fsPagination;
    if (route.fsFilters !== undefined) overrides.filters = route.fsFilters;
    if (h.rewrite) {
      const rewritten = h.rewrite(ctx.subPath || '/', req);
      if (typeof rewritten !== 'string') throw new HttpError(500, `rewrite of ${route.label} must return a string path`);
      overrides.path = encodePath(rewritten);
    }
    if (raw !== undefined) overrides.body = raw;
    const response = await files.serve(ctx, overrides);
    ctx.answered(name, route.label); // over the files layer's own record
    return response;
  }

  async function run(route: Route, ctx: RequestContext, req: PortableRequest, res: ResponseBuilder, head: boolean, state: { timedOut: boolean; stage: string }): Promise<Response> {
    try {
      if (route.authenticate !== undefined) await checkAuthenticate(route.authenticate, req);
      let raw: Uint8Array | undefined;
      const withBody = hasBody(ctx.request);
      if (route.handle === 'FS' && withBody) {
        // File mode needs the bytes after the parser and middlewares looked at them: read once.
        raw = await readDecodedBody(ctx.request, bodyLimit, inflate);
        if (typeof parser === 'object' && ctx.method !== 'GET' && ctx.method !== 'HEAD') {
          // Custom parser functions read `req.request`: give them a copy holding the (decoded) bytes.
          const r = ctx.request;
          const headers = new Headers(r.headers);
          headers.delete('content-encoding');
          req.request = new Request(r.url, { method: r.method, headers, body: raw as BodyInit });
        }
      }
      // The built-in parser has nothing to do without a body (hot path: small GETs).
      if (parser !== false && (parser !== true || withBody)) {
        state.stage = 'parser';
        if ((await runParser(parser, req, res, bodyLimit, raw, maxJsonDepth, inflate)) === 'responded') return res.toResponse(head);
      }
      if (route.handler.body !== undefined) {
        state.stage = 'body';
        req.body = await validateBody(route.handler.body as BodySchema, req.body);
      }
      if (handlerMiddlewares.length > 0) {
        state.stage = 'handlerMiddlewares';
        if ((await runMiddlewares(handlerMiddlewares, req, res, (i) => (state.stage = `handlerMiddlewares[${i}]`))) === 'responded') {
          return res.toResponse(head);
        }
      }
      state.stage = 'handler';
      // Headers a middleware set (CORS…) are added; the file answer's own win.
      if (route.handle === 'FS') return withDefaultHeaders(await serveFs(route, ctx, req, raw), res.headerRecord());
      return await settle(route, res, head, route.handle(req, res));
    } catch (err) {
      return failed(err, route, req, res, head, state);
    }
  }

  function failed(err: unknown, route: Route, req: PortableRequest, res: ResponseBuilder, head: boolean, state: { timedOut: boolean }): Promise<Response> | Response {
    if (state.timedOut) {
      logger.debug(`${route.label}: error after the gateway timeout dropped: ${(err as Error)?.message ?? String(err)}`);
      return responseForError(err, req.path, head);
    }
    return answerError(err, route, req, res, head);
  }

  /** The response for what a handler returned (sync part; undefined = wait asynchronously). */
  function settleSync(route: Route, res: ResponseBuilder, head: boolean, result: unknown): Response | undefined {
    if (res.done) return res.toResponse(head);
    if (result instanceof Response) {
      if (head) return withoutBody(result);
      return streams.track(result);
    }
    if (result !== undefined) return res.json(result).toResponse(head);
    if (res.headersSent) return undefined;
    throw new HttpError(
      500,
      `Handler ${route.label} did not send a response: call res.end() / res.json() / res.send(), or return a value or a Response (a handler that answers later must return a promise)`,
    );
  }

  /**
   * An answer that reaches nobody (it came after the 504, or after the handler ended the response
   * through `res`): its body is cancelled, so a stream behind it ends instead of staying open.
   */
  const discardLate = (response: unknown) => {
    if (response instanceof Response && fastState(response) === undefined) response.body?.cancel().catch(() => {});
  };

  /** Turns what the handler returned (a value, a Response, a promise, nothing) into the response. */
  async function settle(route: Route, res: ResponseBuilder, head: boolean, returned: unknown): Promise<Response> {
    let result: unknown = returned;
    if (isThenable(returned)) {
      // Answer as soon as the response ends, even if the handler's promise settles later.
      const pending = Promise.resolve(returned);
      const first = await Promise.race([pending.then((value) => ({ value })), res.finished.then(() => undefined), res.startedStreaming.then(() => 'streaming' as const)]);
      if (first === 'streaming') {
        // Node-style streaming from an async handler still writing: the stream goes out now.
        pending.catch((err: unknown) => {
          logger.error(`${route.label} failed while streaming: ${(err as Error)?.message ?? String(err)}`, err);
          res.failStream(err);
        });
        return streams.track(res.toStreamResponse(head));
      }
      if (first === undefined) {
        pending.then(discardLate, (err: unknown) => logger.debug(`${route.label}: error after the response ended ignored: ${(err as Error)?.message ?? String(err)}`));
        return res.toResponse(head);
      }
      result = first.value;
    }
    const response = settleSync(route, res, head, result);
    if (response) return response;
    // Written but not ended yet: a stream (event stream, NDJSON, flushHeaders) goes out as it is
    // written; anything else is buffered until end().
    if (res.streaming) return streams.track(res.toStreamResponse(head));
    await Promise.race([res.finished, res.startedStreaming]);
    return res.streaming ? streams.track(res.toStreamResponse(head)) : res.toResponse(head);
  }

  type State = { timedOut: boolean; stage: string };

  /** A fast route (fastRoutes: no authenticate, middlewares, body schema or custom parser; not 'FS') for a request without a body. */
  const isFast = (route: Route, ctx: RequestContext): boolean => fastRoutes.has(route) && !hasBody(ctx.request);

  /**
   * A request's work as the layer answers it: a bug in the layer still answers (500), never
   * hangs the request, and the gateway timeout bounds the wait (504 through the error middlewares).
   */
  function guarded(work: () => Promise<Response>, ctx: RequestContext, route: Route, req: PortableRequest, res: ResponseBuilder, head: boolean, state: State, drawnTimeout: boolean): Promise<Response> {
    const gatewayTimedOut = () => {
      state.timedOut = true;
      res.seal();
      logger.warn(`${route.label} (${ctx.method} ${ctx.pathname}): no response within gatewayTimeout (${gatewayTimeout} ms, ${drawnTimeout ? 'the drawn delay reached it' : `still in ${state.stage}`}); answered 504`);
      return answerError(new HttpError(504, DEFAULT_MESSAGES[504]!), route, req, res, head);
    };
    if (drawnTimeout) return gatewayTimedOut();
    const safe = work().catch((err: unknown) => {
      logger.error(`${route.label} (${ctx.method} ${ctx.pathname}) failed: ${(err as Error)?.message ?? String(err)}`, err);
      return responseForError(err, ctx.pathname, head);
    });
    return deadlines.race(safe, gatewayTimeout, gatewayTimedOut);
  }

  /**
   * Hot path (a fast route — no authenticate, middlewares, body schema or custom parser — and no
   * request body): the handler is called right away. A handler that answers synchronously needs
   * no timer and no promise: its Response is returned as is; anything later comes as a promise.
   */
  function runFast(ctx: RequestContext, route: Route, params: Record<string, string>, head: boolean): Response | Promise<Response> {
    const req = new PortableRequest(ctx, params, app);
    const res = new ResponseBuilder();
    const state: State = { timedOut: false, stage: 'handler' };
    let work: Promise<Response>;
    try {
      const returned = (route.handle as Exclude<Route['handle'], 'FS'>)(req, res);
      if (!isThenable(returned)) {
        const response = settleSync(route, res, head, returned);
        if (response) return response;
      }
      work = settle(route, res, head, returned).catch((err: unknown) => failed(err, route, req, res, head, state));
    } catch (err) {
      // errorMiddlewares run under the gateway timeout too.
      work = Promise.resolve(failed(err, route, req, res, head, state));
    }
    return guarded(() => work, ctx, route, req, res, head, state, false);
  }

  /** What peek started and handle finishes: a fast route's answer that was not ready at once. */
  class Started {
    constructor(readonly answer: Promise<Response>) {}
  }

  return {
    name,
    ownDelay: true,
    peek(ctx) {
      let match: RouteMatch | undefined;
      try {
        match = matchRoute(routes, ctx.method, ctx.subPath);
      } catch {
        return undefined; // handle() answers the error
      }
      if (match === undefined) return PASS;
      const { route, params } = match;
      // A fast route without delay or body is answered here, synchronously when the handler
      // answers synchronously; else the work it started is handed to handle() (the engine's
      // contract: after an undefined handleCached the host calls handle for the same request).
      if ((route.delay ?? options.delay) === NO_DELAY && isFast(route, ctx)) {
        ctx.answered(name, route.label);
        const answer = runFast(ctx, route, params, ctx.method === 'HEAD');
        if (!(answer instanceof Promise)) return answer;
        ctx.peeked = new Started(answer);
        return undefined;
      }
      ctx.peeked = match;
      return undefined;
    },
    async handle(ctx) {
      const head = ctx.method === 'HEAD';
      const peeked = ctx.peeked;
      if (peeked instanceof Started) return peeked.answer;
      // The pipeline hands over what peek matched (ctx.peeked is ours when handle is called).
      let match = peeked as RouteMatch | undefined;
      if (match === undefined) {
        try {
          match = matchRoute(routes, ctx.method, ctx.subPath);
        } catch (err) {
          return responseForError(err, ctx.pathname, head);
        }
        if (!match) return undefined;
      }
      const { route, params } = match;
      ctx.answered(name, route.label);
      const { wait, timedOut } = afterDelay(route.delay ?? options.delay, gatewayTimeout);
      if (wait > 0) await services.sleep(wait);
      if (!timedOut && isFast(route, ctx)) return runFast(ctx, route, params, head);
      const req = new PortableRequest(ctx, params, app);
      const res = new ResponseBuilder();
      const state: State = { timedOut: false, stage: 'authenticate' };
      return guarded(() => run(route, ctx, req, res, head, state), ctx, route, req, res, head, state, timedOut);
    },
    async close() {
      deadlines.expireAll();
      streams.closeAll();
    },
  };
}
