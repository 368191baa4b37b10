/**
 * The EventStore contract, one suite run against every store behind the collector:
 * the embedded store (memory and disk), PostgreSQL on PGlite (in-process, no server), and a real
 * PostgreSQL server started for this file (skipped locally when the binaries are missing; a
 * failure under CI). Through the collector's own routes: ordering (timestamp, then ingest order),
 * inclusive window bounds, paging (page and cursor), exact total, retention, auth and limits,
 * batchId, gzip and plain reads, WebSocket reads and pushes.
 */
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresStore } from '../../src/node/postgres/index.js';
// The collector as the `mockyard` entry makes it under Node (Node's runtime: PostgreSQL, zlib).
import { createNodeCollector as createCollector } from '../../src/node/engines.js';
import type { Collector, CollectorOptions } from '../../src/tracker/types.js';
import { diskFs } from '../../src/vfs/disk.js';
import { memoryFs } from '../../src/vfs/memory.js';
import { connect } from '../helpers/fake-socket-peer.js';
import { IN_CI, MISSING_MESSAGE, postgresBinaries, startPostgres, type PostgresServer } from '../helpers/postgres-server.js';
import { makeTempDir, removeTempDirs } from '../helpers/temp-dir.js';
import { batch, ev, ingest, read, readAll } from './collector-client.js';

type Storage = Pick<CollectorOptions, 'storage'>;
interface Backend {
  name: string;
  /** Storage options for a fresh, empty store. */
  fresh(): Promise<Storage>;
  available(): boolean;
}

let tableSeq = 0;
const freshTable = () => `t${process.pid}_${++tableSeq}`;

let pglite: PGlite | undefined;
let server: PostgresServer | undefined;
const hasServer = postgresBinaries() !== undefined;

beforeAll(async () => {
  pglite = await PGlite.create();
  if (hasServer) server = await startPostgres();
}, 180_000);
afterAll(async () => {
  server?.stop();
  await pglite?.close();
  await removeTempDirs();
}, 180_000);

const backends: Backend[] = [
  { name: 'embedded (memory)', available: () => true, fresh: async () => ({ storage: { fs: memoryFs() } }) },
  { name: 'embedded (disk)', available: () => true, fresh: async () => ({ storage: { fs: diskFs(await makeTempDir()) } }) },
  { name: 'PostgreSQL on PGlite', available: () => true, fresh: async () => ({ storage: { store: postgresStore({ client: pglite, table: freshTable() }) } }) },
  { name: 'PostgreSQL server', available: () => hasServer, fresh: async () => ({ storage: { postgres: { url: server!.url, table: freshTable() } } }) },
];

describe('real PostgreSQL server binaries', () => {
  it.runIf(IN_CI)('are installed under CI', () => {
    if (!hasServer) throw new Error(MISSING_MESSAGE);
  });
});

