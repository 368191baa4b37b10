/**
 * The json-db driver (db.json as a folder): keys as files, writes coalesced into one atomic
 * rewrite, outside edits served by the next request; on memoryFs (the browser's case too) and on
 * a real disk folder.
 */
import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMockApi, type MockApi } from '../../src/engine/create-mock-api.js';
import { diskFs } from '../../src/vfs/disk.js';
import { jsonDbFs } from '../../src/vfs/json-db.js';
import { memoryFs } from '../../src/vfs/memory.js';
import { req, see } from '../helpers/engine-request.js';
import { makeTempDir, removeTempDirs } from '../helpers/temp-dir.js';
import { watchReports } from '../helpers/watch-reports.js';
import type { Vfs } from '../../src/vfs/types.js';

const DB = { posts: [{ id: 1, title: 'json-server', author: 'typicode' }], comments: [{ id: 1, body: 'some comment', postId: 1 }], profile: { name: 'typicode' } };
const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c()));
  await removeTempDirs();
});

const text = (b: Uint8Array) => new TextDecoder().decode(b);

describe('jsonDbFs on memoryFs', () => {
  it('shows top-level keys as <key>.json files and refuses folders and appends', async () => {
    const inner = memoryFs({ 'db.json': DB });
    const db = jsonDbFs(inner, 'db.json');
    closers.push(() => db.close!());
    expect((await db.readdir('')).map((e) => e.name)).toEqual(['comments.json', 'posts.json', 'profile.json']);
    expect(JSON.parse(text(await db.read('profile.json')))).toEqual({ name: 'typicode' });
    expect(await db.stat('nope.json')).toBeNull();
    await expect(db.mkdir('a')).rejects.toMatchObject({ code: 'EINVAL' });
    await expect(db.append('posts.json', 'x')).rejects.toMatchObject({ code: 'EINVAL' });
    await expect(db.write('x.json', '{nope')).rejects.toMatchObject({ code: 'EINVAL' });
  });

  it('coalesces a burst of writes into one rewrite of the file, losing none', async () => {
    const inner = memoryFs({ 'db.json': { a: [], b: 1 } });
    let rewrites = 0;
    inner.onChange((p) => { if (p === 'db.json') rewrites++; });
    const db = jsonDbFs(inner, 'db.json', { flushDelayMs: 5 });
    closers.push(() => db.close!());
    await db.ready();
    for (let i = 0; i < 50; i++) await db.writeJson!('a.json', Array.from({ length: i + 1 }, (_, j) => j));
    await db.write('c.json', '{"new":true}');
    await db.flush();
    expect(rewrites).toBe(1);
    const onDisk = JSON.parse(text(await inner.read('db.json')));
    expect(onDisk.a).toHaveLength(50);
    expect(onDisk.c).toEqual({ new: true });
    expect(onDisk.b).toBe(1);
  });

  it('serves an outside change of the file (another writer on the inner Vfs) at the next read', async () => {
    const inner = memoryFs({ 'db.json': DB });
    const fs = jsonDbFs(inner, 'db.json');
    const api = createMockApi({ endpointPrefix: '/api', fs, preset: 'json-server', logLevel: 'silent' });
    closers.push(() => api.close(), () => fs.close!());
    expect((await see(await api.handle(req('GET', '/api/profile')))).json).toEqual({ name: 'typicode' });
    await inner.write('db.json', JSON.stringify({ ...DB, profile: { name: 'changed' } }));
    expect((await see(await api.handle(req('GET', '/api/profile')))).json).toEqual({ name: 'changed' });
  });

  it('keeps serving the last good document while the file is empty or broken (an editor mid-save)', async () => {
    const inner = memoryFs({ 'db.json': DB });
    const warnings: string[] = [];
    const db = jsonDbFs(inner, 'db.json', { onWarning: (m) => warnings.push(m) });
    closers.push(() => db.close!());
    await db.ready();
    await inner.write('db.json', '');
    expect(JSON.parse(text(await db.read('profile.json')))).toEqual({ name: 'typicode' });
    await inner.write('db.json', '{"profile": {');
    expect(JSON.parse(text(await db.read('profile.json')))).toEqual({ name: 'typicode' });
    expect(warnings.join('\n')).toMatch(/not a valid JSON object/);
    await db.writeJson!('posts.json', []);
    await db.flush();
    expect(JSON.parse(text(await inner.read('db.json'))).profile).toEqual({ name: 'typicode' });
  });

  it('the engine over mock.db + fs: collections, preset and writes back into db.json', async () => {
    const inner = memoryFs({ 'db.json': DB });
    const api = createMockApi({ endpointPrefix: '/api', fs: inner, db: 'db.json', preset: 'json-server', logLevel: 'silent' });
    closers.push(() => api.close());
    expect((await see(await api.handle(req('GET', '/api/posts/1')))).json).toEqual(DB.posts[0]);
    const created = await see(await api.handle(req('POST', '/api/posts', { json: { title: 'b' } })));
    expect(created.status).toBe(201);
    expect(created.json).toEqual({ id: 2, title: 'b' });
    await api.close();
    expect(JSON.parse(text(await inner.read('db.json'))).posts).toEqual([...DB.posts, { id: 2, title: 'b' }]);
  });
});

