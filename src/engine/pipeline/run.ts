/**
 * Walks the ordered layer list (engine/layers.ts) for one request. THE place for what wraps every layer:
 *
 *   - global `delay`: applied to the answer of every layer that does not apply it itself
 *     (`Layer.ownDelay`: the handler layer, where a handler's own delay wins) unless the layer
 *     marked that answer `ctx.undelayed` (the GraphQL layer's read-only refusal), and to the
 *     engine's own 404; never to a request passed on (`forward`). A range is drawn per request
 *     (delay.ts); a drawn value at or past `gatewayTimeout` answers 504 after it;
 *   - `gatewayTimeout`: bounds user code only, so it lives with that code (the handler layer,
 *     after the handler's delay, answered through the errorMiddlewares); no other layer is bounded;
 *   - errors: anything a layer throws or rejects with becomes the one JSON error body
 *     (`responseForError`; 500s logged);
 *   - the end of the list: `noHandledRestFsRequestsAction` → the JSON 404, or `undefined`
 *     ('forward': the host forwards the request);
 *   - wrapping: a layer with `around` (layer.ts) gets the answer of the layers after it for a
 *     request its `handle` passed on, and may replace it (the openapi layer's response checks);
 *   - observation: after each request, every observer gets an `Exchange` (zero cost without
 *     observers: no clock read, no object built).
 *
 * Two walks over the same list:
 *   `peek(ctx)`   synchronous (hosts' `handleCached`): asks each layer's `peek`; PASS moves on,
 *                 a Response is the answer, `undefined` (or a layer without `peek`) stops the
 *                 walk and records `ctx.resumeAt`;
 *   `handle(ctx)` the promise path, starting at `ctx.resumeAt` (the layers before it said PASS).
 */
import { errorResponse, responseForError } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import type { Exchange, Observer } from '../../core/exchange.js';
import type { RequestContext } from '../context.js';
import { afterDelay, NO_DELAY, type DrawDelay } from '../delay.js';
import { PASS, type Layer } from './layer.js';
import { notFound } from './not-found.js';

export interface PipelineOptions {
  layers: readonly Layer[];
  /** Global delay (a draw per request, delay.ts) for layers without `ownDelay` and the 404. */
  delay: DrawDelay;
  /** For drawn delays: a draw at or past it answers 504 (0 = none). */
  gatewayTimeout: number;
  /** `noHandledRestFsRequestsAction: 'forward'`: the end of the list answers undefined. */
  forward: boolean;
  sleep(ms: number): Promise<void>;
  logger: Logger;
}

export interface Pipeline {
  readonly layers: readonly Layer[];
  /** The synchronous walk: the answer now, or undefined (then `handle(ctx)` resumes). Never throws. */
  peek(ctx: RequestContext): Response | undefined;
  /** The promise walk from `ctx.resumeAt`. Never rejects. */
  handle(ctx: RequestContext): Promise<Response | undefined>;
  /** Adds an observer; returns the function that removes it. */
  observe(observer: Observer): () => void;
  /** True while someone observes (the engine then stamps `ctx.start`). */
  readonly observed: boolean;
  /** Closes every layer, in order. */
  close(): Promise<void>;
}

const NOT_FOUND_LAYER = 'not-found';

