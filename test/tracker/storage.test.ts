import { readFile, readdir, writeFile, appendFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createCollector } from '../../src/tracker/collector.js';
import type { Collector } from '../../src/tracker/types.js';
import { diskFs } from '../../src/vfs/disk.js';
import { memoryFs } from '../../src/vfs/memory.js';
import type { Vfs } from '../../src/vfs/types.js';
import { makeTempDir, removeTempDirs } from '../helpers/temp-dir.js';
import { batch, ev, ingest, readAll, recordingLogger, storageCollectorsPerTest } from './collector-client.js';

const { make, keep } = storageCollectorsPerTest();
afterAll(removeTempDirs);

const drivers: Array<[string, () => Promise<{ fs: Vfs; dir?: string }>]> = [
  ['memoryFs', async () => ({ fs: memoryFs() })],
  ['diskFs', async () => { const dir = await makeTempDir(); return { fs: diskFs(dir), dir }; }],
];

for (const [name, setup] of drivers) {
  describe(`storage on ${name}`, () => {
    it('writes one JSONL segment per UTC hour, one line per event', async () => {
      const { fs } = await setup();
      const c = make(fs);
      await ingest(c, batch([ev('2026-03-01T10:59:59.999Z', { n: 1 }), ev('2026-03-01T13:00:00+02:00', { n: 2 }), ev('2026-03-01T10:00:00Z', { n: 3 })]));
      const names = (await fs.readdir('events')).map((d) => d.name);
      expect(names).toEqual(['2026-03-01T10.jsonl', '2026-03-01T11.jsonl']);
      const lines = new TextDecoder().decode(await fs.read('events/2026-03-01T10.jsonl')).split('\n');
      expect(lines.at(-1)).toBe('');
      // batch markers are JSON lines without an id; the events are the lines with one
      expect(lines.slice(0, -1).map((l) => JSON.parse(l)).filter((e) => e.id).map((e) => e.n)).toEqual([1, 3]);
    });

    it('a restart restores every event with its id, in the same order', async () => {
      const { fs } = await setup();
      const c1 = make(fs);
      await ingest(c1, batch(Array.from({ length: 50 }, (_, i) => ev(`2026-03-01T${String(i % 24).padStart(2, '0')}:00:00Z`, { n: i }))));
      await ingest(c1, batch([ev('2026-03-01T05:00:00Z', { n: 'tie' })]));
      const before = await readAll(c1);
      await c1.close();
      const c2 = make(fs);
      await c2.ready;
      expect(c2.size).toBe(51);
      const after = await readAll(c2);
      expect(after).toEqual(before);
      // new events keep going into the same segments
      await ingest(c2, batch([ev('2026-03-01T05:00:00Z', { n: 'later' })]));
      const again = await readAll(c2);
      expect(again.total).toBe(52);
      expect(again.events.find((e: any) => e.n === 'later')).toBeDefined();
    });

    it('a batch whose write fails in one segment is taken back out of the others (no duplicates after retry and restart)', async () => {
      const { fs } = await setup();
      let failNext = true;
      const flaky: Vfs = Object.assign(Object.create(fs) as Vfs, {
        append: async (path: string, data: Uint8Array | string) => {
          if (failNext && path.endsWith('T01.jsonl')) {
            failNext = false;
            throw new Error('ENOSPC: no space left on device');
          }
          return fs.append(path, data);
        },
      });
      const log = recordingLogger();
      const c1 = make(flaky, { logger: log.sink });
      const body = batch([ev('2026-03-01T00:10:00Z', { n: 'A' }), ev('2026-03-01T01:10:00Z', { n: 'B' })]);
      expect((await ingest(c1, body)).status).toBe(500);
      expect((await readAll(c1)).total).toBe(0);
      expect((await ingest(c1, body)).status).toBe(200);
      await c1.close();
      const c2 = make(fs);
      await c2.ready;
      const after = await readAll(c2);
      expect(after.events.map((e: any) => e.n)).toEqual(['B', 'A']);
    });

    it('concurrent batches never interleave lines', async () => {
      const { fs } = await setup();
      const c = make(fs);
      const results = await Promise.all(Array.from({ length: 40 }, (_, b) =>
        ingest(c, batch(Array.from({ length: 25 }, (_, i) => ev('2026-03-01T10:30:00Z', { b, i, pad: 'y'.repeat(200) }))), { gzip: b % 2 === 0 })));
      expect(results.every((r) => r.status === 200)).toBe(true);
      const text = new TextDecoder().decode(await fs.read('events/2026-03-01T10.jsonl'));
      const lines = text.trimEnd().split('\n').filter((l) => !l.startsWith('{"$batch":'));
      expect(lines).toHaveLength(1000);
      const parsed = lines.map((l) => JSON.parse(l));
      // each batch's lines are contiguous and in order
      for (let k = 0; k < 40; k++) {
        const b = parsed[k * 25].b;
        expect(parsed.slice(k * 25, k * 25 + 25).map((e) => `${e.b}:${e.i}`)).toEqual(Array.from({ length: 25 }, (_, i) => `${b}:${i}`));
      }
      expect(new Set(parsed.map((e) => e.id)).size).toBe(1000);
    });

    it('a torn last line is skipped with a warning on restart, cut off, and later appends stay readable', async () => {
      const { fs } = await setup();
      const c1 = make(fs);
      await ingest(c1, batch([ev('2026-03-01T10:00:00Z', { n: 1 }), ev('2026-03-01T10:00:01Z', { n: 2 })]));
      await c1.close();
      await fs.append('events/2026-03-01T10.jsonl', '{"id":"0190-torn","timestamp":"2026-03-01T10:00:02Z","n":');
      const log = recordingLogger();
      const c2 = make(fs, { logger: log.sink, logLevel: 'warn' });
      await c2.ready;
      expect(log.warn.join('\n')).toMatch(/torn last line in segment 2026-03-01T10\.jsonl/);
      expect(c2.size).toBe(2);
      await ingest(c2, batch([ev('2026-03-01T10:00:03Z', { n: 3 })]));
      await c2.close();
      const c3 = make(fs, { logger: log.sink, logLevel: 'warn' });
      await c3.ready;
      expect((await readAll(c3)).events.map((e: any) => e.n)).toEqual([3, 2, 1]);
      expect(log.warn).toHaveLength(1);
    });

    it('retention by count deletes whole oldest segments once all their events are outside the newest N', async () => {
      const { fs } = await setup();
      const c = make(fs, { retention: { maxEvents: 3 } });
      await ingest(c, batch([ev('2026-03-01T08:00:00Z'), ev('2026-03-01T08:10:00Z')]));
      await ingest(c, batch([ev('2026-03-01T09:00:00Z'), ev('2026-03-01T09:10:00Z')]));
      // 4 events: hour 08 has one event among the newest 3 → kept
      expect(c.size).toBe(4);
      await ingest(c, batch([ev('2026-03-01T10:00:00Z')]));
      // newest 3 = 10:00, 09:10, 09:00 → hour 08 is wholly outside → dropped
      expect(c.size).toBe(3);
      await c.close();
      expect((await fs.readdir('events')).map((d) => d.name)).toEqual(['2026-03-01T09.jsonl', '2026-03-01T10.jsonl']);
      const c2 = make(fs, { retention: { maxEvents: 3 } });
      await c2.ready;
      expect((await readAll(c2)).total).toBe(3);
    });

    it('retention by age deletes segments whose events are all older than maxAgeMs (also at start-up)', async () => {
      const { fs } = await setup();
      const now = Date.now();
      const iso = (msAgo: number) => new Date(now - msAgo).toISOString();
      const H = 3_600_000;
      const c1 = make(fs);
      await ingest(c1, batch([ev(iso(5 * H), { n: 'old' }), ev(iso(4 * H), { n: 'old2' }), ev(iso(1000), { n: 'new' })]));
      await c1.close();
      expect((await fs.readdir('events')).length).toBeGreaterThanOrEqual(2);
      const c2 = make(fs, { retention: { maxAgeMs: 2 * H } });
      await c2.ready;
      expect((await readAll(c2)).events.map((e: any) => e.n)).toEqual(['new']);
      await c2.close();
      const left = (await fs.readdir('events')).map((d) => d.name);
      expect(left).toEqual([`${new Date(now - 1000).toISOString().slice(0, 13)}.jsonl`]);
    });

    it('memory-only mode (no fs) keeps events without files', async () => {
      const c = createCollector({ appId: 'x', logLevel: 'silent' });
      keep(c);
      await ingest(c, batch([ev('2026-03-01T10:00:00Z')]));
      expect(c.size).toBe(1);
    });
  });
}