for (const backend of backends) {
  describe.skipIf(!backend.available())(`EventStore contract: ${backend.name}`, () => {
    const open: Collector[] = [];
    afterAll(async () => {
      await Promise.all(open.map((c) => c.close()));
    });
    async function make(extra: Partial<CollectorOptions> = {}, storage?: Storage): Promise<Collector> {
      const c = createCollector({ appId: 'contract', logLevel: 'silent', ...(storage ?? (await backend.fresh())), ...extra });
      open.push(c);
      await c.ready;
      return c;
    }

    it('orders newest first by timestamp, then by ingest order (later first), and serves every field as sent', async () => {
      const c = await make();
      await ingest(c, batch([ev('2026-03-01T10:00:00Z', { n: 'a' }), ev('2026-03-01T12:00:00+02:00', { n: 'same-as-a' }), ev('2026-03-01T09:00:00Z', { n: 'old' })]));
      await ingest(c, batch([ev('2026-03-01T10:00:00.000Z', { n: 'tie-later', nested: { x: [1, 'two', null] } }), ev('2026-03-01T11:00:00Z', { n: 'new' })]));
      const all = await readAll(c);
      expect(all.events.map((e: any) => e.n)).toEqual(['new', 'tie-later', 'same-as-a', 'a', 'old']);
      expect(all.total).toBe(5);
      const e = all.events[1];
      expect(e).toMatchObject({ timestamp: '2026-03-01T10:00:00.000Z', type: 'click', nested: { x: [1, 'two', null] } });
      expect(e.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(new Set(all.events.map((x: any) => x.id)).size).toBe(5);
    });

    it('window bounds are inclusive to the millisecond', async () => {
      const c = await make();
      await ingest(c, batch([ev('2026-03-01T10:00:00.000Z', { n: 'since' }), ev('2026-03-01T10:59:59.999Z', { n: 'until' }), ev('2026-03-01T09:59:59.999Z', { n: 'before' }), ev('2026-03-01T11:00:00.000Z', { n: 'after' })]));
      const r = await read(c, { since: '2026-03-01T10:00:00.000Z', until: '2026-03-01T10:59:59.999Z' });
      expect(r.json.events.map((e: any) => e.n)).toEqual(['until', 'since']);
      expect(r.json.total).toBe(2);
      const offset = await read(c, { since: '2026-03-01T12:00:00+02:00', until: '2026-03-01T12:59:59.999+02:00' });
      expect(offset.json.total).toBe(2);
    });

    it('pages with limit/page and with cursors; total is the whole window; gzip and plain agree', async () => {
      const c = await make();
      const events = Array.from({ length: 23 }, (_, i) => ev(`2026-03-01T10:${String(i % 7).padStart(2, '0')}:00Z`, { i }));
      await ingest(c, batch(events.slice(0, 10)));
      await ingest(c, batch(events.slice(10)));
      const q = { since: '2026-03-01T00:00:00Z', until: '2026-03-01T23:59:59Z' };
      const everything = (await read(c, q)).json.events.map((e: any) => e.i);
      expect(everything).toHaveLength(23);
      const p2 = await read(c, { ...q, limit: '5', page: '2' });
      expect(p2.json).toMatchObject({ total: 23, page: 2, limit: 5 });
      expect(p2.json.events.map((e: any) => e.i)).toEqual(everything.slice(5, 10));
      const past = await read(c, { ...q, limit: '5', page: '9' });
      expect(past.json).toMatchObject({ events: [], total: 23, page: 9, limit: 5, nextCursor: null });
      const seen: number[] = [];
      let cursor: string | null | undefined;
      let pages = 0;
      do {
        const r = await read(c, { ...q, limit: '6', ...(cursor ? { cursor } : {}) });
        expect(r.json.total).toBe(23);
        expect(r.json.page).toBe(cursor ? null : 1);
        seen.push(...r.json.events.map((e: any) => e.i));
        cursor = r.json.nextCursor;
        pages++;
      } while (cursor);
      expect(pages).toBe(4);
      expect(seen).toEqual(everything);
      const plain = await read(c, q, { 'accept-encoding': 'identity' });
      const zipped = await read(c, q, { 'accept-encoding': 'gzip' });
      expect(plain.headers.get('content-encoding')).toBeNull();
      expect(zipped.headers.get('content-encoding')).toBe('gzip');
      expect(zipped.json).toEqual(plain.json);
      expect(plain.json).toEqual({ events: plain.json.events, total: 23, page: 1, limit: 23 });
    });

    it('a window of 12,000 events (several store pages) comes whole, in order, plain and gzip', async () => {
      const c = await make();
      for (let b = 0; b < 12; b++) {
        const events = Array.from({ length: 1000 }, (_, i) => ev(`2026-03-01T${String(10 + (i % 3)).padStart(2, '0')}:00:00Z`, { k: b * 1000 + i }));
        expect((await ingest(c, batch(events), { gzip: true })).status).toBe(200);
      }
      const q = { since: '2026-03-01T00:00:00Z', until: '2026-03-01T23:59:59Z' };
      // newest first: hour 12 (i % 3 = 2), then 11, then 10; within an hour the later ingested first
      const expected = [2, 1, 0].flatMap((h) => Array.from({ length: 12_000 }, (_, j) => 11_999 - j).filter((k) => (k % 1000) % 3 === h));
      const zipped = await read(c, q, { 'accept-encoding': 'gzip' });
      expect(zipped.headers.get('content-encoding')).toBe('gzip');
      expect(zipped.json.total).toBe(12_000);
      expect(zipped.json.limit).toBe(12_000);
      expect(zipped.json.events.map((e: any) => e.k)).toEqual(expected);
      const plain = await read(c, q, { 'accept-encoding': 'identity' });
      expect(plain.text).toBe(zipped.text);
    });

    it('reading a window again after new events in its hours (and at its edges) shows them', async () => {
      const c = await make();
      const hour = (i: number, h = 10) => ev(`2026-03-01T${h}:${String(i % 60).padStart(2, '0')}:00Z`, { i });
      await ingest(c, batch(Array.from({ length: 100 }, (_, i) => hour(i))));
      const q = { since: '2026-03-01T00:00:00Z', until: '2026-03-01T23:59:59.999Z' };
      expect((await read(c, q)).json.total).toBe(100);
      expect((await read(c, q)).json.total).toBe(100); // a second read (cached hours, where a store has them)
      await ingest(c, batch([hour(100), hour(101, 11)]));
      const again = await read(c, q);
      expect(again.json.total).toBe(102);
      // 101 (11:41), then 10:59 … 10:41, then 100 and 40 (both 10:40: the later ingested first)
      expect(again.json.events.slice(0, 22).map((e: any) => e.i)).toEqual([101, ...Array.from({ length: 19 }, (_, k) => 59 - k), 100, 40]);
      const edge = await read(c, { since: '2026-03-01T10:30:00Z', until: '2026-03-01T10:59:59.999Z' });
      const inEdge = Array.from({ length: 101 }, (_, i) => i).filter((i) => i % 60 >= 30);
      expect(edge.json.events.map((e: any) => e.i)).toEqual(inEdge.sort((x, y) => y % 60 - x % 60 || y - x));
    });

    it('a cursor whose event is gone continues with older events', async () => {
      const c = await make();
      await ingest(c, batch([ev('2026-03-01T10:00:00Z', { n: 1 }), ev('2026-03-01T10:00:02Z', { n: 2 }), ev('2026-03-01T10:00:04Z', { n: 3 })]));
      const bogus = Buffer.from(`${Date.parse('2026-03-01T10:00:03Z')}|0190f0a2-1b2c-7d3e-8f40-123456789abc`).toString('base64url');
      const r = await read(c, { since: '2026-03-01T00:00:00Z', until: '2026-03-01T23:59:59Z', limit: '10', cursor: bogus });
      expect(r.json.events.map((e: any) => e.n)).toEqual([2, 1]);
    });

    it('retention by age drops old events and keeps recent ones (at start-up)', async () => {
      const storage = await backend.fresh();
      const c1 = await make({}, storage);
      const now = Date.now();
      await ingest(c1, batch([ev(new Date(now - 10 * 86_400_000).toISOString(), { n: 'old' }), ev(new Date(now - 1000).toISOString(), { n: 'new' })]));
      expect((await readAll(c1)).total).toBe(2);
      const c2 = await make({ retention: { maxAgeMs: 2 * 86_400_000 } }, storage);
      expect((await readAll(c2)).events.map((e: any) => e.n)).toEqual(['new']);
    });

    it('retention by count drops the oldest units once all their events are outside the newest N', async () => {
      const storage = await backend.fresh();
      const c1 = await make({}, storage);
      await ingest(c1, batch([ev('2026-02-01T10:00:00Z', { n: 'feb' }), ev('2026-03-01T10:00:00Z', { n: 'mar' }), ev('2026-03-05T10:00:00Z', { n: 'mar5' })]));
      const c2 = await make({ retention: { maxEvents: 2 } }, storage);
      expect((await readAll(c2)).events.map((e: any) => e.n)).toEqual(['mar5', 'mar']);
    });

    it('deleteRange removes [from, to) and nothing else: windowed reads (pages, cursors, gzip) and a restart agree', async () => {
      const storage = await backend.fresh();
      const c = await make({ apiKey: 'k' }, storage);
      const key = { 'x-tracker-key': 'k' };
      const t = (hms: string) => `2026-03-01T${hms}Z`;
      const names = async (col: Collector) => (await readAll(col, key)).events.map((e: any) => e.n);
      // One batch over three hours (its last part in 11:xx), a single event, a batch over 11:xx and 12:xx.
      await ingest(c, batch([ev(t('09:30:00'), { n: 'a' }), ev(t('10:00:00'), { n: 'from' }), ev(t('10:30:00'), { n: 'b' }), ev(t('11:15:00'), { n: 'c' }), ev(t('11:45:00'), { n: 'to' })]), { headers: key });
      await ingest(c, batch([ev(t('10:45:00'), { n: 'd' })]), { headers: key });
      await ingest(c, batch([ev(t('12:00:00'), { n: 'e' }), ev(t('11:50:00'), { n: 'f' })]), { headers: key });
      // An hour with enough events for cached gzip pieces, read twice before the delete.
      await ingest(c, batch(Array.from({ length: 120 }, (_, i) => ev(t(`13:${String(Math.floor(i / 2)).padStart(2, '0')}:${i % 2 ? '30' : '00'}`), { n: `h${i}` }))), { headers: key });
      const day = { since: '2026-03-01T00:00:00Z', until: '2026-03-01T23:59:59.999Z' };
      for (let i = 0; i < 2; i++) expect((await read(c, day, { ...key, 'accept-encoding': 'gzip' })).json.total).toBe(128);

      await expect(c.deleteRange(Date.parse(t('10:00:00')), Date.parse(t('11:45:00')))).rejects.toMatchObject({ status: 401 });
      await expect(c.deleteRange(Date.parse(t('11:00:00')), Date.parse(t('10:00:00')), 'k')).rejects.toMatchObject({ status: 400 });
      expect(await c.deleteRange(Date.parse(t('10:00:00')), Date.parse(t('11:45:00')), 'k')).toBe(4); // from (included), b, d, c; `to` excluded
      expect(await c.deleteRange(Date.parse(t('13:10:00')), Date.parse(t('13:20:00')), 'k')).toBe(20);
      const hours13 = Array.from({ length: 120 }, (_, i) => i).filter((i) => i < 20 || i >= 40).reverse().map((i) => `h${i}`);
      const expected = [...hours13, 'e', 'f', 'to', 'a'];
      expect(await names(c)).toEqual(expected);
      const plain = await read(c, day, { ...key, 'accept-encoding': 'identity' });
      const zipped = await read(c, day, { ...key, 'accept-encoding': 'gzip' });
      expect(zipped.json).toEqual(plain.json);
      expect(plain.json.total).toBe(expected.length);
      const seen: string[] = [];
      let cursor: string | null | undefined;
      do {
        const r = await read(c, { ...day, limit: '7', ...(cursor ? { cursor } : {}) }, key);
        expect(r.json.total).toBe(expected.length);
        seen.push(...r.json.events.map((e: any) => e.n));
        cursor = r.json.nextCursor;
      } while (cursor);
      expect(seen).toEqual(expected);

      // A whole hour emptied, holding the last part of the first batch: its other part (09:30) stays.
      expect(await c.deleteRange(Date.parse(t('11:00:00')), Date.parse(t('12:00:00')), 'k')).toBe(2);
      expect(await c.deleteRange(Date.parse(t('11:00:00')), Date.parse(t('12:00:00')), 'k')).toBe(0);
      // The range takes new events afterwards.
      await ingest(c, batch([ev(t('10:10:00'), { n: 'g' }), ev(t('09:40:00'), { n: 'h' })]), { headers: key });
      const after = [...hours13, 'e', 'g', 'h', 'a'];
      expect(await names(c)).toEqual(after);
      await c.close();
      const again = await make({ apiKey: 'k' }, storage);
      expect(await names(again)).toEqual(after);
      expect((await read(again, day, { ...key, 'accept-encoding': 'gzip' })).json.total).toBe(after.length);
    });

    it('after deleteRange a WebSocket events:query answers what the read API answers, and pushes carry only new events', async () => {
      const c = await make();
      const t = (m: number) => `2026-03-03T10:${String(m).padStart(2, '0')}:00Z`;
      await ingest(c, batch(Array.from({ length: 10 }, (_, m) => ev(t(m), { n: `m${m}` }))));
      const watcher = await connect(c, 'http://collector.test/_tracker/ws');
      const asker = await connect(c, 'http://collector.test/_tracker/ws');
      expect(await c.deleteRange(Date.parse(t(3)), Date.parse(t(7)))).toBe(4);
      const window = { since: '2026-03-03T00:00:00Z', until: '2026-03-04T00:00:00Z' };
      const rest = (await readAll(c)).events.map((e: any) => e.n);
      expect(rest).toEqual(['m9', 'm8', 'm7', 'm2', 'm1', 'm0']);
      asker.say({ type: 'events:query', reqId: 'after', query: window });
      const [answer] = await asker.waitFor(1);
      expect(answer).toMatchObject({ type: 'events:response', reqId: 'after', response: { total: 6 } });
      expect(answer.response.events.map((e: any) => e.n)).toEqual(rest);
      // Nothing was pushed for the delete; the next batch is pushed alone, and read with the rest.
      await ingest(c, batch([ev(t(5), { n: 'again' })]));
      const [push] = await watcher.waitFor(1);
      expect(push.type).toBe('push');
      expect(push.events.map((e: any) => e.n)).toEqual(['again']);
      expect((await readAll(c)).events.map((e: any) => e.n)).toEqual(['m9', 'm8', 'm7', 'again', 'm2', 'm1', 'm0']);
    });

    it('deleteRange during ingests: every event outside the range stays, and what is read is what a restart finds', async () => {
      const storage = await backend.fresh();
      const c = await make({}, storage);
      const t = (m: number, s = 0) => `2026-03-02T10:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}Z`;
      await ingest(c, batch(Array.from({ length: 60 }, (_, m) => ev(t(m), { n: `seed${m}` }))));
      const writes = Array.from({ length: 20 }, (_, i) => ingest(c, batch([ev(t(i * 3, 30), { n: `w${i}` }), ev(t(59 - i, 45), { n: `v${i}` })])));
      const deleted = c.deleteRange(Date.parse(t(20)), Date.parse(t(40)));
      await Promise.all(writes);
      await deleted;
      const read1 = (await readAll(c)).events.map((e: any) => e.n) as string[];
      const outside = [...Array.from({ length: 60 }, (_, m) => m).filter((m) => m < 20 || m >= 40).map((m) => `seed${m}`), ...Array.from({ length: 20 }, (_, i) => i).filter((i) => i * 3 < 20 || i * 3 >= 40).map((i) => `w${i}`), ...Array.from({ length: 20 }, (_, i) => i).filter((i) => 59 - i < 20 || 59 - i >= 40).map((i) => `v${i}`)];
      for (const n of outside) expect(read1).toContain(n);
      for (const n of read1.filter((x) => x.startsWith('seed'))) expect(outside).toContain(n);
      await c.close();
      expect((await readAll(await make({}, storage))).events.map((e: any) => e.n)).toEqual(read1);
    });

    it('auth, limits and batchId answer as before', async () => {
      const c = await make({ apiKey: 'k', limits: { maxEvents: 3 } });
      expect((await ingest(c, batch([ev('2026-03-01T10:00:00Z')]))).status).toBe(401);
      expect((await read(c, { since: '2026-03-01T00:00:00Z', until: '2026-03-02T00:00:00Z' })).status).toBe(401);
      const key = { headers: { 'x-tracker-key': 'k' } };
      expect((await ingest(c, batch(Array.from({ length: 4 }, () => ev('2026-03-01T10:00:00Z'))), key)).status).toBe(413);
      expect((await ingest(c, batch([{ id: '', timestamp: 'nope' }]), key)).status).toBe(422);
      const body = { ...batch([ev('2026-03-01T10:00:00Z'), ev('2026-03-02T10:00:00Z')]), batchId: 'retry-me' };
      expect((await ingest(c, body, key)).json).toEqual({ ok: true, saved: 2 });
      expect((await ingest(c, body, { ...key, gzip: true })).json).toEqual({ ok: true, saved: 2 });
      const r = await read(c, { since: '2026-03-01T00:00:00Z', until: '2026-03-03T00:00:00Z' }, { 'x-tracker-key': 'k' });
      expect(r.json.total).toBe(2);
    });

    it('WebSocket: events:query answers from the store, pushes reach the other clients, big messages are split', async () => {
      const c = await make({ limits: { maxEvents: 10 } });
      const a = await connect(c, 'http://collector.test/_tracker/ws');
      const b = await connect(c, 'http://collector.test/_tracker/ws');
      a.say({ type: 'ingest', events: Array.from({ length: 25 }, (_, i) => ev('2026-03-01T10:00:00Z', { i })) });
      expect((await a.waitFor(1))[0]).toEqual({ type: 'ack', saved: 25 });
      const pushes = await b.waitFor(3);
      expect(pushes.flatMap((m) => m.events.map((e: any) => e.i))).toEqual(Array.from({ length: 25 }, (_, i) => i));
      a.say({ type: 'events:query', reqId: 'q1', query: { since: '2026-03-01T00:00:00Z', until: '2026-03-02T00:00:00Z', limit: 2 } });
      const [, answer] = await a.waitFor(2);
      expect(answer).toMatchObject({ type: 'events:response', reqId: 'q1', response: { total: 25, page: 1, limit: 2 } });
      expect(answer.response.events.map((e: any) => e.i)).toEqual([24, 23]);
    });
  });
}

describe.skipIf(!hasServer)('PostgreSQL server: reads release their snapshot connection', () => {
  it('after HEAD, after a body cancelled half-way, and after a full read (a pool of 2 serves 12 reads)', async () => {
    const c = createCollector({ appId: 'pool', logLevel: 'silent', storage: { postgres: { url: server!.url, table: freshTable(), maxConnections: 2 } } });
    try {
      await c.ready;
      const many = Array.from({ length: 12 }, (_, i) => ev(`2026-03-01T11:00:00Z`, { i }));
      expect((await ingest(c, batch(many))).status).toBe(200);
      const url = 'http://collector.test/_tracker?since=2026-03-01T00:00:00Z&until=2026-03-02T00:00:00Z';
      for (let round = 0; round < 4; round++) {
        const head = await c.handle(new Request(url, { method: 'HEAD' }));
        expect(head!.status).toBe(200);
        expect(await head!.text()).toBe('');
        const partial = await c.handle(new Request(url));
        const reader = partial!.body!.getReader();
        await reader.read();
        await reader.cancel();
        const full = await read(c, { since: '2026-03-01T00:00:00Z', until: '2026-03-02T00:00:00Z', limit: 5 });
        expect(full.json.events).toHaveLength(5);
      }
    } finally {
      await c.close();
    }
  }, 60_000);
});
