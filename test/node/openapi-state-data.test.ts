/**
 * `mockyard petstore.yaml --state ./state`, the built CLI as a real process on a real folder: the
 * OpenAPI backend's collections kept in the state folder are in the start-up map and the devtools'
 * Data tab as they are in memory. The tab reads them as the files hold them (an edit made on disk
 * behind the server's back is what it lists), and its edit goes through the document's own
 * operation into the file: REST reads it back, and the file on disk holds it. Listing writes no
 * file; a reset and an import of a resource are stored in its file.
 */
import { copyFile, readdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { startCli, stopCliProcesses } from '../helpers/cli-process.js';
import { makeTempDir, removeTempDirs } from '../helpers/temp-dir.js';
import { PETSTORE, KEY, call, petsOnDisk } from '../helpers/petstore-state.js';

const cli = resolve('dist/node/cli.js');
const A = '/_mockyard/api';
const PET = encodeURIComponent('/pet');

afterEach(async () => {
  await stopCliProcesses();
  await removeTempDirs();
});

it('a state folder: the Data tab and the start-up map list its collections; an edit lands in the file and REST reads it', async () => {
  const dir = await makeTempDir();
  await copyFile(PETSTORE, join(dir, 'petstore.yaml'));
  const { url, output } = await startCli(cli, ['petstore.yaml', '--state', './state', '--port', '0'], dir);
  const out = output();
  expect(out).toContain('  Resources (the OpenAPI document petstore.yaml)\n');
  expect(out).toMatch(/\/v2\/pet\s+collection, 20 items\n/);

  const list = await call(`${url}${A}/data`);
  expect(list.status).toBe(200);
  expect(list.json.collections).toContainEqual({ name: '/pet', count: 20, backend: 'openapi' });
  expect(await readdir(join(dir, 'state'))).toEqual([]); // listing writes no file

  // The first page: the population the first request writes (the same items REST answers).
  const page = await call(`${url}${A}/data/${PET}?offset=0&limit=5`);
  expect(page.json).toMatchObject({ total: 20, idField: 'id' });
  const pet = page.json.items[1];
  expect((await call(`${url}/v2/pet/${pet.id}`, 'GET', undefined, KEY)).json).toEqual(pet);
  expect((await petsOnDisk(dir)).find((p) => p.id === pet.id)).toEqual(pet);

  // An edit from the Data tab: the document's PUT /pet, into the file.
  const one = await call(`${url}${A}/data/${PET}/${pet.id}`);
  const edited = await call(`${url}${A}/data/${PET}/${pet.id}`, 'PATCH', { name: 'Edited on the tab' }, { 'If-Match': one.headers.get('etag')! });
  expect(edited.status).toBe(200);
  expect(edited.json).toEqual({ ...pet, name: 'Edited on the tab' });
  expect((await call(`${url}/v2/pet/${pet.id}`, 'GET', undefined, KEY)).json.name).toBe('Edited on the tab');
  expect((await petsOnDisk(dir)).find((p) => p.id === pet.id)?.name).toBe('Edited on the tab');
  // A stale tag: 412, the file unchanged.
  expect((await call(`${url}${A}/data/${PET}/${pet.id}`, 'PATCH', { name: 'Lost' }, { 'If-Match': one.headers.get('etag')! })).status).toBe(412);
  expect((await petsOnDisk(dir)).find((p) => p.id === pet.id)?.name).toBe('Edited on the tab');

  // An edit on disk behind the server's back: the tab lists the file as it is now.
  const onDisk = await petsOnDisk(dir);
  await writeFile(join(dir, 'state', 'pet.json'), JSON.stringify([...onDisk.slice(0, 3), { ...onDisk[3], name: 'Edited on disk' }], null, 2));
  await expect.poll(async () => (await call(`${url}${A}/data`)).json.collections.find((c: { name: string }) => c.name === '/pet')?.count, { timeout: 5000 }).toBe(4);
  const now = await call(`${url}${A}/data/${PET}?offset=0&limit=10`);
  expect(now.json.total).toBe(4);
  expect(now.json.items[3].name).toBe('Edited on disk');

  // An import and a reset of the resource are stored in its file.
  const imported = await call(`${url}${A}/data/${PET}`, 'PUT', [{ id: 500, name: 'Imported', photoUrls: [] }]);
  expect(imported.status, JSON.stringify(imported.json)).toBe(200);
  expect(await petsOnDisk(dir)).toEqual([{ id: 500, name: 'Imported', photoUrls: [] }]);
  expect((await call(`${url}/v2/pet/500`, 'GET', undefined, KEY)).json.name).toBe('Imported');
  const reset = await call(`${url}${A}/data/${PET}/reset`, 'POST');
  expect(reset.json.count).toBe(20);
  const seeded = await petsOnDisk(dir);
  expect(seeded).toHaveLength(20);
  expect(seeded[0]).toEqual(page.json.items[0]); // the backend's seed again
});
