/**
 * The PostgreSQL store's deflated buckets (bucket-pieces.ts, bucket-read.ts,
 * change-barrier.ts): a bucket a collector holds is dropped when any collector on the same
 * database stores into it (a late event), retention drops its day or a time range is deleted, so
 * every read is current.
 * Two collectors on one PGlite database, and two on a real server (separate pools, separate
 * LISTEN connections); the cache rules themselves as units.
 */
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresStore } from '../../../src/node/postgres/index.js';
import { BucketPieces, bucketOf } from '../../../src/node/postgres/bucket-pieces.js';
import { ChangeBarrier } from '../../../src/node/postgres/change-barrier.js';
// The collector as the `mockyard` entry makes it under Node (Node's runtime: PostgreSQL, zlib).
import { createNodeCollector as createCollector } from '../../../src/node/engines.js';
import { deflatePiece } from '../../../src/tracker/gzip-pieces.js';
import type { Collector, CollectorOptions } from '../../../src/tracker/types.js';
import { postgresBinaries, startPostgres, type PostgresServer } from '../../helpers/postgres-server.js';
import { batch, ev, ingest, read } from '../../tracker/collector-client.js';

let pglite: PGlite | undefined;
let server: PostgresServer | undefined;
const hasServer = postgresBinaries() !== undefined;
const open: Collector[] = [];
let seq = 0;

beforeAll(async () => {
  pglite = await PGlite.create();
  if (hasServer) server = await startPostgres();
}, 180_000);
afterAll(async () => {
  await Promise.all(open.map((c) => c.close()));
  server?.stop();
  await pglite?.close();
}, 180_000);

type Storage = Pick<CollectorOptions, 'storage'>;
const backends: Array<{ name: string; available: () => boolean; shared: () => Storage }> = [
  { name: 'PGlite', available: () => true, shared: () => ({ storage: { store: postgresStore({ client: pglite, table: `bc${process.pid}_${seq}` }) } }) },
  { name: 'PostgreSQL server', available: () => hasServer, shared: () => ({ storage: { postgres: { url: server!.url, table: `bc${process.pid}_${seq}` } } }) },
];

async function make(storage: Storage, extra: Partial<CollectorOptions> = {}): Promise<Collector> {
  const c = createCollector({ appId: 'cache', logLevel: 'silent', ...storage, ...extra });
  open.push(c);
  await c.ready;
  return c;
}

const names = async (c: Collector, since: string, until: string) => {
  const r = await read(c, { since, until }, { 'accept-encoding': 'gzip' });
  expect(r.status).toBe(200);
  expect(r.headers.get('content-encoding')).toBe('gzip');
  expect(r.json.events).toHaveLength(r.json.total);
  return r.json.events.map((e: any) => e.n);
};

for (const backend of backends) {
  describe.skipIf(!backend.available())(`PostgreSQL deflated buckets (${backend.name}): two collectors on one database`, () => {
    it('a late event stored through B into a bucket A holds is in A’s next read (and A’s own events too)', async () => {
      seq++;
      const a = await make(backend.shared());
      const b = await make(backend.shared());
      await ingest(a, batch([ev('2026-03-01T10:01:00Z', { n: 'a1' }), ev('2026-03-01T10:04:00Z', { n: 'a2' }), ev('2026-03-01T10:31:00Z', { n: 'a3' })]));
      const window = ['2026-03-01T10:00:00Z', '2026-03-01T10:59:59.999Z'] as const;
      expect(await names(a, ...window)).toEqual(['a3', 'a2', 'a1']);
      expect(await names(a, ...window)).toEqual(['a3', 'a2', 'a1']); // now from A's held buckets
      expect(await names(b, ...window)).toEqual(['a3', 'a2', 'a1']); // B holds them too
      // Late events into the held 10:00–10:05 bucket, through B, and through A.
      await ingest(b, batch([ev('2026-03-01T10:02:00Z', { n: 'late-b' })]));
      expect(await names(a, ...window)).toEqual(['a3', 'a2', 'late-b', 'a1']);
      await ingest(a, batch([ev('2026-03-01T10:03:00Z', { n: 'late-a' })]));
      expect(await names(b, ...window)).toEqual(['a3', 'a2', 'late-a', 'late-b', 'a1']);
      expect(await names(a, ...window)).toEqual(['a3', 'a2', 'late-a', 'late-b', 'a1']);
      // The current bucket with until = its newest event, then an event past it: still exact.
      expect(await names(a, '2026-03-01T10:30:00Z', '2026-03-01T10:31:00Z')).toEqual(['a3']);
      await ingest(b, batch([ev('2026-03-01T10:31:00.001Z', { n: 'next' })]));
      expect(await names(a, '2026-03-01T10:30:00Z', '2026-03-01T10:31:00Z')).toEqual(['a3']);
      expect(await names(a, '2026-03-01T10:30:00Z', '2026-03-01T10:31:00.001Z')).toEqual(['next', 'a3']);
    });

    it('a day dropped by B’s retention is gone from A’s next read of buckets A held', async () => {
      seq++;
      const a = await make(backend.shared());
      const now = Date.now();
      const old = new Date(now - 10 * 86_400_000);
      await ingest(a, batch([ev(old.toISOString(), { n: 'old' }), ev(new Date(now - 1000).toISOString(), { n: 'new' })]));
      const window = [new Date(old.getTime() - 3_600_000).toISOString(), new Date(old.getTime() + 3_600_000).toISOString()] as const;
      expect(await names(a, ...window)).toEqual(['old']);
      expect(await names(a, ...window)).toEqual(['old']); // held
      const b = await make(backend.shared(), { retention: { maxAgeMs: 2 * 86_400_000 } }); // drops the old day at start-up
      expect(await names(b, ...window)).toEqual([]);
      expect(await names(a, ...window)).toEqual([]);
    });

    it('a range deleted through B (deleteRange) is gone from A’s next read of buckets A held; the rest stays', async () => {
      seq++;
      const a = await make(backend.shared());
      const b = await make(backend.shared());
      await ingest(a, batch([ev('2026-03-01T10:01:00Z', { n: 'keep1' }), ev('2026-03-01T10:02:00Z', { n: 'gone1' }), ev('2026-03-01T10:03:00Z', { n: 'gone2' }), ev('2026-03-01T10:04:00Z', { n: 'keep2' })]));
      const window = ['2026-03-01T10:00:00Z', '2026-03-01T10:59:59.999Z'] as const;
      expect(await names(a, ...window)).toEqual(['keep2', 'gone2', 'gone1', 'keep1']);
      expect(await names(a, ...window)).toEqual(['keep2', 'gone2', 'gone1', 'keep1']); // held
      expect(await b.deleteRange(Date.parse('2026-03-01T10:02:00Z'), Date.parse('2026-03-01T10:04:00Z'))).toBe(2);
      expect(await names(a, ...window)).toEqual(['keep2', 'keep1']);
      expect(await names(b, ...window)).toEqual(['keep2', 'keep1']);
    });
  });
}