describe('jsonDbFs on disk', () => {
  it('keeps the file valid JSON with its indentation, and picks up an edit made with an editor', async () => {
    const dir = await makeTempDir();
    const file = join(dir, 'db.json');
    await writeFile(file, `${JSON.stringify(DB, null, 4)}\n`);
    const api = createMockApi({ endpointPrefix: '/api', fs: diskFs(dir), db: 'db.json', collections: true, logLevel: 'silent' });
    closers.push(() => api.close());
    expect((await see(await api.handle(req('PATCH', '/api/posts/1', { json: { views: 3 } })))).json).toEqual({ ...DB.posts[0], views: 3 });
    await api.close(); // persists what is pending
    const saved = await readFile(file, 'utf8');
    expect(saved).toMatch(/^\{\n {4}"posts"/);
    expect(JSON.parse(saved).posts[0]).toEqual({ ...DB.posts[0], views: 3 });

    const disk = diskFs(dir);
    const reports = watchReports(disk);
    const api2 = createMockApi({ endpointPrefix: '/api', fs: disk, db: 'db.json', collections: true, logLevel: 'silent' });
    closers.push(() => api2.close());
    expect((await see(await api2.handle(req('GET', '/api/profile')))).json).toEqual({ name: 'typicode' });
    const reported = reports.next('db.json');
    await writeFile(file, JSON.stringify({ ...DB, profile: { name: 'edited' } }));
    await reported; // served by the first request after the watch reported the edit
    expect((await see(await api2.handle(req('GET', '/api/profile')))).json).toEqual({ name: 'edited' });
  });

  async function dbOnDisk(): Promise<{ dir: string; disk: Vfs; replace(name: string): Promise<void> }> {
    const dir = await makeTempDir();
    await writeFile(join(dir, 'db.json'), JSON.stringify(DB));
    // As editors and git do: a new file renamed over the old one.
    const replace = async (name: string) => {
      await writeFile(join(dir, 'db.json.tmp'), JSON.stringify({ ...DB, profile: { name } }));
      await rename(join(dir, 'db.json.tmp'), join(dir, 'db.json'));
    };
    return { dir, disk: diskFs(dir), replace };
  }
  const profileOf = async (db: Vfs) => JSON.parse(text(await db.read('profile.json'))).name;

  it('an edit behind its back is served by the first read after its watch report (no periodic re-check needed)', async () => {
    const { disk, replace } = await dbOnDisk();
    const reports = watchReports(disk);
    const db = jsonDbFs(disk, 'db.json', { recheckMs: 0 }); // reports only
    closers.push(() => db.close!());
    expect(await profileOf(db)).toBe('typicode');
    for (const name of ['edited', 'edited again']) {
      const reported = reports.next('db.json');
      await replace(name);
      await reported;
      expect(await profileOf(db)).toBe(name);
    }
  });

  it('a lost report: the file is re-checked every recheckMs (250 ms by default)', async () => {
    const { disk, replace } = await dbOnDisk();
    disk.watch = undefined; // a watch that never reports (a network mount)
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const db = jsonDbFs(disk, 'db.json');
      closers.push(() => db.close!());
      expect(await profileOf(db)).toBe('typicode');
      await replace('edited');
      expect(await profileOf(db)).toBe('typicode'); // nothing told it yet
      await vi.advanceTimersByTimeAsync(249);
      expect(await profileOf(db)).toBe('typicode');
      await vi.advanceTimersByTimeAsync(1); // the re-check: a stat, then a re-read when it differs
      await vi.waitFor(async () => expect(await profileOf(db)).toBe('edited'));
    } finally {
      vi.useRealTimers();
    }
  });
});