describe('disk specifics', () => {
  it('segments are plain JSONL files in storage.dir', async () => {
    const dir = await makeTempDir();
    const c = make(diskFs(dir), { storage: { fs: diskFs(dir), dir: 'data/tracker' } });
    await ingest(c, batch([ev('2026-03-01T10:00:00Z', { n: 1 })]));
    expect(await readdir(join(dir, 'data/tracker'))).toEqual(['2026-03-01T10.jsonl']);
    const line = JSON.parse((await readFile(join(dir, 'data/tracker/2026-03-01T10.jsonl'), 'utf8')).trim());
    expect(line).toMatchObject({ n: 1, timestamp: '2026-03-01T10:00:00Z' });
  });

  it('an unreadable middle line and foreign files are skipped; the rest loads', async () => {
    const dir = await makeTempDir();
    await writeFile(join(dir, 'README.txt'), 'not a segment');
    await writeFile(join(dir, '2026-03-01T10.jsonl'), '{"id":"a","timestamp":"2026-03-01T10:00:00Z"}\ngarbage\n{"id":"b","timestamp":"2026-03-01T10:00:01Z"}\n');
    await appendFile(join(dir, '2026-03-01T11.jsonl'), '');
    const log = recordingLogger();
    const c = make(diskFs(dir), { storage: { fs: diskFs(dir), dir: '' }, logger: log.sink, logLevel: 'warn' });
    await c.ready;
    expect(c.size).toBe(2);
    expect(log.warn.join()).toMatch(/unreadable line 2/);
  });
});

describe('storageDir (Node hosts)', () => {
  it("puts the segments in that folder on disk through the runtime's disk default", async () => {
    const { nodeRuntime } = await import('../../src/node/runtime.js');
    const dir = await makeTempDir();
    const c = createCollector({ appId: 'x', logLevel: 'silent', storageDir: dir }, nodeRuntime);
    keep(c);
    await ingest(c, batch([ev('2026-03-01T10:00:00Z', { n: 1 })]));
    expect(await readdir(dir)).toEqual(['2026-03-01T10.jsonl']);
    expect(() => createCollector({ appId: 'x', storageDir: dir, storage: { fs: memoryFs() } })).toThrow(/tracker\.storageDir/);
  });
});