describe('BucketPieces', () => {
  const piece = (text: string) => deflatePiece(text);
  const held = (n: number) => ({ n, first: 0, last: 0, piece: piece('x'.repeat(n)) });

  it('refuses a bucket read by a fill that a change touched since the fill began; keeps the others', () => {
    const p = new BucketPieces();
    const since = p.begin();
    p.invalidate(10, 11);
    expect(p.set(10, held(1), since)).toBe(false);
    expect(p.set(11, held(1), since)).toBe(false);
    expect(p.set(12, held(1), since)).toBe(true);
    expect(p.get(10)).toBeUndefined();
    expect(p.get(12)?.n).toBe(1);
    // A fill begun after the change keeps the bucket.
    const later = p.begin();
    expect(p.set(10, held(2), later)).toBe(true);
    p.end();
    p.end();
    // A change drops what is held in its range.
    p.invalidate(bucketOf(10 * 300_000), bucketOf(10 * 300_000));
    expect(p.get(10)).toBeUndefined();
    expect(p.get(12)?.n).toBe(1);
  });

  it('clear() during a fill refuses every bucket of that fill and drops every held one', () => {
    const p = new BucketPieces();
    p.set(1, held(1), p.begin());
    p.end();
    const since = p.begin();
    p.clear();
    expect(p.size).toBe(0);
    expect(p.set(5, held(1), since)).toBe(false);
    p.end();
  });

  it('stays within its byte bound, dropping the least recently used first', () => {
    const one = piece('y'.repeat(5000) + Math.random());
    const p = new BucketPieces(one.deflatedSize * 3 + 10);
    for (const b of [1, 2, 3]) p.set(b, { n: 1, first: 0, last: 0, piece: one }, p.begin());
    p.get(1); // 2 is now the least recently used
    p.set(4, { n: 1, first: 0, last: 0, piece: one }, p.begin());
    expect(p.get(2)).toBeUndefined();
    expect([1, 3, 4].every((b) => p.get(b))).toBe(true);
  });
});

describe('ChangeBarrier', () => {
  it('passes once its own notification comes back, not on another process’s', async () => {
    const sent: string[] = [];
    const barrier = new ChangeBarrier('me', async (payload) => sent.push(payload));
    const passing = barrier.pass(5000);
    await Promise.resolve();
    const { b } = JSON.parse(sent[0]!);
    barrier.received('someone-else', b);
    barrier.received('me', b);
    expect(await passing).toBe(true);
  });

  it('fails when the notification never comes back or cannot be sent, and on cancel', async () => {
    expect(await new ChangeBarrier('me', async () => {}).pass(20)).toBe(false);
    expect(await new ChangeBarrier('me', async () => { throw new Error('down'); }).pass(5000)).toBe(false);
    const c = new ChangeBarrier('me', async () => {});
    const passing = c.pass(5000);
    c.cancel();
    expect(await passing).toBe(false);
  });
});