export function createPipeline(options: PipelineOptions): Pipeline {
  const { layers, delay, gatewayTimeout, forward, sleep, logger } = options;
  const delayed = delay !== NO_DELAY;

  /** Waits the global delay; the 504 when a drawn delay reached gatewayTimeout, else undefined. */
  async function delayFor(ctx: RequestContext): Promise<Response | undefined> {
    const { wait, timedOut } = afterDelay(delay, gatewayTimeout);
    if (wait > 0) await sleep(wait);
    if (!timedOut) return undefined;
    logger.warn(`${ctx.method} ${ctx.pathname}: the drawn delay reached gatewayTimeout (${gatewayTimeout} ms); answered 504`);
    return errorResponse(504, 'Gateway Timeout', ctx.pathname, { head: ctx.method === 'HEAD' });
  }
  const n = layers.length;
  let observers: Observer[] = [];

  function notify(ctx: RequestContext, response: Response | undefined): void {
    const exchange: Exchange = {
      method: ctx.method,
      // As sent: a rewrite (routes.json) changes what the layers see, not what the client asked for.
      pathname: ctx.sent?.pathname ?? ctx.pathname,
      search: ctx.sent?.search ?? ctx.search,
      status: response?.status,
      ms: ctx.start > 0 ? performance.now() - ctx.start : 0, // 0: the request came before the observer
      answeredBy: response === undefined ? undefined : ctx.answeredBy,
      request: ctx.request,
      response,
    };
    for (const o of observers) {
      try {
        o(exchange);
      } catch (err) {
        logger.error(`an exchange observer failed: ${(err as Error)?.message ?? String(err)}`);
      }
    }
  }

  /** The answer through the changes layers added for this request (ctx.onAnswer). */
  function changed(ctx: RequestContext, r: Response): Response {
    for (const change of ctx.answerChanges!) r = change(r);
    return r;
  }

  function end(ctx: RequestContext): Response | undefined {
    if (forward) return undefined;
    ctx.answered(NOT_FOUND_LAYER);
    return notFound(ctx);
  }

  /** The walk from layer `from`, errors turned into the one JSON error body (never rejects). */
  async function settle(ctx: RequestContext, from: number): Promise<Response | undefined> {
    try {
      return await walk(ctx, from);
    } catch (err) {
      logger.error(`${ctx.method} ${ctx.pathname} failed: ${(err as Error)?.message ?? String(err)}`);
      return responseForError(err, ctx.pathname, ctx.method === 'HEAD');
    }
  }

  async function walk(ctx: RequestContext, from: number): Promise<Response | undefined> {
    for (let i = from; i < n; i++) {
      const layer = layers[i]!;
      let r: Response | undefined;
      try {
        r = await layer.handle(ctx);
      } catch (err) {
        // An error a layer throws is that layer's answer (observers, the devtools journal).
        if (ctx.answeredBy === undefined) ctx.answered(layer.name);
        throw err;
      }
      if (r !== undefined) {
        if (ctx.answeredBy === undefined) ctx.answered(layer.name);
        if (delayed && layer.ownDelay !== true && ctx.undelayed !== true) {
          const timedOut = await delayFor(ctx);
          if (timedOut === undefined) return r;
          // The gateway gave up first: the answer is dropped, and what it holds with it (a
          // proxied body still streaming from its target) is released.
          r.body?.cancel().catch(() => {});
          return timedOut;
        }
        return r;
      }
      ctx.peeked = undefined; // what a layer's peek prepared is for that layer only
      if (layer.around !== undefined) {
        const after = i + 1;
        let called = false;
        return layer.around(ctx, () => {
          if (called) throw new Error(`layer ${layer.name}: around() called next() twice`);
          called = true;
          return settle(ctx, after);
        });
      }
    }
    if (forward) return undefined;
    if (delayed) {
      const timedOut = await delayFor(ctx);
      if (timedOut) return timedOut;
    }
    return end(ctx);
  }

  return {
    layers,
    get observed() {
      return observers.length > 0;
    },

    peek(ctx) {
      // With a global delay nothing is answered synchronously (the delay needs a timer).
      if (delayed) return undefined;
      for (let i = 0; i < n; i++) {
        const layer = layers[i]!;
        let r: Response | typeof PASS | undefined;
        try {
          r = layer.peek === undefined ? undefined : layer.peek(ctx);
        } catch {
          r = undefined;
        }
        if (r === PASS) continue;
        if (r === undefined) {
          ctx.resumeAt = i;
          return undefined;
        }
        if (ctx.answeredBy === undefined) ctx.answered(layer.name);
        if (ctx.answerChanges) r = changed(ctx, r);
        if (observers.length > 0) notify(ctx, r);
        return r;
      }
      ctx.resumeAt = n;
      let r = end(ctx);
      if (r !== undefined && ctx.answerChanges) r = changed(ctx, r);
      if (r !== undefined && observers.length > 0) notify(ctx, r);
      return r;
    },

    async handle(ctx) {
      let response = await settle(ctx, ctx.resumeAt);
      if (response !== undefined && ctx.answerChanges) response = changed(ctx, response);
      if (observers.length > 0) notify(ctx, response);
      return response;
    },

    observe(observer) {
      observers = [...observers, observer];
      return () => {
        observers = observers.filter((o) => o !== observer);
      };
    },

    async close() {
      for (const layer of layers) await layer.close?.();
    },
  };
}
