/**
 * The Events tab's data, as the tracker's dashboard does it (event-collector contract: the
 * server filters by time window only; filters and aggregations happen here): the time window of
 * a preset, merging pushed events (newest first, no duplicates) without re-querying, dropping
 * what the moving window leaves behind, the filters, and one pass computing the KPIs, the
 * events-over-time buckets and the top lists. Plain functions over arrays: 100k events cost a
 * few milliseconds per pass.
 */
import type { TrackerEvent } from '../../tracker/types.js';

export type Preset = 'live' | '1h' | '24h' | '7d' | 'custom';

/** Span of each moving window. `live` is the last 15 minutes, growing with pushes. */
export const PRESET_SPAN: Record<Exclude<Preset, 'custom'>, number> = {
  live: 15 * 60_000,
  '1h': 60 * 60_000,
  '24h': 24 * 60 * 60_000,
  '7d': 7 * 24 * 60 * 60_000,
};

export interface TimeWindow {
  since: number;
  until: number;
}

export function windowFor(preset: Preset, now: number, custom: TimeWindow): TimeWindow {
  if (preset === 'custom') return custom;
  return { since: now - PRESET_SPAN[preset], until: now };
}

/** A loaded event with its time in epoch ms (parsed once) and its search text (built on demand). */
export interface Row {
  readonly event: TrackerEvent;
  readonly time: number;
  text?: string;
}

export function toRows(events: readonly TrackerEvent[]): Row[] {
  const rows = new Array<Row>(events.length);
  for (let i = 0; i < events.length; i++) {
    const event = events[i]!;
    rows[i] = { event, time: Date.parse(event.timestamp) };
  }
  return rows;
}

const byNewest = (a: Row, b: Row) => b.time - a.time;

/** `pushed` merged into `rows` (both newest first); ids already present are skipped. */
export function mergeRows(rows: readonly Row[], pushed: readonly Row[]): Row[] {
  if (pushed.length === 0) return rows as Row[];
  const ids = new Set<string>();
  // Pushed events are recent: only the head of `rows` can hold the same ids.
  let oldest = Infinity;
  for (const r of pushed) if (r.time < oldest) oldest = r.time;
  for (let i = 0; i < rows.length && rows[i]!.time >= oldest; i++) ids.add(rows[i]!.event.id);
  const fresh = pushed.filter((r) => !ids.has(r.event.id) && (ids.add(r.event.id), true)).sort(byNewest);
  if (fresh.length === 0) return rows as Row[];
  if (rows.length === 0 || fresh[fresh.length - 1]!.time >= rows[0]!.time) return fresh.concat(rows);
  return fresh.concat(rows).sort(byNewest);
}

/** Rows (newest first) inside the window. */
export function withinWindow(rows: Row[], w: TimeWindow): Row[] {
  let end = rows.length;
  while (end > 0 && rows[end - 1]!.time < w.since) end--;
  let start = 0;
  while (start < end && rows[start]!.time > w.until) start++;
  return start === 0 && end === rows.length ? rows : rows.slice(start, end);
}

const str = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : '');
export const typeOf = (e: TrackerEvent) => str(e.type);
export const levelOf = (e: TrackerEvent) => str(e.level);
export const userOf = (e: TrackerEvent) => str(e.userId);
export const sessionOf = (e: TrackerEvent) => str(e.sessionId);
export const routeOf = (e: TrackerEvent) => str(e.route);
export function messageOf(e: TrackerEvent): string {
  const err = e.error as { message?: unknown } | string | undefined;
  return str(e.message) || (typeof err === 'string' ? err : str(err?.message));
}
export const isError = (e: TrackerEvent) => {
  const level = levelOf(e);
  return level === 'error' || level === 'fatal' || typeOf(e) === 'error';
};

export interface Filters {
  type: string;
  level: string;
  user: string;
  route: string;
  text: string;
}

export const NO_FILTERS: Filters = { type: '', level: '', user: '', route: '', text: '' };

