/**
 * The embedded store's time index: entries sorted by (timestamp, ingest sequence), each holding
 * the event's JSON line; hours (UTC) are its unit of storage, caching and retention.
 */
export const HOUR_MS = 3_600_000;

export interface Entry {
  /** Timestamp, epoch ms. */
  t: number;
  /** Ingest sequence: orders events with equal timestamps. */
  seq: number;
  /** The stored event as one JSON text (no newline). */
  line: string;
}

export function hourOf(t: number): number {
  return Math.floor(t / HOUR_MS);
}

/** First index whose timestamp is >= t. */
export function lowerBoundOf(entries: Entry[], t: number): number {
  let lo = 0;
  let hi = entries.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (entries[mid]!.t < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

