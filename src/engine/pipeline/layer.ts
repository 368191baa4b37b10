/**
 * The contract every layer of the mock API's pipeline is written to (faults, openapi, handlers,
 * graphql, collections, files, openapi-mock, proxy: the list in engine/layers.ts). A layer is one file
 * exporting a factory that returns a `Layer`; engine/layers.ts puts it in the ordered list; run.ts walks
 * the list.
 *
 * A layer that answers records itself with `ctx.answered(name, detail)` (the runner records
 * `{ layer: name }` when it does not), so observers (request log, journal) know what answered.
 */
import type { UpgradeResult } from '../../core/socket.js';
import type { RequestContext } from '../context.js';

/** "Certainly not mine: ask the next layer" (the answer of `peek`). */
export const PASS: unique symbol = Symbol('mockyard.pipeline.pass');
export type Pass = typeof PASS;

export interface Layer {
  /** `handlers`, `files`, `collections`, `proxy`… (observers see it in `answeredBy.layer`). */
  readonly name: string;
  /**
   * The full (promise) path: a Response, or undefined to pass the request to the next layer.
   * Errors thrown (or rejected) become the JSON error body (run.ts).
   */
  handle(ctx: RequestContext): Promise<Response | undefined> | Response | undefined;
  /**
   * Optional synchronous fast path (hosts' `handleCached`, e.g. a cached GET/HEAD):
   *   a Response = the answer now (it must be the answer `handle` would give);
   *   PASS       = this layer certainly does not answer: ask the next layer;
   *   undefined  = cannot tell at once: the request takes the promise path, starting at this
   *                layer (`ctx.peeked` may hold what peek prepared for `handle`).
   * A layer WITHOUT `peek` opts out of the fast path: any request that reaches it takes the
   * promise path (correct by construction, just not the fast path). Must not throw (if it does,
   * the request takes the promise path).
   */
  peek?(ctx: RequestContext): Response | Pass | undefined;
  /**
   * Optional wrapper around the answer of the layers AFTER this one (promise path only), for a
   * request this layer's `handle` passed on: `next()` walks the rest of the list and resolves
   * with its answer (errors already turned into the JSON error body; undefined = passed on,
   * 'forward'); what `around` returns is the answer. It may look at the answer, replace it, or
   * return it unchanged; it must call `next()` at most once. A layer that wraps a request must not
   * let the fast path skip it: its `peek` answers `undefined` (not PASS) for such requests.
   * Only JSON answers should be read: a stream (`text/event-stream`, a proxied body) is passed
   * through as it is.
   */
  around?(ctx: RequestContext, next: () => Promise<Response | undefined>): Promise<Response | undefined>;
  /**
   * `true` when the layer applies `delay` itself (the handler layer: a handler's own delay
   * overrides the global one, and its gatewayTimeout starts after it). Otherwise the runner
   * applies the global `delay` to the layer's answers.
   */
  readonly ownDelay?: boolean;
  /**
   * Optional WebSocket handshake under the prefix (the GraphQL layer's subscriptions): a
   * SocketAccept or a refusing Response, or undefined when the path is not the layer's.
   */
  upgrade?(ctx: RequestContext): UpgradeResult | Promise<UpgradeResult>;
  /** Resolves once the layer is ready to answer (e.g. files: the fsDir check). */
  readonly ready?: Promise<unknown>;
  close?(): void | Promise<void>;
}
