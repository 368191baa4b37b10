/**
 * `mockyard doc.yaml --state ./state` (the built CLI, a real folder) with a string path parameter
 * whose value becomes a folder name (`/users/{userId}/orders` → state/users/<userId>/orders.json):
 * a value longer than a file system takes in one name (255 bytes) is a 400 naming the scope, as
 * `..` or `a/b` are, and nothing is written. Before, it was a 500 (ENAMETOOLONG from the disk).
 */
import { readFile, readdir, writeFile } from 'node:fs/promises';
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

it('a path parameter value too long for a file name is a 400, nothing written', async () => {
  const dir = await makeTempDir();
  // The same document with string ids, so that any text is a userId the document accepts.
  await writeFile(join(dir, 'doc.yaml'), (await readFile(DOC, 'utf8')).replaceAll('schema: { type: integer } }', 'schema: { type: string } }'));
  const { url } = await startCli(cli, ['doc.yaml', '--state', './state', '--port', '0'], dir);

  for (const long of ['a'.repeat(300), 'é'.repeat(200)]) {
    const r = await fetch(`${url}/users/${encodeURIComponent(long)}/orders`);
    const body = await r.json();
    expect(r.status, JSON.stringify(body).slice(0, 200)).toBe(400);
    expect(body.message).toContain('No state file can be named for /users/{userId}/orders');
  }
  expect(await readdir(join(dir, 'state'))).toEqual([]);

  const ok = await fetch(`${url}/users/${'b'.repeat(240)}/orders`);
  expect(ok.status).toBe(200);
  expect(await readdir(join(dir, 'state', 'users'))).toEqual(['b'.repeat(240)]);
});
