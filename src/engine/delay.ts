/**
 * Simulated latency. `delay` (global or per handler) is a number of ms or a range `[min, max]`
 * drawn uniformly for every request (as vite-plugin-mock-dev-server and Mockoon offer). The
 * options resolve it to a `DrawDelay`, the one function that says how long this request waits;
 * `NO_DELAY` (identity-comparable) marks "never waits" so hot paths can skip it.
 *
 * The gateway timeout applies to a drawn value: a range simulates a backend whose latency varies,
 * and a draw at or past `gatewayTimeout` means the gateway gives up first, so the request is
 * answered 504 after `gatewayTimeout` ms (`afterDelay`). A fixed delay is the latency chosen and is
 * waited in full (the gateway timeout then bounds the handler after it, as before ranges).
 */

/** `[min, max]` in ms, `0 <= min <= max`. */
export type DelayRange = readonly [min: number, max: number];
/** A fixed delay in ms, or a range drawn uniformly per request. */
export type DelayOption = number | DelayRange;

/** The delay of one request, in ms; `ranged` when it is drawn from a range. */
export type DrawDelay = (() => number) & { readonly ranged?: boolean };

export const NO_DELAY: DrawDelay = () => 0;

/** The draw for a validated option (see `resolveDelay` in options.ts). */
export function delayDraw(value: DelayOption): DrawDelay {
  if (typeof value === 'number') return value > 0 ? () => value : NO_DELAY;
  const [min, max] = value;
  if (max <= 0) return NO_DELAY;
  if (min === max) return () => min;
  const span = max - min;
  return Object.assign(() => min + Math.random() * span, { ranged: true });
}

/**
 * This request's delay against the gateway timeout (`0` = none): wait `wait` ms, then go on
 * (`timedOut: false`) or answer 504 (`timedOut: true`: a drawn value reached the timeout).
 */
export function afterDelay(draw: DrawDelay, gatewayTimeout: number): { wait: number; timedOut: boolean } {
  const drawn = draw();
  if (draw.ranged && gatewayTimeout > 0 && gatewayTimeout !== Infinity && drawn >= gatewayTimeout) return { wait: gatewayTimeout, timedOut: true };
  return { wait: drawn, timedOut: false };
}
