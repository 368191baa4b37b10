/**
 * The collector at engine level: batch markers in the segments and what recovery does
 * with a batch cut short by a crash; `batchId` idempotency (HTTP, concurrent retries, after a
 * restart, shape and length); WebSocket messages of more than maxEvents events.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { Collector } from '../../src/tracker/types.js';
import { diskFs } from '../../src/vfs/disk.js';
import { memoryFs } from '../../src/vfs/memory.js';
import type { Vfs } from '../../src/vfs/types.js';
import { connect, type FakePeer } from '../helpers/fake-socket-peer.js';
import { makeTempDir, removeTempDirs } from '../helpers/temp-dir.js';
import { batch, ev, ingest, readAll, recordingLogger, storageCollectorsPerTest } from './collector-client.js';

const { make, keep } = storageCollectorsPerTest();
afterAll(removeTempDirs);

const text = async (fs: Vfs, path: string) => new TextDecoder().decode(await fs.read(path));

describe('batch markers and recovery', () => {
  it('a batch spanning two segments whose last part never reached the disk is dropped whole at start-up', async () => {
    const fs = diskFs(await makeTempDir());
    const c1 = make(fs);
    await ingest(c1, batch([ev('2026-03-01T10:59:00Z', { n: 'kept-a' }), ev('2026-03-01T11:00:00Z', { n: 'kept-b' })]));
    await ingest(c1, batch([ev('2026-03-01T10:59:30Z', { n: 'torn-a' }), ev('2026-03-01T11:00:30Z', { n: 'torn-b' })]));
    await c1.close();
    // Simulate the crash between the two parts: the second batch's 11:xx part is not on disk.
    const t11 = await text(fs, 'events/2026-03-01T11.jsonl');
    const lines = t11.trimEnd().split('\n');
    await fs.write('events/2026-03-01T11.jsonl', `${lines.slice(0, 2).join('\n')}\n`);
    const log = recordingLogger();
    const c2 = make(fs, { logger: log.sink, logLevel: 'warn' });
    await c2.ready;
    expect((await readAll(c2)).events.map((e: any) => e.n)).toEqual(['kept-b', 'kept-a']);
    expect(log.warn.join('\n')).toMatch(/dropped an incomplete batch from segment 2026-03-01T10\.jsonl/);
    // ... and cut out of the file, so the next start finds the same
    expect(await text(fs, 'events/2026-03-01T10.jsonl')).not.toContain('torn-a');
  });

  it('a marked part with fewer lines than announced (write cut short) drops the batch, not its neighbours', async () => {
    const fs = memoryFs();
    const c1 = make(fs);
    await ingest(c1, batch([ev('2026-03-01T10:00:00Z', { n: 1 }), ev('2026-03-01T10:00:01Z', { n: 2 })]));
    await ingest(c1, batch([ev('2026-03-01T10:00:02Z', { n: 3 }), ev('2026-03-01T10:00:03Z', { n: 4 }), ev('2026-03-01T10:00:04Z', { n: 5 })]));
    await c1.close();
    const all = await text(fs, 'events/2026-03-01T10.jsonl');
    // cut in the middle of the second batch's third line
    await fs.write('events/2026-03-01T10.jsonl', all.slice(0, all.lastIndexOf('"n":5') - 5));
    const c2 = make(fs, { logger: recordingLogger().sink });
    await c2.ready;
    expect((await readAll(c2)).events.map((e: any) => e.n)).toEqual([2, 1]);
    await ingest(c2, batch([ev('2026-03-01T10:00:05Z', { n: 6 }), ev('2026-03-01T10:00:06Z', { n: 7 })]));
    await c2.close();
    const c3 = make(fs);
    await c3.ready;
    expect((await readAll(c3)).events.map((e: any) => e.n)).toEqual([7, 6, 2, 1]);
  });

  it('a batch whose earlier part was deleted by retention stays whole in its last part', async () => {
    const fs = memoryFs();
    const c1 = make(fs);
    await ingest(c1, batch([ev('2026-03-01T09:59:00Z', { n: 'a' }), ev('2026-03-01T10:00:00Z', { n: 'b' })]));
    await c1.close();
    await fs.remove('events/2026-03-01T09.jsonl');
    const c2 = make(fs);
    await c2.ready;
    expect((await readAll(c2)).events.map((e: any) => e.n)).toEqual(['b']);
  });

  it('segment lines stay the served events; markers are JSON lines without an id', async () => {
    const fs = memoryFs();
    const c = make(fs);
    await ingest(c, { ...batch([ev('2026-03-01T10:00:00Z'), ev('2026-03-01T10:00:01Z')]), batchId: 'b-1' });
    const lines = (await text(fs, 'events/2026-03-01T10.jsonl')).trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatchObject({ $batch: { n: 2, count: 2, last: true, batchId: 'b-1' } });
    expect(lines[0].id).toBeUndefined();
    const served = (await readAll(c)).events;
    expect(served.map((e: any) => e.id).sort()).toEqual([lines[1].id, lines[2].id].sort());
  });
});

describe('batchId', () => {
  it('a retried batch is answered as the first time and stored once; other ids store again', async () => {
    const c = make(memoryFs());
    const body = { ...batch([ev('2026-03-01T10:00:00Z'), ev('2026-03-01T10:00:01Z')]), batchId: '0190f0a2-1b2c-7d3e-8f40-123456789abc' };
    const first = await ingest(c, body);
    const again = await ingest(c, body, { gzip: true });
    expect(first.json).toEqual({ ok: true, saved: 2 });
    expect(again.status).toBe(200);
    expect(again.json).toEqual(first.json);
    expect(c.size).toBe(2);
    await ingest(c, { ...body, batchId: 'another' });
    expect(c.size).toBe(4);
    await ingest(c, batch([ev('2026-03-01T10:00:00Z')])); // no id: always stored
    await ingest(c, batch([ev('2026-03-01T10:00:00Z')]));
    expect(c.size).toBe(6);
  });

  it('concurrent retries of one batch store it once', async () => {
    const c = make(diskFs(await makeTempDir()));
    const body = { ...batch(Array.from({ length: 30 }, (_, i) => ev(`2026-03-01T10:00:${String(i).padStart(2, '0')}Z`))), batchId: 'same' };
    const answers = await Promise.all(Array.from({ length: 8 }, () => ingest(c, body)));
    expect(answers.map((a) => a.json)).toEqual(Array.from({ length: 8 }, () => ({ ok: true, saved: 30 })));
    expect(c.size).toBe(30);
  });

  it('survives a restart (kept in the batch markers on disk)', async () => {
    const fs = diskFs(await makeTempDir());
    const body = { ...batch([ev('2026-03-01T10:59:59Z'), ev('2026-03-01T11:00:00Z'), ev('2026-03-01T11:00:01Z')]), batchId: 'before-restart' };
    const c1 = make(fs);
    await ingest(c1, body);
    await ingest(c1, { ...batch([ev('2026-03-01T12:00:00Z')]), batchId: 'single' });
    await c1.close();
    const c2 = make(fs);
    expect((await ingest(c2, body)).json).toEqual({ ok: true, saved: 3 });
    expect((await ingest(c2, { ...batch([ev('2026-03-01T12:00:00Z')]), batchId: 'single' })).json).toEqual({ ok: true, saved: 1 });
    expect(c2.size).toBe(4);
  });

  it('is a string of 1 to 128 characters from A-Z a-z 0-9 . _ : - (else 400)', async () => {
    const c = make(memoryFs());
    for (const bad of ['', 'x'.repeat(129), 'with space', 'a#1', 'ü', 42, true, { a: 1 }]) {
      const r = await ingest(c, { ...batch([ev('2026-03-01T10:00:00Z')]), batchId: bad });
      expect(r.status, JSON.stringify(bad)).toBe(400);
      expect(r.json.message).toMatch(/"batchId" must be a string of 1 to 128 characters/);
    }
    expect((await ingest(c, { ...batch([ev('2026-03-01T10:00:00Z')]), batchId: 'A-z_0.9:' + 'x'.repeat(120) })).status).toBe(200);
    expect(c.size).toBe(1);
  });
});

describe('WebSocket messages of more than maxEvents events', () => {
  const socket = (c: Collector): Promise<FakePeer> => connect(c, 'http://collector.test/_tracker/ws');

  it('are stored whole, in order, as batches of at most maxEvents, with one ack carrying the total', async () => {
    const fs = memoryFs();
    const c = make(fs, { limits: { maxEvents: 100 } });
    const watcher = await socket(c);
    const peer = await socket(c);
    const events = Array.from({ length: 1200 }, (_, i) => ev('2026-03-01T10:00:00Z', { i }));
    peer.say({ type: 'ingest', events });
    expect((await peer.waitFor(1))[0]).toEqual({ type: 'ack', saved: 1200 });
    const read = await readAll(c);
    expect(read.total).toBe(1200);
    // equal timestamps: newest first = reverse ingest order
    expect(read.events.map((e: any) => e.i)).toEqual(events.map((_, i) => 1199 - i));
    // twelve atomic batches on disk, each marked with its own count
    const markers = new TextDecoder().decode(await fs.read('events/2026-03-01T10.jsonl')).split('\n').filter((l) => l.startsWith('{"$batch":'));
    expect(markers.map((l) => JSON.parse(l).$batch.count)).toEqual(Array.from({ length: 12 }, () => 100));
    // the other client got the events pushed, in order
    const pushes = await watcher.waitFor(12);
    expect(pushes.every((m) => m.type === 'push' && m.events.length === 100)).toBe(true);
    expect(pushes.flatMap((m) => m.events.map((e: any) => e.i))).toEqual(events.map((_, i) => i));
  });

  it('a retried message with a batchId stores nothing twice; HTTP keeps the 413', async () => {
    const c = make(memoryFs(), { limits: { maxEvents: 10 } });
    const peer = await socket(c);
    const message = JSON.stringify({ type: 'ingest', batchId: 'ws-1', events: Array.from({ length: 25 }, (_, i) => ev('2026-03-01T10:00:00Z', { i })) });
    peer.say(message);
    peer.say(message);
    expect(await peer.waitFor(2)).toEqual([{ type: 'ack', saved: 25 }, { type: 'ack', saved: 25 }]);
    expect(c.size).toBe(25);
    const http = await ingest(c, batch(Array.from({ length: 11 }, () => ev('2026-03-01T10:00:00Z'))));
    expect(http.status).toBe(413);
  });

  it('an invalid event anywhere in the message stores nothing', async () => {
    const c = make(memoryFs(), { limits: { maxEvents: 10 } });
    const peer = await socket(c);
    const events: unknown[] = Array.from({ length: 25 }, (_, i) => ev('2026-03-01T10:00:00Z', { i }));
    events[22] = { id: '', timestamp: 'yesterday' };
    peer.say({ type: 'ingest', events });
    expect((await peer.waitFor(1))[0]).toMatchObject({ type: 'error', message: expect.stringMatching(/index 22/) });
    expect(c.size).toBe(0);
  });
});
