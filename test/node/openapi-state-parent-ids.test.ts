/**
 * `mockyard doc.yaml --state ./state`, the built CLI on a real folder whose users.json (the
 * parent of `/users/{userId}/orders`) holds items whose id can name no scope a request reaches
 * (`..`) or no state file (`a\b`): the user's own edit of the file. Those ids are no scopes of the
 * orders: the server starts with its start-up map, and the Data tab lists the other users' orders.
 * Before, one such id ended the start-up ("No state file can be named …") and made `GET data` a 400.
 */
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { startCli, stopCliProcesses } from '../helpers/cli-process.js';
import { makeTempDir, removeTempDirs } from '../helpers/temp-dir.js';

const cli = resolve('dist/node/cli.js');
const DOC = resolve('test/fixtures/openapi/secured-writes-3.0.yaml');

afterEach(async () => {
  await stopCliProcesses();
  await removeTempDirs();
});

it('parent ids that name no scope or no file are left out of the start-up map and the Data tab', async () => {
  const dir = await makeTempDir();
  await mkdir(join(dir, 'state'));
  const users = [{ id: 1, name: 'one' }, { id: '..', name: 'dots' }, { id: 'a\\b', name: 'backslash' }, { id: 'x/y', name: 'slash' }, { id: 2, name: 'two' }];
  await writeFile(join(dir, 'state', 'users.json'), JSON.stringify(users));
  const { url, output } = await startCli(cli, [DOC, '--state', './state', '--port', '0'], dir);
  const out = output();
  expect(out).toMatch(/\/users\/1\/orders\s+collection/);
  expect(out).toMatch(/\/users\/2\/orders\s+collection/);
  expect(out).not.toContain('No state file');

  const list = await fetch(`${url}/_mockyard/api/data`);
  expect(list.status).toBe(200);
  const names = (await list.json()).collections.map((c: { name: string }) => c.name);
  expect(names.filter((n: string) => n.startsWith('/users/'))).toEqual(['/users/1/orders', '/users/2/orders']);
  expect(await readdir(join(dir, 'state'))).toEqual(['users.json']); // listing writes no file
});
