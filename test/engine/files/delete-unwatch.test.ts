/**
 * File mode on disk: a DELETE stops the watch of the file it removed, so a folder where items
 * come and go (POST, DELETE) holds no watch per name it ever held; a file made again under a
 * removed name is still served, and its outside edits still show.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createMockApi } from '../../../src/engine/create-mock-api.js';
import { diskFs } from '../../../src/vfs/disk.js';
import type { Vfs } from '../../../src/vfs/types.js';
import { req, see } from '../../helpers/engine-request.js';
import { seedDir } from '../../helpers/mock-fs-drivers.js';
import { watchReports } from '../../helpers/watch-reports.js';
import { makeTempDir, removeTempDirs } from '../../helpers/temp-dir.js';

afterAll(removeTempDirs);

/** The driver's file watches not stopped yet. */
function countWatches(fs: Vfs): { active: number } {
  const count = { active: 0 };
  const watch = fs.watch!.bind(fs);
  fs.watch = (p, report) => {
    const stop = watch(p, report);
    if (stop === null) return null;
    count.active++;
    let stopped = false;
    return () => {
      if (!stopped) count.active--;
      stopped = true;
      stop();
    };
  };
  return count;
}

describe('file mode on disk: DELETE stops the removed file\'s watch', () => {
  it('POST + DELETE cycles leave no watch behind', async () => {
    const dir = await makeTempDir();
    await seedDir(dir, { 'items/keep.json': {} });
    const fs = diskFs(dir);
    const watches = countWatches(fs);
    const api = createMockApi({ endpointPrefix: '/api', fs, logLevel: 'silent' });
    for (let i = 0; i < 20; i++) {
      expect((await api.handle(req('POST', `/api/items/n${i}`, { json: { id: i } })))!.status).toBe(201);
      expect((await api.handle(req('DELETE', `/api/items/n${i}`)))!.status).toBe(204);
    }
    expect(watches.active).toBe(0);
  });

  it('a name removed and made again is served, and an outside edit of it shows once reported', async () => {
    const dir = await makeTempDir();
    await seedDir(dir, { 'items/keep.json': {} });
    const fs = diskFs(dir);
    const reports = watchReports(fs);
    const api = createMockApi({ endpointPrefix: '/api', fs, logLevel: 'silent' });
    expect((await api.handle(req('POST', '/api/items/a', { json: { v: 1 } })))!.status).toBe(201);
    expect((await api.handle(req('DELETE', '/api/items/a')))!.status).toBe(204);
    expect((await api.handle(req('GET', '/api/items/a')))!.status).toBe(404);
    expect((await api.handle(req('POST', '/api/items/a', { json: { v: 2 } })))!.status).toBe(201);
    expect((await see(await api.handle(req('GET', '/api/items/a')))).json).toEqual({ v: 2 });
    const edited = reports.next('items/a.json');
    await writeFile(join(dir, 'items', 'a.json'), '{"v":3,"outside":true}');
    await edited;
    expect((await see(await api.handle(req('GET', '/api/items/a')))).json).toEqual({ v: 3, outside: true });
  });
});
