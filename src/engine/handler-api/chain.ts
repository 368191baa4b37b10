/**
 * Runs Express-style middleware chains on the portable req/res.
 *
 * handlerMiddlewares (and `parser` functions) `(req, res, next)`: each one either calls `next()`
 * (the chain goes on), responds (`res.end()`, `res.json()`, …: the chain stops, the handler does
 * not run), or fails (`next(err)` or a throw / rejected promise). A middleware may call `next()`
 * later from a callback; the engine waits for it (bounded by `gatewayTimeout`), as Express does.
 *
 * errorMiddlewares `(err, req, res, next)`: each one responds (the request ends), calls
 * `next(err2?)` (the next one gets `err2`, or the same error), or throws (the next one gets the
 * thrown error). One that returns without doing either passes the error on, so a logging-only
 * error middleware cannot hang the request. Only the first outcome of each call counts.
 */
import type { ErrorHandlerFunction, HandlerRequest, MiddlewareFunction } from '../types.js';
import { toHandlerError, type HandlerHttpError } from './handler-error.js';
import type { ResponseBuilder } from './response.js';

export type StepOutcome = 'next' | 'responded';

/** A promise or any thenable (handlers and middlewares may return either). */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return value !== null && (typeof value === 'object' || typeof value === 'function') && typeof (value as { then?: unknown }).then === 'function';
}

/** Guards a set of callbacks so that only the first call among them counts. */
function firstCallOnly(): <A extends unknown[]>(f: (...args: A) => void) => (...args: A) => void {
  let settled = false;
  return (f) => (...args) => {
    if (settled) return;
    settled = true;
    f(...args);
  };
}

/** Runs one middleware; resolves 'next' or 'responded', rejects with the error it passed or threw. */
function runOne(fn: MiddlewareFunction, req: HandlerRequest, res: ResponseBuilder): Promise<StepOutcome> {
  return new Promise<StepOutcome>((resolve, reject) => {
    const once = firstCallOnly();
    const fail = once(reject);
    const next = once((err?: unknown) => (err !== undefined && err !== null && err !== 'route' && err !== 'router' ? reject(err) : resolve('next')));
    res.finished.then(once(() => resolve('responded')));
    try {
      const r = fn(req, res, next);
      if (isThenable(r)) r.then(undefined, (err: unknown) => fail(err ?? new Error('middleware rejected')));
    } catch (err) {
      fail(err);
    }
  });
}

/** Runs the middlewares in order. 'responded' when one of them ended the response. */
export async function runMiddlewares(fns: readonly MiddlewareFunction[], req: HandlerRequest, res: ResponseBuilder, onStep?: (index: number) => void): Promise<StepOutcome> {
  for (let i = 0; i < fns.length; i++) {
    if (res.done) return 'responded';
    onStep?.(i);
    if ((await runOne(fns[i]!, req, res)) === 'responded') return 'responded';
  }
  return res.done ? 'responded' : 'next';
}

/**
 * Runs the error middlewares in order. Resolves with the error still unhandled (for the default
 * error response), or `undefined` when one of them responded.
 */
export async function runErrorMiddlewares(fns: readonly ErrorHandlerFunction[], error: HandlerHttpError, req: HandlerRequest, res: ResponseBuilder): Promise<HandlerHttpError | undefined> {
  let err = error;
  for (const fn of fns) {
    if (res.done) return undefined;
    const outcome = await new Promise<HandlerHttpError | 'responded'>((resolve) => {
      const once = firstCallOnly();
      const pass = once((e?: unknown) => resolve(e === undefined || e === null ? err : toHandlerError(e)));
      res.finished.then(once(() => resolve('responded')));
      // Returning without responding or calling next passes the error on (checked after the
      // `finished` reaction, so a response ended in the same tick wins).
      const settleLater = () => queueMicrotask(() => queueMicrotask(() => pass()));
      try {
        const r = fn(err, req, res, pass);
        if (isThenable(r)) r.then(settleLater, (e: unknown) => pass(e ?? err));
        else settleLater();
      } catch (e) {
        pass(e);
      }
    });
    if (outcome === 'responded') return undefined;
    err = outcome;
  }
  return res.done ? undefined : err;
}
