/**
 * Simulated latency. `delay` (global or per handler) is a number of ms, a range `[min, max]`
 * drawn uniformly for every request (as vite-plugin-mock-dev-server and Mockoon offer), or
 * percentiles `{ p50, p99 }` (a log-normal draw). The
 * options resolve it to a `DrawDelay`, the one function that says how long this request waits;
 * `NO_DELAY` (identity-comparable) marks "never waits" so hot paths can skip it.
 *
 * The gateway timeout applies to a drawn value: a range simulates a backend whose latency varies,
 * and a draw at or past `gatewayTimeout` means the gateway gives up first, so the request is
 * answered 504 after `gatewayTimeout` ms (`afterDelay`). A fixed delay is the latency chosen and is
 * waited in full (the gateway timeout then bounds the handler after it, as before ranges).
 */
import { check, describe, isPlainObject, OptionsError } from '../core/options.js';

/** `[min, max]` in ms, `0 <= min <= max`. */
export type DelayRange = readonly [min: number, max: number];
/**
 * A latency distribution given by two percentiles, ms (`p50 <= p99`): log-normal, the shape
 * service latencies usually have (a long tail), median `p50`, 99th percentile `p99`.
 */
export interface DelayPercentiles {
  readonly p50: number;
  readonly p99: number;
}
/** A fixed delay in ms, a range drawn uniformly per request, or percentiles. */
export type DelayOption = number | DelayRange | DelayPercentiles;
/** Numbers in [0, 1): Math.random, or a seeded generator (faults/random.ts). */
export type Random = () => number;

/** z of the 99th percentile of the standard normal distribution. */
const Z99 = 2.3263478740408408;

/** The delay of one request, in ms; `ranged` when it is drawn from a range. */
export type DrawDelay = (() => number) & { readonly ranged?: boolean };

export const NO_DELAY: DrawDelay = () => 0;

/** The draw for a validated option (see `resolveDelay` in options.ts); `random` draws the numbers. */
export function delayDraw(value: DelayOption, random: Random = Math.random): DrawDelay {
  if (typeof value === 'number') return value > 0 ? () => value : NO_DELAY;
  if (!Array.isArray(value)) {
    const { p50, p99 } = value as DelayPercentiles;
    if (p99 <= 0) return NO_DELAY;
    if (p50 === p99) return () => p50;
    if (p50 <= 0) return delayDraw([0, p99], random); // no log-normal with a zero median: uniform up to p99
    const mu = Math.log(p50);
    const sigma = (Math.log(p99) - mu) / Z99;
    return Object.assign(() => Math.exp(mu + sigma * normal(random)), { ranged: true });
  }
  const [min, max] = value as DelayRange;
  if (max <= 0) return NO_DELAY;
  if (min === max) return () => min;
  const span = max - min;
  return Object.assign(() => min + random() * span, { ranged: true });
}

/** A standard normal draw (Box–Muller, one of the pair). */
function normal(random: Random): number {
  let u = 0;
  while (u === 0) u = random();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
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

/**
 * Validates `delay`: ms (a number >= 0), a range `[min, max]` (0 <= min <= max) drawn uniformly
 * per request, or `{ p50, p99 }` (log-normal). Resolves the draw (`random` draws its numbers), or
 * undefined when the option is absent.
 */
export function resolveDelay(value: unknown, option: string, random?: () => number): DrawDelay | undefined {
  if (value === undefined) return undefined;
  if (isPlainObject(value)) {
    check.knownKeys(value, option, ['p50', 'p99']);
    const p50 = check.number(value.p50, `${option}.p50`, Number.NaN, { min: 0, max: Number.MAX_SAFE_INTEGER });
    const p99 = check.number(value.p99, `${option}.p99`, Number.NaN, { min: Number.isNaN(p50) ? 0 : p50, max: Number.MAX_SAFE_INTEGER });
    if (Number.isNaN(p50) || Number.isNaN(p99)) throw new OptionsError(option, 'needs both p50 and p99 (ms, p50 <= p99)');
    return delayDraw({ p50, p99 }, random);
  }
  if (Array.isArray(value)) {
    if (value.length !== 2 || value[0] === undefined || value[1] === undefined) {
      throw new OptionsError(option, `must be a number of ms or a range [min, max] (got ${describe(value)})`);
    }
    const min = check.number(value[0], `${option}[0]`, 0, { min: 0, max: Number.MAX_SAFE_INTEGER });
    const max = check.number(value[1], `${option}[1]`, 0, { min, max: Number.MAX_SAFE_INTEGER });
    return delayDraw([min, max], random);
  }
  if (typeof value !== 'number') throw new OptionsError(option, `must be a number of ms, a range [min, max] or { p50, p99 } (got ${describe(value)})`);
  return delayDraw(check.number(value, option, 0, { min: 0 }));
}
