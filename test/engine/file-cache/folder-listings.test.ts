/**
 * File mode on disk: a lookup that misses both `path` and `path.json` (every POST of a new item)
 * finds `path.<ext>` in a kept listing of the folder instead of reading the folder each time; a
 * change to a name marks only the bases that name can answer, so the folder is read again only
 * for those, and an outside change is found once reported, an own write at once.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createMockApi } from '../../../src/engine/create-mock-api.js';
import { WATCHED_RECHECK_MS } from '../../../src/engine/file-cache/file-cache.js';
import { diskFs } from '../../../src/vfs/disk.js';
import type { Vfs } from '../../../src/vfs/types.js';
import { req, see } from '../../helpers/engine-request.js';
import { seedDir } from '../../helpers/mock-fs-drivers.js';
import { clockStopped, watchReports } from '../../helpers/watch-reports.js';
import { makeTempDir, removeTempDirs } from '../../helpers/temp-dir.js';

afterAll(removeTempDirs);

/** Counts the driver's readdir calls per folder. */
function countReaddirs(fs: Vfs): Map<string, number> {
  const counts = new Map<string, number>();
  const readdir = fs.readdir.bind(fs);
  fs.readdir = async (p: string) => {
    counts.set(p, (counts.get(p) ?? 0) + 1);
    return readdir(p);
  };
  return counts;
}

async function setup() {
  const dir = await makeTempDir();
  await seedDir(dir, { 'items/keep.json': { keep: true }, 'items/doc.xml': '<doc/>' });
  const fs = diskFs(dir);
  const reports = watchReports(fs);
  const readdirs = countReaddirs(fs);
  const api = createMockApi({ endpointPrefix: '/api', fs, logLevel: 'silent' });
  return { dir, fs, reports, readdirs, api };
}

describe('file mode on disk: lookup step 4 from a kept folder listing', () => {
  it('POST and DELETE of new items read their folder once, not once per POST', async () => {
    const { api, readdirs } = await setup();
    await clockStopped(async () => {
      for (let i = 0; i < 10; i++) {
        expect((await api.handle(req('POST', `/api/items/n${i}`, { json: { id: `n${i}` } })))!.status).toBe(201);
        expect((await api.handle(req('DELETE', `/api/items/n${i}`)))!.status).toBe(204);
      }
    });
    // The lookups' listing, and at most the one the query variants and the recorded layer keep.
    expect(readdirs.get('items') ?? 0).toBeLessThanOrEqual(2);
    expect((await see(await api.handle(req('GET', '/api/items/doc')))).text).toBe('<doc/>');
  });

  it('a candidate written through the engine is found at once; one created outside once reported', async () => {
    const { dir, fs, api, reports } = await setup();
    await clockStopped(async () => {
      expect((await api.handle(req('POST', '/api/items/a1', { json: { id: 'a1' } })))!.status).toBe(201); // keeps the listing
      expect((await api.handle(req('GET', '/api/items/note')))!.status).toBe(404);
      await fs.write('items/note.txt', 'own');
      expect(await (await api.handle(req('GET', '/api/items/note')))!.text()).toBe('own');
      const reported = reports.next('items');
      await writeFile(join(dir, 'items', 'late.csv'), 'a,b');
      await reported;
      expect(await (await api.handle(req('GET', '/api/items/late')))!.text()).toBe('a,b');
      // A POST to a name with a candidate is refused (400: not JSON), however the listing was kept.
      expect((await api.handle(req('POST', '/api/items/late', { json: { id: 'late' } })))!.status).toBe(400);
    });
  });

  it('a listing whose reports are lost is read again within WATCHED_RECHECK_MS', async () => {
    const dir = await makeTempDir();
    await seedDir(dir, { 'items/keep.json': {} });
    const fs = diskFs(dir);
    const watchFolder = fs.watchFolder!.bind(fs);
    fs.watchFolder = (p) => watchFolder(p, () => {}); // deaf: registers, never reports
    const api = createMockApi({ endpointPrefix: '/api', fs, logLevel: 'silent' });
    expect((await api.handle(req('POST', '/api/items/b1', { json: { id: 'b1' } })))!.status).toBe(201);
    await writeFile(join(dir, 'items', 'ghost.txt'), 'boo');
    const now = performance.now();
    const clock = vi.spyOn(performance, 'now').mockReturnValue(now + WATCHED_RECHECK_MS + 1);
    try {
      expect(await (await api.handle(req('GET', '/api/items/ghost')))!.text()).toBe('boo');
    } finally {
      clock.mockRestore();
    }
  });
});
