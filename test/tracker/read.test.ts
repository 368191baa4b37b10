import { describe, expect, it } from 'vitest';
import type { Collector } from '../../src/tracker/types.js';
import { BASE, batch, ev, ingest, read, reply, collectorPerTest } from './collector-client.js';

let c: Collector;
const make = collectorPerTest((created) => (c = created));

const DAY = { since: '2026-03-01T00:00:00Z', until: '2026-03-01T23:59:59.999Z' };

describe('read', () => {
  it('returns the window inclusive of both bounds, newest first, with total/page/limit', async () => {
    make();
    await ingest(c, batch([
      ev('2026-02-28T23:59:59.999Z', { n: 'before' }),
      ev('2026-03-01T00:00:00.000Z', { n: 'since' }),
      ev('2026-03-01T12:00:00.000Z', { n: 'noon' }),
      ev('2026-03-01T23:59:59.999Z', { n: 'until' }),
      ev('2026-03-02T00:00:00.000Z', { n: 'after' }),
    ]));
    const r = await read(c, DAY);
    expect(r.status).toBe(200);
    expect(r.json.events.map((e: any) => e.n)).toEqual(['until', 'noon', 'since']);
    expect(r.json).toMatchObject({ total: 3, page: 1, limit: 3 });
  });

  it('orders by the parsed instant across mixed offsets, and windows given with offsets', async () => {
    make();
    await ingest(c, batch([
      ev('2026-03-01T12:00:00+02:00', { n: '10:00Z' }),
      ev('2026-03-01T09:30:00-01:00', { n: '10:30Z' }),
      ev('2026-03-01T10:15:00.000Z', { n: '10:15Z' }),
      ev('2026-03-01T15:29:00+0530', { n: '09:59Z' }),
    ]));
    const r = await read(c, { since: '2026-03-01T11:59:30+02:00', until: '2026-03-01T05:30:00-05:00' });
    expect(r.json.events.map((e: any) => e.n)).toEqual(['10:30Z', '10:15Z', '10:00Z']);
  });

  it('equal timestamps come newest-ingested first, across batches', async () => {
    make();
    const T = '2026-03-01T10:00:00Z';
    await ingest(c, batch([ev(T, { n: 1 }), ev(T, { n: 2 })]));
    await ingest(c, batch([ev(T, { n: 3 })]));
    await ingest(c, batch([ev('2026-03-01T09:00:00Z', { n: 0 })]));
    expect((await read(c, DAY)).json.events.map((e: any) => e.n)).toEqual([3, 2, 1, 0]);
  });

  it('an empty window is 200 with no events', async () => {
    make();
    const r = await read(c, DAY);
    expect(r.json).toEqual({ events: [], total: 0, page: 1, limit: 0 });
  });

  describe('bad parameters → 400', () => {
    const cases: Array<[string, Record<string, string>]> = [
      ['missing since', { until: DAY.until }],
      ['missing until', { since: DAY.since }],
      ['invalid since', { since: 'today', until: DAY.until }],
      ['no offset', { since: '2026-03-01T00:00:00', until: DAY.until }],
      ['since after until', { since: DAY.until, until: DAY.since }],
      ['limit 0', { ...DAY, limit: '0' }],
      ['limit not a number', { ...DAY, limit: 'ten' }],
      ['page without limit', { ...DAY, page: '2' }],
      ['page and cursor', { ...DAY, limit: '1', page: '1', cursor: 'abc' }],
      ['bad cursor', { ...DAY, limit: '1', cursor: '!!!' }],
    ];
    for (const [name, q] of cases) {
      it(name, async () => {
        make();
        const r = await read(c, q);
        expect(r.status).toBe(400);
        expect(r.json.error).toBe('BAD_REQUEST');
      });
    }
  });

  it('is gzip level 1 with Content-Encoding and Vary when Accept-Encoding takes gzip; plain JSON without one', async () => {
    make();
    await ingest(c, batch([ev('2026-03-01T10:00:00Z', { n: 1 })]));
    const none = await read(c, DAY); // no Accept-Encoding at all (curl): identity
    expect(none.headers.get('content-encoding')).toBeNull();
    expect(none.headers.get('vary')).toBe('Origin, Accept-Encoding');
    expect(JSON.parse(new TextDecoder().decode(none.raw)).events[0].n).toBe(1);
    const gz = await read(c, DAY, { 'accept-encoding': 'gzip' });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(gz.headers.get('vary')).toBe('Origin, Accept-Encoding');
    expect(gz.headers.get('content-type')).toMatch(/^application\/json/);
    expect([gz.raw[0], gz.raw[1]]).toEqual([0x1f, 0x8b]);
    expect(gz.json.events[0].n).toBe(1);
    const withGzip = await read(c, DAY, { 'accept-encoding': 'gzip, deflate, br' });
    expect(withGzip.headers.get('content-encoding')).toBe('gzip');
    for (const ae of ['identity', 'br', 'gzip;q=0', '']) {
      const plain = await read(c, DAY, { 'accept-encoding': ae });
      expect(plain.headers.get('content-encoding'), ae).toBeNull();
      expect(plain.headers.get('vary')).toBe('Origin, Accept-Encoding');
      expect(JSON.parse(new TextDecoder().decode(plain.raw)).events[0].n).toBe(1);
    }
    const star = await read(c, DAY, { 'accept-encoding': '*' });
    expect(star.headers.get('content-encoding')).toBe('gzip');
  });

  it('readCompression: "none" always answers plain JSON', async () => {
    make({ readCompression: 'none' });
    await ingest(c, batch([ev('2026-03-01T10:00:00Z', { n: 1 })]));
    const r = await read(c, DAY);
    expect(r.headers.get('content-encoding')).toBeNull();
    expect(r.json.events).toHaveLength(1);
  });

  it('gzip bodies stay correct when cached hour pieces are reused and invalidated', async () => {
    make();
    const events = [];
    for (let h = 0; h < 5; h++) for (let i = 0; i < 50; i++) events.push(ev(`2026-03-01T0${h}:${String(i).padStart(2, '0')}:00Z`, { h, i }));
    await ingest(c, batch(events));
    const first = await read(c, DAY);
    const second = await read(c, DAY);
    expect(second.text).toBe(first.text);
    expect(first.json.total).toBe(250);
    // a partial window (edges inside hours 1 and 3)
    const part = await read(c, { since: '2026-03-01T01:30:00Z', until: '2026-03-01T03:10:00Z' });
    expect(part.json.events.map((e: any) => `${e.h}:${e.i}`)).toEqual([
      ...Array.from({ length: 11 }, (_, k) => `3:${10 - k}`),
      ...Array.from({ length: 50 }, (_, k) => `2:${49 - k}`),
      ...Array.from({ length: 20 }, (_, k) => `1:${49 - k}`),
    ]);
    // a new event in hour 2 invalidates that hour's piece
    await ingest(c, batch([ev('2026-03-01T02:30:30Z', { h: 2, i: 'new' })]));
    const third = await read(c, DAY);
    expect(third.json.total).toBe(251);
    expect(third.json.events.findIndex((e: any) => e.i === 'new')).toBe(50 + 50 + 19);
  });

  describe('pagination', () => {
    async function seed() {
      make();
      await ingest(c, batch(Array.from({ length: 10 }, (_, i) => ev(`2026-03-01T10:00:0${i}Z`, { n: i }))));
    }

    it('limit and page slice newest-first; total stays the window count; page/limit echo', async () => {
      await seed();
      const p1 = (await read(c, { ...DAY, limit: 4 })).json;
      expect(p1.events.map((e: any) => e.n)).toEqual([9, 8, 7, 6]);
      expect(p1).toMatchObject({ total: 10, page: 1, limit: 4 });
      const p3 = (await read(c, { ...DAY, limit: 4, page: 3 })).json;
      expect(p3.events.map((e: any) => e.n)).toEqual([1, 0]);
      expect(p3).toMatchObject({ total: 10, page: 3, limit: 4, nextCursor: null });
      const p9 = (await read(c, { ...DAY, limit: 4, page: 9 })).json;
      expect(p9).toMatchObject({ events: [], total: 10, page: 9, limit: 4 });
    });

    it('cursor continues after the last returned event, until nextCursor is null', async () => {
      await seed();
      const seen: number[] = [];
      let cursor: string | null | undefined;
      let rounds = 0;
      do {
        const q: Record<string, string | number> = { ...DAY, limit: 3 };
        if (cursor) q.cursor = cursor;
        const page = (await read(c, q)).json;
        expect(page.total).toBe(10);
        seen.push(...page.events.map((e: any) => e.n));
        cursor = page.nextCursor;
        if (rounds++ > 0) expect(page.page).toBeNull();
      } while (cursor);
      expect(seen).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
    });

    it('a cursor survives new events arriving meanwhile', async () => {
      await seed();
      const p1 = (await read(c, { ...DAY, limit: 5 })).json;
      await ingest(c, batch([ev('2026-03-01T10:00:09.500Z', { n: 'late' })]));
      const p2 = (await read(c, { ...DAY, limit: 5, cursor: p1.nextCursor })).json;
      expect(p2.events.map((e: any) => e.n)).toEqual([4, 3, 2, 1, 0]);
      expect(p2.total).toBe(11);
    });

    it('cursor without limit returns the rest', async () => {
      await seed();
      const p1 = (await read(c, { ...DAY, limit: 2 })).json;
      const rest = (await read(c, { ...DAY, cursor: p1.nextCursor })).json;
      expect(rest.events.map((e: any) => e.n)).toEqual([7, 6, 5, 4, 3, 2, 1, 0]);
      expect(rest.nextCursor).toBeUndefined();
    });
  });

  it('HEAD gives the headers and no body; POST on the read route is 405', async () => {
    make();
    const head = await c.handle(new Request(`${BASE}/_tracker?since=${DAY.since}&until=${DAY.until}`, { method: 'HEAD' }));
    expect(head!.status).toBe(200);
    expect(Number(head!.headers.get('content-length'))).toBeGreaterThan(0);
    const post = await reply(await c.handle(new Request(`${BASE}/_tracker`, { method: 'POST', body: '{}' })));
    expect(post.status).toBe(405);
  });
});

