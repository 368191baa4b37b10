/**
 * `mockyard petstore.yaml --state ./state`, the built CLI on a real folder: a state file deleted
 * while the server runs draws its collection again from the seed on the next read (docs/openapi.md
 * "State in a folder"), for a client's request and for the devtools' Data tab, rather than writing
 * back the state last read into memory.
 */
import { copyFile, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { startCli, stopCliProcesses } from '../helpers/cli-process.js';
import { makeTempDir, removeTempDirs } from '../helpers/temp-dir.js';
import { PETSTORE, KEY, AUTH, call, petsOnDisk } from '../helpers/petstore-state.js';

const cli = resolve('dist/node/cli.js');
const A = '/_mockyard/api';
const PET = encodeURIComponent('/pet');

afterEach(async () => {
  await stopCliProcesses();
  await removeTempDirs();
});

it('a state file deleted while the server runs: the next read draws the seeded population again and writes it', async () => {
  const dir = await makeTempDir();
  await copyFile(PETSTORE, join(dir, 'petstore.yaml'));
  const { url } = await startCli(cli, ['petstore.yaml', '--state', './state', '--port', '0'], dir);

  const seeded = (await call(`${url}${A}/data/${PET}?offset=0&limit=5`)).json.items[1] as Record<string, unknown>;
  expect((await call(`${url}/v2/pet/${seeded.id}`, 'GET', undefined, KEY)).json).toEqual(seeded); // writes state/pet.json
  const put = await call(`${url}/v2/pet`, 'PUT', { ...seeded, name: 'Changed' }, AUTH);
  expect(put.status, JSON.stringify(put.json)).toBe(200);
  expect((await call(`${url}/v2/pet/${seeded.id}`, 'GET', undefined, KEY)).json.name).toBe('Changed');
  expect((await petsOnDisk(dir)).find((p) => p.id === seeded.id)?.name).toBe('Changed');

  await rm(join(dir, 'state', 'pet.json'));
  // The Data tab shows the population the next request writes (listing writes no file) ...
  await expect.poll(async () => (await call(`${url}${A}/data/${PET}/${seeded.id}`)).json?.name, { timeout: 5000 }).toBe(seeded.name);
  // ... and a client's read draws it and writes the file again.
  expect((await call(`${url}/v2/pet/${seeded.id}`, 'GET', undefined, KEY)).json).toEqual(seeded);
  const again = await petsOnDisk(dir);
  expect(again).toHaveLength(20);
  expect(again.find((p) => p.id === seeded.id)).toEqual(seeded);
});