export function applyFilters(rows: Row[], f: Filters): Row[] {
  if (!f.type && !f.level && !f.user && !f.route && !f.text) return rows;
  const text = f.text.trim().toLowerCase();
  return rows.filter((r) => {
    const e = r.event;
    if (f.type && typeOf(e) !== f.type) return false;
    if (f.level && levelOf(e) !== f.level) return false;
    if (f.user && userOf(e) !== f.user) return false;
    if (f.route && routeOf(e) !== f.route) return false;
    if (text) return (r.text ??= JSON.stringify(e).toLowerCase()).includes(text);
    return true;
  });
}

export interface Facets {
  types: string[];
  levels: string[];
  users: string[];
  routes: string[];
}

const FACET_LIMIT = 500;

/** The values the filter menus offer (at most FACET_LIMIT each, most frequent first). */
export function facets(rows: readonly Row[]): Facets {
  const maps = [new Map<string, number>(), new Map<string, number>(), new Map<string, number>(), new Map<string, number>()] as const;
  for (let i = 0; i < rows.length; i++) {
    const e = rows[i]!.event;
    count(maps[0], typeOf(e));
    count(maps[1], levelOf(e));
    count(maps[2], userOf(e));
    count(maps[3], routeOf(e));
  }
  const list = (m: Map<string, number>) => top(m, FACET_LIMIT).map(([k]) => k);
  return { types: list(maps[0]), levels: list(maps[1]), users: list(maps[2]), routes: list(maps[3]) };
}

function count(m: Map<string, number>, key: string) {
  if (key) m.set(key, (m.get(key) ?? 0) + 1);
}

function top(m: Map<string, number>, n: number): Array<[string, number]> {
  return [...m].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, n);
}

export interface Summary {
  events: number;
  sessions: number;
  users: number;
  errors: number;
  /** errors / events, 0 when there are none. */
  errorRate: number;
  /** Bucket starts (epoch seconds) and counts, all events and errors. */
  chart: { x: number[]; all: number[]; errors: number[]; step: number };
  topRoutes: Array<[string, number]>;
  topTypes: Array<[string, number]>;
  topErrors: Array<[string, number]>;
}

const STEPS = [1, 5, 10, 30, 60, 300, 600, 900, 1800, 3600, 3 * 3600, 6 * 3600, 12 * 3600, 86400].map((s) => s * 1000);

/** A bucket size giving at most ~`max` buckets over the window. */
export function bucketStep(w: TimeWindow, max = 120): number {
  const span = Math.max(1, w.until - w.since);
  return STEPS.find((s) => span / s <= max) ?? STEPS[STEPS.length - 1]!;
}

export function summarize(rows: readonly Row[], w: TimeWindow, topN = 5): Summary {
  const step = bucketStep(w);
  const first = Math.floor(w.since / step) * step;
  const n = Math.max(1, Math.floor((w.until - first) / step) + 1);
  const all = new Array<number>(n).fill(0);
  const errs = new Array<number>(n).fill(0);
  const sessions = new Set<string>();
  const users = new Set<string>();
  const routes = new Map<string, number>();
  const types = new Map<string, number>();
  const messages = new Map<string, number>();
  let errors = 0;
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]!;
    const e = r.event;
    const s = sessionOf(e);
    if (s) sessions.add(s);
    const u = userOf(e);
    if (u) users.add(u);
    count(routes, routeOf(e));
    count(types, typeOf(e));
    const b = Math.floor((r.time - first) / step);
    const inRange = b >= 0 && b < n;
    if (inRange) all[b]!++;
    if (isError(e)) {
      errors++;
      if (inRange) errs[b]!++;
      count(messages, messageOf(e) || typeOf(e) || '(no message)');
    }
  }
  const x = new Array<number>(n);
  for (let i = 0; i < n; i++) x[i] = (first + i * step) / 1000;
  return {
    events: rows.length,
    sessions: sessions.size,
    users: users.size,
    errors,
    errorRate: rows.length ? errors / rows.length : 0,
    chart: { x, all, errors: errs, step },
    topRoutes: top(routes, topN),
    topTypes: top(types, topN),
    topErrors: top(messages, topN),
  };
}
