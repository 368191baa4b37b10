/**
 * `mockyard petstore.yaml --state ./state` (the built CLI on a real folder) with sessions: a
 * session's writes stay in that session (docs/sessions.md), the state folder is the shared
 * data's. Before, each session's backend opened the same folder with a write queue of its own, so
 * a session's PUT was written into state/pet.json and every client without a session read it.
 */
import { copyFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { startCli, stopCliProcesses } from '../helpers/cli-process.js';
import { makeTempDir, removeTempDirs } from '../helpers/temp-dir.js';
import { PETSTORE, KEY, AUTH, call, petsOnDisk } from '../helpers/petstore-state.js';

const cli = resolve('dist/node/cli.js');

afterEach(async () => {
  await stopCliProcesses();
  await removeTempDirs();
});

it("a session's writes stay in the session: the state files and clients without a session keep the shared data", async () => {
  const dir = await makeTempDir();
  await copyFile(PETSTORE, join(dir, 'petstore.yaml'));
  const { url } = await startCli(cli, ['petstore.yaml', '--state', './state', '--port', '0'], dir);

  const shared = (await call(`${url}/v2/pet/1`, 'GET', undefined, KEY)).json as Record<string, unknown>; // writes state/pet.json
  expect(shared.id).toBe(1);
  const inSession = await call(`${url}/v2/pet?__session=s1`, 'PUT', { ...shared, name: 'SESSION' }, AUTH);
  expect(inSession.status, JSON.stringify(inSession.json)).toBe(200);
  expect((await call(`${url}/v2/pet/1?__session=s1`, 'GET', undefined, KEY)).json.name).toBe('SESSION');

  expect((await call(`${url}/v2/pet/1`, 'GET', undefined, KEY)).json).toEqual(shared);
  expect((await call(`${url}/v2/pet/1?__session=s2`, 'GET', undefined, KEY)).json.name).not.toBe('SESSION');
  expect((await petsOnDisk(dir)).find((p) => p.id === 1)).toEqual(shared);

  // A shared write still reaches the folder, and the session keeps its own edit.
  expect((await call(`${url}/v2/pet`, 'PUT', { ...shared, name: 'SHARED' }, AUTH)).status).toBe(200);
  expect((await petsOnDisk(dir)).find((p) => p.id === 1)?.name).toBe('SHARED');
  expect((await call(`${url}/v2/pet/1?__session=s1`, 'GET', undefined, KEY)).json.name).toBe('SESSION');
});
