/**
 * `mockyard db.json` (the json-server preset), the built CLI as a real process: the admin API's
 * `DELETE data/<name>/<id>` removes what REST's `DELETE /<name>/<id>` removes (a post's comments
 * too) and says how many in `X-Deleted-Count`. Same db.json, one server each: the same data after.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { startCli, stopCliProcesses } from '../helpers/cli-process.js';
import { makeTempDir, removeTempDirs } from '../helpers/temp-dir.js';

const cli = resolve('dist/node/cli.js');

afterEach(async () => {
  await stopCliProcesses();
  await removeTempDirs();
});

const DB = {
  posts: [
    { id: 1, title: 'one' },
    { id: 2, title: 'two' },
  ],
  comments: [
    { id: 1, body: 'a', postId: 1 },
    { id: 2, body: 'b', postId: 2 },
    { id: 3, body: 'c', postId: 2 },
  ],
  profile: { name: 'typicode' },
};

async function served(): Promise<{ url: string; dir: string }> {
  const dir = await makeTempDir();
  await writeFile(join(dir, 'db.json'), `${JSON.stringify(DB, null, 2)}\n`);
  const { url } = await startCli(cli, ['db.json', '--port', '0'], dir);
  return { url, dir };
}

it('the admin delete of a post removes its comments as the REST delete does, and counts them the same', async () => {
  const rest = await served();
  const admin = await served();

  const byRest = await fetch(`${rest.url}/posts/2`, { method: 'DELETE' });
  expect(byRest.status).toBe(200);
  expect(byRest.headers.get('x-deleted-count')).toBe('3');

  const byAdmin = await fetch(`${admin.url}/_mockyard/api/data/posts/2`, { method: 'DELETE' });
  expect(byAdmin.status).toBe(204);
  expect(byAdmin.headers.get('x-deleted-count')).toBe('3');

  const restDb = await (await fetch(`${rest.url}/db`)).json();
  const adminDb = await (await fetch(`${admin.url}/db`)).json();
  expect(adminDb).toEqual(restDb);
  expect(adminDb.comments).toEqual([{ id: 1, body: 'a', postId: 1 }]);
  // And on disk, once the writes landed: db.json holds what /db answers.
  const onDisk = async (dir: string) => JSON.parse(await readFile(join(dir, 'db.json'), 'utf8'));
  await expect.poll(() => onDisk(rest.dir), { timeout: 5000 }).toEqual(restDb);
  await expect.poll(() => onDisk(admin.dir), { timeout: 5000 }).toEqual(restDb);

  // A missing item is still the admin's 404, nothing removed.
  expect((await fetch(`${admin.url}/_mockyard/api/data/posts/2`, { method: 'DELETE' })).status).toBe(404);
  expect((await (await fetch(`${admin.url}/comments`)).json()).length).toBe(1);
});
