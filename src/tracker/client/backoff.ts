/**
 * Capped exponential backoff with jitter for sends that failed for a reason that may pass
 * (5xx, network error, timeout, 408/429): the n-th consecutive failure waits a random time in
 * [d/2, d] where d = min(max, base · 2^(n-1)) ("equal jitter": spread out, never near zero).
 * A 429/503 `Retry-After` longer than that wins (bounded by `max`).
 */
export class Backoff {
  private failures = 0;

  constructor(private readonly base: number, private readonly max: number, private readonly random: () => number = Math.random) {}

  get attempts(): number {
    return this.failures;
  }

  /** Delay before the next try after one more failure. */
  fail(retryAfterMs?: number): number {
    this.failures += 1;
    const ceiling = Math.min(this.max, this.base * 2 ** Math.min(this.failures - 1, 30));
    const delay = ceiling / 2 + this.random() * (ceiling / 2);
    return Math.round(retryAfterMs !== undefined ? Math.min(this.max, Math.max(delay, retryAfterMs)) : delay);
  }

  reset(): void {
    this.failures = 0;
  }
}

/** `Retry-After` (seconds or an HTTP date) in ms from now; undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now: number): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
