/**
 * The Events tab's data rules (src/devtools/page/events-model.ts): windows of the presets, pushes
 * merged newest first without duplicates, the moving window dropping old events, filters, KPIs,
 * buckets and top lists.
 */
import { describe, expect, it } from 'vitest';
import { applyFilters, bucketStep, mergeRows, NO_FILTERS, PRESET_SPAN, summarize, toRows, windowFor, withinWindow } from '../../src/devtools/page/events-model.js';

const T0 = Date.parse('2026-01-01T12:00:00.000Z');
const ev = (id: string, sAgo: number, extra: Record<string, unknown> = {}) => ({ id, timestamp: new Date(T0 - sAgo * 1000).toISOString(), ...extra });

describe('events model', () => {
  it('relative presets end now and span their length; custom is fixed', () => {
    expect(windowFor('1h', T0, { since: 1, until: 2 })).toEqual({ since: T0 - 3_600_000, until: T0 });
    expect(windowFor('7d', T0, { since: 1, until: 2 }).since).toBe(T0 - PRESET_SPAN['7d']);
    expect(windowFor('custom', T0, { since: 1, until: 2 })).toEqual({ since: 1, until: 2 });
  });

  it('merges pushed events newest first, once each, even out of order', () => {
    const loaded = toRows([ev('c', 10), ev('b', 20), ev('a', 30)]);
    const merged = mergeRows(loaded, toRows([ev('e', 1), ev('c', 10), ev('d', 15), ev('e', 1)]));
    expect(merged.map((r) => r.event.id)).toEqual(['e', 'c', 'd', 'b', 'a']);
    expect(mergeRows(loaded, toRows([ev('a', 30)]))).toBe(loaded);
    // A push as large as an ingest may be (no spread of its times onto the stack).
    const big = toRows(Array.from({ length: 200_000 }, (_, i) => ev(`p${i}`, i / 1000)));
    expect(mergeRows(loaded, big)).toHaveLength(200_003);
  });

  it('the moving window drops what it left behind (no re-query)', () => {
    const rows = toRows([ev('new', 5), ev('mid', 1900), ev('old', 4000)]);
    expect(withinWindow(rows, windowFor('1h', T0, { since: 0, until: 0 })).map((r) => r.event.id)).toEqual(['new', 'mid']);
    expect(withinWindow(rows, windowFor('1h', T0 + 1800_000, { since: 0, until: 0 })).map((r) => r.event.id)).toEqual(['new']);
  });

  it('filters by type, level, user, route and full text', () => {
    const rows = toRows([
      ev('1', 1, { type: 'click', level: 'info', userId: 'ann', route: '/a', message: 'Saved the cart' }),
      ev('2', 2, { type: 'error', level: 'error', userId: 'bob', route: '/b', message: 'TypeError x' }),
      ev('3', 3, { type: 'click', level: 'info', userId: 'bob', route: '/b', extra: { deep: 'needle' } }),
    ]);
    const ids = (f: Partial<typeof NO_FILTERS>) => applyFilters(rows, { ...NO_FILTERS, ...f }).map((r) => r.event.id);
    expect(ids({ type: 'click' })).toEqual(['1', '3']);
    expect(ids({ level: 'error' })).toEqual(['2']);
    expect(ids({ user: 'bob', route: '/b' })).toEqual(['2', '3']);
    expect(ids({ text: 'NEEDLE' })).toEqual(['3']);
    expect(ids({ text: 'cart' })).toEqual(['1']);
    expect(applyFilters(rows, NO_FILTERS)).toBe(rows);
  });

  it('KPIs, buckets and top lists', () => {
    const rows = toRows([
      ev('1', 10, { type: 'click', level: 'info', userId: 'ann', sessionId: 's1', route: '/a' }),
      ev('2', 70, { type: 'error', level: 'error', userId: 'bob', sessionId: 's2', route: '/b', message: 'boom' }),
      ev('3', 130, { type: 'click', level: 'info', userId: 'bob', sessionId: 's2', route: '/a' }),
      ev('4', 140, { type: 'api', level: 'error', sessionId: 's3', route: '/a', error: { message: 'boom' } }),
    ]);
    const w = windowFor('1h', T0, { since: 0, until: 0 });
    const s = summarize(rows, w);
    expect({ events: s.events, sessions: s.sessions, users: s.users, errors: s.errors, errorRate: s.errorRate }).toEqual({ events: 4, sessions: 3, users: 2, errors: 2, errorRate: 0.5 });
    expect(s.topRoutes).toEqual([['/a', 3], ['/b', 1]]);
    expect(s.topTypes[0]).toEqual(['click', 2]);
    expect(s.topErrors).toEqual([['boom', 2]]);
    expect(s.chart.step).toBe(bucketStep(w));
    expect(s.chart.all.reduce((a, b) => a + b, 0)).toBe(4);
    expect(s.chart.errors.reduce((a, b) => a + b, 0)).toBe(2);
    expect(s.chart.x).toHaveLength(s.chart.all.length);
    // Each event is counted in the bucket holding its time.
    const bucketOf = (sAgo: number) => s.chart.x.findIndex((x) => x * 1000 <= T0 - sAgo * 1000 && T0 - sAgo * 1000 < x * 1000 + s.chart.step);
    expect(s.chart.step).toBe(30_000); // 1 h in at most 120 buckets
    expect([10, 70, 130, 140].map((t) => s.chart.all[bucketOf(t)])).toEqual([1, 1, 2, 2]); // 130 s and 140 s ago share one bucket
    expect(s.chart.errors[bucketOf(70)]).toBe(1);
  });
});
