import { rename, rm, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { kHasBody } from '../../../src/core/body.js';
import { createMockApi } from '../../../src/engine/create-mock-api.js';
import { WATCHED_RECHECK_MS } from '../../../src/engine/file-cache/file-cache.js';
import { diskFs } from '../../../src/vfs/disk.js';
import { memoryFs } from '../../../src/vfs/memory.js';
import type { Vfs } from '../../../src/vfs/types.js';
import { req, see } from '../../helpers/engine-request.js';
import { seedDir } from '../../helpers/mock-fs-drivers.js';
import { clockStopped, watchReports } from '../../helpers/watch-reports.js';
import { makeTempDir, removeTempDirs } from '../../helpers/temp-dir.js';

afterAll(removeTempDirs);

/** Wraps a Vfs and counts reads, to prove the cache is used. */
function counting(vfs: Vfs): Vfs & { reads: number } {
  const c = Object.create(vfs) as Vfs & { reads: number };
  c.reads = 0;
  c.read = async (p: string) => {
    c.reads++;
    return vfs.read(p);
  };
  return c;
}

const PAGE = { type: 'query-param' as const, limit: 'limit', skip: 'skip', sort: 'sort', order: 'order' };

describe('caches', () => {
  it('memory: repeated GETs and queries read the file once; a write through the Vfs invalidates', async () => {
    const fs = counting(memoryFs({ 'items.json': Array.from({ length: 100 }, (_, i) => ({ id: i, even: i % 2 === 0 })) }));
    const api = createMockApi({ endpointPrefix: '/api', fs, logLevel: 'silent', pagination: { GET: PAGE }, filters: { GET: { type: 'query-param', filters: [{ key: 'even', valueType: 'boolean' }] } } });
    for (let i = 0; i < 5; i++) {
      expect((await api.handle(req('GET', '/api/items')))!.status).toBe(200);
      const r = await see(await api.handle(req('GET', `/api/items?even=true&limit=3&skip=${i}&sort=id&order=desc`)));
      expect(r.headers['x-total-count']).toBe('50');
      expect(r.json[0].id).toBe(98 - 2 * i);
    }
    expect(fs.reads).toBe(1);
    await fs.write('items.json', JSON.stringify([{ id: 'new', even: true }]));
    const r = await see(await api.handle(req('GET', '/api/items?even=true')));
    expect(r.json).toEqual([{ id: 'new', even: true }]);
    expect(fs.reads).toBe(2);
  });

  it('writes made by the engine keep the new content cached (no re-read after PATCH/PUT)', async () => {
    for (const base of [memoryFs({ 'doc.json': { n: 0 } }), diskFs(await (async () => { const d = await makeTempDir(); await seedDir(d, { 'doc.json': { n: 0 } }); return d; })())]) {
      const fs = counting(base);
      const api = createMockApi({ endpointPrefix: '/api', fs, logLevel: 'silent' });
      for (let i = 1; i <= 5; i++) {
        const r = await api.handle(req('PATCH', '/api/doc', { json: { n: i } }));
        expect(r!.status).toBe(200);
        expect((await see(await api.handle(req('GET', '/api/doc')))).json).toEqual({ n: i });
      }
      expect(fs.reads).toBe(1);
      await api.handle(req('PUT', '/api/doc', { json: { n: 'put' } }));
      expect((await see(await api.handle(req('GET', '/api/doc')))).json).toEqual({ n: 'put' });
      expect(fs.reads).toBe(1);
    }
  });

  it('a change during a slow read: later requests never get the old bytes', async () => {
    const base = memoryFs({ 'slow.json': { v: 'old' } });
    const fs = Object.create(base) as typeof base;
    let release: (() => void) | undefined;
    let block = true;
    fs.read = async (p: string) => {
      const bytes = await base.read(p);
      if (block) {
        block = false;
        await new Promise<void>((r) => (release = r));
      }
      return bytes;
    };
    const api = createMockApi({ endpointPrefix: '/api', fs, logLevel: 'silent' });
    const first = api.handle(req('GET', '/api/slow'));
    while (!release) await new Promise((r) => setTimeout(r, 1));
    await fs.write('slow.json', '{"v":"new"}');
    expect((await see(await api.handle(req('GET', '/api/slow')))).json).toEqual({ v: 'new' });
    release();
    expect((await see(await first)).json).toEqual({ v: 'old' }); // started before the change
    expect((await see(await api.handle(req('GET', '/api/slow')))).json).toEqual({ v: 'new' });
  });

  it('lookup does not depend on readdir order', async () => {
    const base = memoryFs({ 'r.zzz': 'z', 'r.aaa': 'a', 'r.txt': 'txt', 'r.csv': 'csv', 's.zzz': 'z', 's.aaa': 'a' });
    for (const reverse of [false, true]) {
      const fs = Object.create(base) as typeof base;
      fs.readdir = async (p: string) => {
        const list = await base.readdir(p);
        return reverse ? list.reverse() : list;
      };
      const api = createMockApi({ endpointPrefix: '/api', fs, logLevel: 'silent' });
      expect((await see(await api.handle(req('GET', '/api/r')))).text).toBe('txt');
      expect((await see(await api.handle(req('GET', '/api/s')))).text).toBe('a');
    }
  });

  it('memory: a file created later is found (lookup misses are invalidated)', async () => {
    const fs = memoryFs({});
    const api = createMockApi({ endpointPrefix: '/api', fs, logLevel: 'silent' });
    expect((await api.handle(req('GET', '/api/late')))!.status).toBe(404);
    await fs.write('late.json', '{"late":true}');
    expect((await see(await api.handle(req('GET', '/api/late')))).json).toEqual({ late: true });
    // a higher-priority candidate appearing later wins
    await fs.write('late/index.json', '{"index":true}');
    expect((await see(await api.handle(req('GET', '/api/late')))).json).toEqual({ index: true });
    await fs.remove('late', { recursive: true });
    expect((await see(await api.handle(req('GET', '/api/late')))).json).toEqual({ late: true });
  });

  describe('disk: changes behind the engine\'s back', () => {
    async function setup() {
      const dir = await makeTempDir();
      await seedDir(dir, { 'data.json': [{ v: 1 }] });
      const fs = counting(diskFs(dir));
      const reports = watchReports(fs);
      const api = createMockApi({ endpointPrefix: '/api', fs, logLevel: 'silent', pagination: { GET: PAGE } });
      return { dir, fs, api, reports };
    }

    /** Counts the driver's `stat` calls (after `setup`'s first use). */
    function countStats(fs: Vfs): { n: number } {
      const count = { n: 0 };
      const stat = fs.stat.bind(fs);
      fs.stat = async (p: string) => {
        count.n++;
        return stat(p);
      };
      return count;
    }
    const nextTurn = () => new Promise((r) => setImmediate(r));

    it('in-place edit with a new size is served once it is reported', async () => {
      const { dir, fs, api, reports } = await setup();
      expect((await see(await api.handle(req('GET', '/api/data')))).json).toEqual([{ v: 1 }]);
      expect((await see(await api.handle(req('GET', '/api/data?limit=1')))).json).toEqual([{ v: 1 }]);
      expect(fs.reads).toBe(1);
      const reported = reports.next('data.json');
      await writeFile(join(dir, 'data.json'), JSON.stringify([{ v: 2 }, { v: 3 }]));
      await reported;
      expect((await see(await api.handle(req('GET', '/api/data')))).json).toEqual([{ v: 2 }, { v: 3 }]);
      const q = await see(await api.handle(req('GET', '/api/data?limit=1')));
      expect(q.json).toEqual([{ v: 2 }]);
      expect(q.headers['x-total-count']).toBe('2');
    });

    it('without a watcher: one stat per file per event-loop turn; every new turn checks again', async () => {
      const { dir, fs, api } = await setup();
      fs.watch = undefined; // a driver that cannot watch
      await api.handle(req('GET', '/api/data'));
      await nextTurn();
      const stats = countStats(fs);
      await api.handle(req('GET', '/api/data'));
      await api.handle(req('GET', '/api/data'));
      await Promise.all([api.handle(req('GET', '/api/data')), api.handle(req('GET', '/api/data'))]);
      expect(stats.n).toBe(1);
      await nextTurn();
      await writeFile(join(dir, 'data.json'), JSON.stringify([{ v: 'next turn' }]));
      expect((await see(await api.handle(req('GET', '/api/data')))).json).toEqual([{ v: 'next turn' }]);
      expect(stats.n).toBeGreaterThan(1);
    });

    it('watched: no stat while nothing changes; an outside edit is reported and served at once', async () => {
      const { dir, fs, api, reports } = await setup();
      await api.handle(req('GET', '/api/data'));
      const stats = countStats(fs);
      await clockStopped(async () => {
        for (let i = 0; i < 5; i++) {
          await nextTurn();
          expect((await see(await api.handle(req('GET', '/api/data')))).json).toEqual([{ v: 1 }]);
          expect((await see(await api.handle(req('GET', '/api/data?limit=1')))).json).toEqual([{ v: 1 }]);
        }
        expect(stats.n).toBe(0);
        // The clock still stands: only the report can make the cache look at the file again.
        const reported = reports.next('data.json');
        await writeFile(join(dir, 'data.json'), JSON.stringify([{ v: 'edited' }]));
        await reported;
        expect((await see(await api.handle(req('GET', '/api/data')))).json).toEqual([{ v: 'edited' }]);
      });
      expect(stats.n).toBeGreaterThan(0);
    });

    it('watched but a report is lost: the file is checked again within WATCHED_RECHECK_MS', async () => {
      const { dir, fs, api } = await setup();
      const watch = fs.watch!.bind(fs);
      fs.watch = (p, _report) => watch(p, () => {}); // deaf: registers, never reports
      await api.handle(req('GET', '/api/data'));
      await writeFile(join(dir, 'data.json'), JSON.stringify([{ v: 'unreported' }]));
      // Within the bound the cached bytes may still be served; past it (the clock moved on, no
      // sleep) the file is checked and the edit is served.
      const now = performance.now();
      const clock = vi.spyOn(performance, 'now').mockReturnValue(now + WATCHED_RECHECK_MS + 1);
      try {
        expect((await see(await api.handle(req('GET', '/api/data')))).json).toEqual([{ v: 'unreported' }]);
      } finally {
        clock.mockRestore();
      }
    });

    it('watched folder removed and made again: its watch ends, the new folder is watched, edits in it are served once reported', async () => {
      const { dir, api, reports } = await setup();
      await seedDir(dir, { 'sub/data.json': { v: 1 } });
      expect((await see(await api.handle(req('GET', '/api/sub/data')))).json).toEqual({ v: 1 });
      const ended = reports.next('sub/data.json');
      await rm(join(dir, 'sub'), { recursive: true });
      await seedDir(dir, { 'sub/data.json': { v: 2 } });
      await ended;
      expect((await see(await api.handle(req('GET', '/api/sub/data')))).json).toEqual({ v: 2 });
      await clockStopped(async () => {
        const reported = reports.next('sub/data.json'); // only a watch on the new folder can report this
        await writeFile(join(dir, 'sub/data.json'), JSON.stringify({ v: 3 }));
        await reported;
        expect((await see(await api.handle(req('GET', '/api/sub/data')))).json).toEqual({ v: 3 });
      });
    });

    // An outside change is seen by the first request after the kernel's report has been handled;
    // the tests wait for that report (`reports.next`), not for a guessed number of turns.
    it('same size, new mtime is served once reported', async () => {
      const { dir, api, reports } = await setup();
      expect((await see(await api.handle(req('GET', '/api/data')))).json).toEqual([{ v: 1 }]);
      const reported = reports.next('data.json');
      await writeFile(join(dir, 'data.json'), JSON.stringify([{ v: 7 }]));
      const later = new Date(Date.now() + 5000);
      await utimes(join(dir, 'data.json'), later, later);
      await reported;
      expect((await see(await api.handle(req('GET', '/api/data')))).json).toEqual([{ v: 7 }]);
    });

    it('replaced by rename (editors, git) is served once reported', async () => {
      const { dir, api, reports } = await setup();
      await api.handle(req('GET', '/api/data'));
      const reported = reports.next('data.json');
      await writeFile(join(dir, 'tmp'), JSON.stringify([{ v: 9 }]));
      await rename(join(dir, 'tmp'), join(dir, 'data.json'));
      await reported;
      expect((await see(await api.handle(req('GET', '/api/data')))).json).toEqual([{ v: 9 }]);
    });

    it('deleted behind our back → 404; created behind our back → served', async () => {
      const { dir, api, reports } = await setup();
      await api.handle(req('GET', '/api/data'));
      const deleted = reports.next('data.json');
      await rm(join(dir, 'data.json'));
      await deleted;
      expect((await api.handle(req('GET', '/api/data')))!.status).toBe(404);
      expect((await api.handle(req('GET', '/api/fresh')))!.status).toBe(404);
      const created = reports.next(''); // the miss is vouched for by a watch of its folder (the root)
      await writeFile(join(dir, 'fresh.json'), '{"fresh":1}');
      await created;
      expect((await see(await api.handle(req('GET', '/api/fresh')))).json).toEqual({ fresh: 1 });
    });

    /** Counts the driver's lookup calls (`stat` and `readdir`). */
    function countLookups(fs: Vfs): { n: number } {
      const count = countStats(fs);
      const readdir = fs.readdir.bind(fs);
      fs.readdir = async (p: string) => {
        count.n++;
        return readdir(p);
      };
      return count;
    }

    it('a miss is remembered while its folder is watched (no lookup per request); a file created behind our back is served once reported', async () => {
      const { dir, fs, api, reports } = await setup();
      const lookups = countLookups(fs);
      await clockStopped(async () => {
        for (let i = 0; i < 5; i++) {
          expect((await api.handle(req('GET', '/api/nothing')))!.status).toBe(404);
          expect((await api.handle(req('GET', '/api/sub/item')))!.status).toBe(404); // no such folder: its parent is watched
          await nextTurn();
        }
        const firstLookups = lookups.n;
        expect(firstLookups).toBeGreaterThan(0);
        for (let i = 0; i < 5; i++) {
          expect((await api.handle(req('GET', '/api/nothing')))!.status).toBe(404);
          expect((await api.handle(req('GET', '/api/sub/item')))!.status).toBe(404);
        }
        expect(lookups.n).toBe(firstLookups);
      });
      // Any extension (lookup step 4), and a file in a folder that did not exist (both reported
      // by the watch of the root folder).
      const reported = reports.next('');
      await writeFile(join(dir, 'nothing.txt'), 'now there');
      await seedDir(dir, { 'sub/item.json': { now: 'there' } });
      await reported;
      expect(await (await api.handle(req('GET', '/api/nothing')))!.text()).toBe('now there');
      expect((await see(await api.handle(req('GET', '/api/sub/item')))).json).toEqual({ now: 'there' });
    });

    it('a remembered miss whose report is lost is looked up again within WATCHED_RECHECK_MS', async () => {
      const { dir, fs, api } = await setup();
      const watchFolder = fs.watchFolder!.bind(fs);
      fs.watchFolder = (p, _report) => watchFolder(p, () => {}); // deaf: registers, never reports
      expect((await api.handle(req('GET', '/api/ghost')))!.status).toBe(404);
      await writeFile(join(dir, 'ghost.json'), '{"ghost":true}');
      const now = performance.now();
      const clock = vi.spyOn(performance, 'now').mockReturnValue(now + WATCHED_RECHECK_MS + 1);
      try {
        expect((await see(await api.handle(req('GET', '/api/ghost')))).json).toEqual({ ghost: true });
      } finally {
        clock.mockRestore();
      }
    });

    it('a folder that exists but cannot be watched is not stood in for by its parent: its misses are looked up every time', async () => {
      const { dir, fs, api } = await setup();
      await seedDir(dir, { 'locked/keep.json': {} });
      const watchFolder = fs.watchFolder!.bind(fs);
      fs.watchFolder = (p, report) => (p.endsWith('locked') ? null : watchFolder(p, report)); // e.g. the watch budget is spent
      expect((await api.handle(req('GET', '/api/locked/item')))!.status).toBe(404);
      // The parent's watch would not see this (not recursive): the miss must not have been kept.
      await writeFile(join(dir, 'locked', 'item.json'), '{"item":true}');
      expect((await see(await api.handle(req('GET', '/api/locked/item')))).json).toEqual({ item: true });
    });

    it('a miss on a folder without index.json is not remembered: an index created behind our back is served at once', async () => {
      const { dir, api } = await setup();
      await seedDir(dir, { 'box/other.json': { other: true } });
      expect((await api.handle(req('GET', '/api/box')))!.status).toBe(404);
      expect((await api.handle(req('GET', '/api/box')))!.status).toBe(404);
      await writeFile(join(dir, 'box', 'index.json'), '{"index":true}');
      expect((await see(await api.handle(req('GET', '/api/box')))).json).toEqual({ index: true });
    });

    it('deleted behind our back with another candidate: the next candidate is served once reported', async () => {
      const { dir, api, reports } = await setup();
      await writeFile(join(dir, 'data.xml'), '<data/>');
      expect((await see(await api.handle(req('GET', '/api/data')))).json).toEqual([{ v: 1 }]);
      const deleted = reports.next('data.json');
      await rm(join(dir, 'data.json'));
      await deleted;
      expect((await see(await api.handle(req('GET', '/api/data')))).text).toBe('<data/>');
    });

    it('a PATCH after an outside edit patches the new content', async () => {
      const { dir, api, reports } = await setup();
      await api.handle(req('GET', '/api/data'));
      const reported = reports.next('data.json');
      await writeFile(join(dir, 'data.json'), JSON.stringify([{ v: 'outside' }, 1]));
      await reported;
      const r = await see(await api.handle(req('PATCH', '/api/data', { body: new TextEncoder().encode('[{"op":"add","path":"/-","value":2}]'), headers: { 'content-type': 'application/json-patch+json' } })));
      expect(r.json).toEqual([{ v: 'outside' }, 1, 2]);
    });
  });
});

describe('cached GET hot path (serveCached) answers exactly as the full path', () => {
  const withBody = (path: string): Request => {
    const r = req('GET', path);
    Object.defineProperty(r, kHasBody, { value: true }); // what the node host says for a GET with a body
    return r;
  };
  for (const driver of ['memory', 'disk'] as const) {
    it(`${driver}: handlers still win, bodies and bad parameters are still refused, delay still applies`, async () => {
      const tree = { 'items.json': [{ id: 1 }, { id: 2 }, { id: 3 }], 'claimed.json': { from: 'file' } };
      let fs: Vfs;
      if (driver === 'memory') fs = memoryFs(tree);
      else {
        const dir = await makeTempDir();
        await seedDir(dir, tree);
        fs = diskFs(dir);
      }
      const api = createMockApi({
        endpointPrefix: '/api', fs, logLevel: 'silent', pagination: { GET: PAGE },
        handlers: [
          { pattern: '/claimed', method: 'GET', handle: () => ({ from: 'handler' }) },
          // HEAD of a cached file: the file is warmed by GET, then a HEAD handler must win.
          { pattern: '/items', method: 'HEAD', handle: (_req, res) => void res.status(204).set('x-from', 'handler').end() },
        ],
      });
      // Warm the caches (file contents and lookups) through the full path.
      for (const p of ['/api/items', '/api/claimed.json', '/api/items?limit=1']) await api.handle(req('GET', p));
      expect((await see(await api.handle(req('GET', '/api/items?limit=2&skip=1')))).json).toEqual([{ id: 2 }, { id: 3 }]);
      const head = await see(await api.handle(req('HEAD', '/api/claimed.json')));
      expect([head.status, head.headers['x-total-count'], head.text]).toEqual([200, '1', '']);
      const claimedHead = await see(await api.handle(req('HEAD', '/api/items')));
      expect([claimedHead.status, claimedHead.headers['x-from']]).toEqual([204, 'handler']);
      expect((await see(await api.handle(req('GET', '/api/claimed')))).json).toEqual({ from: 'handler' });
      expect((await see(await api.handle(req('HEAD', '/api/claimed')))).status).toBe(200);
      expect((await see(await api.handle(withBody('/api/items')))).status).toBe(400);
      const bad = await see(await api.handle(req('GET', '/api/items?limit=-1')));
      expect(bad.status).toBe(400);
      expect(bad.json.error).toBe('BAD_REQUEST');
      await api.close();

      // The global delay holds a cached answer too: with fake timers, the answer waits for the
      // 60 ms timer and for nothing else (no measured time, no sleep).
      const slow = createMockApi({ endpointPrefix: '/api', fs, logLevel: 'silent', delay: 60 });
      await slow.handle(req('GET', '/api/items')); // warm, with real timers
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      try {
        let answered = false;
        const pending = slow.handle(req('GET', '/api/items')).then((r) => ((answered = true), r));
        while (vi.getTimerCount() === 0) await new Promise((r) => setImmediate(r)); // the delay's timer is set
        await vi.advanceTimersByTimeAsync(59);
        expect(answered).toBe(false);
        await vi.advanceTimersByTimeAsync(1);
        expect((await pending)!.status).toBe(200);
        expect(answered).toBe(true);
      } finally {
        vi.useRealTimers();
      }
      await slow.close();
    });
  }
});

describe('disk: files the engine creates are watched too', () => {
  it('a file PUT into a new folder is served from the cache without a stat per request, and an outside edit still shows', async () => {
    const dir = await makeTempDir();
    const fs = diskFs(dir);
    const reports = watchReports(fs);
    const api = createMockApi({ endpointPrefix: '/api', fs, logLevel: 'silent' });
    const put = await api.handle(req('PUT', '/api/fresh/folder/doc.json', { json: { v: 1 } }));
    expect(put!.status).toBe(201);
    let stats = 0;
    const stat = fs.stat.bind(fs);
    fs.stat = async (p: string) => {
      stats++;
      return stat(p);
    };
    // The watch starts after the write (the kernel queues no event of it for the new watcher);
    // one turn lets anything already queued be dispatched, then one GET confirms the entry.
    await new Promise((r) => setImmediate(r));
    await clockStopped(async () => {
      await api.handle(req('GET', '/api/fresh/folder/doc.json'));
      const after = stats;
      for (let i = 0; i < 3; i++) {
        await new Promise((r) => setImmediate(r));
        expect((await see(await api.handle(req('GET', '/api/fresh/folder/doc.json')))).json).toEqual({ v: 1 });
      }
      expect(stats).toBe(after);
      // The clock stands: the edit can only be noticed through the watch's report.
      const reported = reports.next('fresh/folder/doc.json');
      await writeFile(join(dir, 'fresh/folder/doc.json'), JSON.stringify({ v: 'outside' }));
      await reported;
      expect((await see(await api.handle(req('GET', '/api/fresh/folder/doc.json')))).json).toEqual({ v: 'outside' });
    });
    await api.close();
  });
});