describe('routing', () => {
  it('ping is open and reports appId, mode and version', async () => {
    make({ apiKey: 'k' });
    const r = await reply(await c.handle(new Request(`${BASE}/_tracker/ping`)));
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ ok: true, appId: 'demo', mode: 'middleware', version: expect.any(String) });
  });

  it('unknown paths under basePath → JSON 404; outside → undefined; custom basePath', async () => {
    make({ basePath: '/collect/' });
    expect(await c.handle(new Request(`${BASE}/api/users`))).toBeUndefined();
    expect(await c.handle(new Request(`${BASE}/collectx`))).toBeUndefined();
    const r = await reply(await c.handle(new Request(`${BASE}/collect/nope`)));
    expect(r.status).toBe(404);
    expect(r.json).toMatchObject({ status: 404, error: 'NOT_FOUND', path: '/collect/nope' });
    expect((await c.handle(new Request(`${BASE}/collect/ping`)))!.status).toBe(200);
    expect(c.prefixes).toEqual(['/collect']);
  });

  it('a plain GET on the WebSocket path → 426', async () => {
    make();
    const r = await c.handle(new Request(`${BASE}/_tracker/ws`));
    expect(r!.status).toBe(426);
  });
});

describe('cursor encoding', () => {
  it('round-trips ids that are not ASCII (hand-edited segments)', async () => {
    const { memoryFs } = await import('../../src/vfs/memory.js');
    const fs = memoryFs({ 'events/2026-03-01T10.jsonl': '{"id":"é-1","timestamp":"2026-03-01T10:00:00Z","n":1}\n{"id":"é-2","timestamp":"2026-03-01T10:00:00Z","n":2}\n{"id":"é-3","timestamp":"2026-03-01T10:00:00Z","n":3}\n' });
    make({ storage: { fs } });
    const p1 = (await read(c, { ...DAY, limit: 2 })).json;
    expect(p1.events.map((e: any) => e.n)).toEqual([3, 2]);
    const p2 = (await read(c, { ...DAY, limit: 2, cursor: p1.nextCursor })).json;
    expect(p2.events.map((e: any) => e.n)).toEqual([1]);
  });
});
