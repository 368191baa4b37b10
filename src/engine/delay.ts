/**
 * Simulated latency. `delay` (global or per handler) is a number of ms or a range `[min, max]`
 * drawn uniformly for every request (as vite-plugin-mock-dev-server and Mockoon offer). The
 * options resolve it to a `DrawDelay`, the one function that says how long this request waits;
 * `NO_DELAY` (identity-comparable) marks "never waits" so hot paths can skip it.
 *
 * The gateway timeout applies to the drawn value: a draw at or past `gatewayTimeout` means the
 * gateway gives up first, so the request is answered 504 after `gatewayTimeout` ms (`gatewayVerdict`).
 */

/** `[min, max]` in ms, `0 <= min <= max`. */
export type DelayRange = readonly [min: number, max: number];
/** A fixed delay in ms, or a range drawn uniformly per request. */
export type DelayOption = number | DelayRange;

/** The delay of one request, in ms. */
export type DrawDelay = () => number;

export const NO_DELAY: DrawDelay = () => 0;

/** The draw for a validated option (see `resolveDelay` in options.ts). */
export function delayDraw(value: DelayOption): DrawDelay {
  if (typeof value === 'number') return value > 0 ? () => value : NO_DELAY;
  const [min, max] = value;
  if (max <= 0) return NO_DELAY;
  if (min === max) return () => min;
  const span = max - min;
  return () => min + Math.random() * span;
}

/**
 * How a drawn delay meets the gateway timeout (`0` = none): wait `wait` ms, then either go on
 * (`timedOut: false`) or answer 504 (`timedOut: true`, the draw reached the timeout).
 */
export function gatewayVerdict(drawn: number, gatewayTimeout: number): { wait: number; timedOut: boolean } {
  if (gatewayTimeout > 0 && gatewayTimeout !== Infinity && drawn >= gatewayTimeout) return { wait: gatewayTimeout, timedOut: true };
  return { wait: drawn, timedOut: false };
}
