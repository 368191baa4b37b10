/**
 * The read query: `since` / `until` (ISO-8601 with any UTC offset, both inclusive, required) and
 * the optional page parameters.
 *
 * Pages (the dashboard sends none and gets every event in the window):
 *   - `limit` (integer >= 1): at most this many events, newest first.
 *   - `page` (integer >= 1, needs `limit`): the page-th slice of `limit` events; default 1.
 *   - `cursor` (opaque, from a previous response's `nextCursor`): continue after the last event
 *     that response returned; cannot be combined with `page`. A cursor stays valid across
 *     restarts (it names the event by timestamp and id); if that event has been deleted by
 *     retention, the next page starts with the events older than its timestamp.
 * `total` is always the count of the whole window. With `limit` the response carries
 * `nextCursor` (a string, or `null` on the last page).
 */
import { HttpError } from '../core/errors.js';
import { lowerBoundOf, type Entry } from './time-index.js';
import { parseTimestamp } from './timestamp.js';

export interface ReadQuery {
  since: number;
  until: number;
  limit?: number;
  page?: number;
  cursor?: { t: number; id: string };
}

/** A resolved read: events are entries[start-1] down to entries[end] (newest first). */
export interface Selection {
  entries: Entry[];
  start: number;
  end: number;
  total: number;
  page: number | null;
  limit: number;
  /** `undefined` when no `limit` was asked for. */
  nextCursor?: string | null;
}

type Param = string | number | null | undefined;

function intParam(value: Param, name: string): number | undefined {
  if (value === null || value === undefined) return undefined;
  const n = typeof value === 'number' ? value : /^\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n < 1) throw new HttpError(400, `Invalid "${name}": expected an integer >= 1 (got ${JSON.stringify(value)})`);
  return n;
}

function dateParam(value: Param, name: string): number {
  if (value === null || value === undefined || value === '') throw new HttpError(400, `Missing "${name}": expected an ISO-8601 date-time such as 2026-01-01T00:00:00Z`);
  // An unencoded `+02:00` in a query string arrives as ` 02:00` (form decoding turns + into space).
  const text = typeof value === 'string' ? value.replace(/(T[\d:.,]+) (\d{2}:?\d{2})$/, '$1+$2') : value;
  const t = parseTimestamp(text);
  if (typeof t === 'string') throw new HttpError(400, `Invalid "${name}": ${t.replace('timestamp', 'value')} (got ${JSON.stringify(value)})`);
  return t;
}

/** base64url of the UTF-8 bytes of `t|id` (ids read from hand-edited files may be any text). */
export function encodeCursor(t: number, id: string): string {
  let binary = '';
  for (const b of new TextEncoder().encode(`${t}|${id}`)) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function decodeCursor(value: string): { t: number; id: string } {
  try {
    const binary = atob(value.replace(/-/g, '+').replace(/_/g, '/'));
    const text = new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(binary, (ch) => ch.charCodeAt(0)));
    const bar = text.indexOf('|');
    const t = Number(text.slice(0, bar));
    const id = text.slice(bar + 1);
    if (bar > 0 && Number.isSafeInteger(t) && id) return { t, id };
  } catch {
    // fall through
  }
  throw new HttpError(400, 'Invalid "cursor": use the nextCursor of a previous response');
}

/** Parses read parameters from any getter (URLSearchParams.get, a WebSocket query object). */
export function parseReadQuery(get: (name: string) => Param): ReadQuery {
  const since = dateParam(get('since'), 'since');
  const until = dateParam(get('until'), 'until');
  if (since > until) throw new HttpError(400, '"since" must not be later than "until"');
  const limit = intParam(get('limit'), 'limit');
  const page = intParam(get('page'), 'page');
  const rawCursor = get('cursor');
  const cursor = rawCursor === null || rawCursor === undefined ? undefined : decodeCursor(String(rawCursor));
  if (page !== undefined && limit === undefined) throw new HttpError(400, '"page" needs "limit"');
  if (page !== undefined && cursor !== undefined) throw new HttpError(400, 'Use either "page" or "cursor", not both');
  return { since, until, limit, page, cursor };
}

/** The window [from, to) of a deletion (`from` and `to` as `since` and `until` are read). */
export function parseDeleteRange(get: (name: string) => Param): { from: number; to: number } {
  const from = dateParam(get('from'), 'from');
  const to = dateParam(get('to'), 'to');
  if (from >= to) throw new HttpError(400, '"from" must be earlier than "to"');
  return { from, to };
}

/** What a query is resolved against: a time index (the embedded store's, event-store.ts). */
export interface TimeWindowIndex {
  /** The entries array and the slice [lo, hi) whose times fall in [since, until]. */
  window(since: number, until: number): { entries: Entry[]; lo: number; hi: number };
  /** The position of the event (time, id), or -1. */
  indexOf(t: number, id: string): number;
}

/** Resolves a query against the store (synchronously: the entries array is only valid now). */
export function selectEvents(store: TimeWindowIndex, q: ReadQuery): Selection {
  const { entries, lo, hi } = store.window(q.since, q.until);
  const total = hi - lo;
  let start = hi;
  if (q.cursor) {
    const at = store.indexOf(q.cursor.t, q.cursor.id);
    start = at >= 0 ? at : lowerBoundOf(entries, q.cursor.t);
  } else if (q.page !== undefined && q.limit !== undefined) {
    start = hi - Math.min((q.page - 1) * q.limit, total);
  }
  start = Math.min(hi, Math.max(lo, start));
  const end = q.limit === undefined ? lo : Math.max(lo, start - q.limit);
  const sel: Selection = { entries, start, end, total, page: q.cursor ? null : q.page ?? 1, limit: q.limit ?? start - end };
  if (q.limit !== undefined) {
    const last = entries[end];
    sel.nextCursor = end > lo && start > end && last ? encodeCursor(last.t, (JSON.parse(last.line) as { id: string }).id) : null;
  }
  return sel;
}
