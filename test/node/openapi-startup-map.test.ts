/**
 * `mockyard doc.yaml`, the built CLI as a real process: the start-up map lists the collections
 * the OpenAPI backend serves, each at its URL with the items it really holds — a document
 * exported from a db.json (`mockyard export --openapi`) serves its data's 2 posts, and the map
 * says 2, not the generation default; a generated document says its 20. Every printed URL is
 * fetched and holds what the line says.
 */
import { spawnSync } from 'node:child_process';
import { copyFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { startCli, stopCliProcesses } from '../helpers/cli-process.js';
import { makeTempDir, removeTempDirs } from '../helpers/temp-dir.js';

const cli = resolve('dist/node/cli.js');

afterEach(async () => {
  await stopCliProcesses();
  await removeTempDirs();
});

/** The map's resource lines: [path below the server URL, label]. */
function resourceLines(out: string, url: string, name: string): [string, string][] {
  const header = `  Resources (the OpenAPI document ${name})\n`;
  const from = out.indexOf(header);
  expect(from, out).toBeGreaterThan(-1);
  const section = out.slice(from + header.length, out.indexOf('\n\n', from));
  return [...section.matchAll(/^ {4}(http:\/\/\S+)\s+(.+)$/gm)].map((m) => [m[1]!.slice(url.length), m[2]!]);
}

it('an exported document whose data is given: its collections with their real counts', async () => {
  const dir = await makeTempDir();
  await writeFile(join(dir, 'db.json'), JSON.stringify({
    posts: [{ id: 1, title: 'a', author: 'x' }, { id: 2, title: 'b', author: 'y' }],
    comments: [{ id: 1, body: 'c', postId: 1 }, { id: 2, body: 'd', postId: 2 }, { id: 3, body: 'e', postId: 2 }],
    profile: { name: 't' },
  }));
  const exported = spawnSync(process.execPath, [cli, 'export', 'db.json', '--openapi', 'exported.yaml'], { cwd: dir, encoding: 'utf8' });
  expect(exported.status, exported.stderr).toBe(0);
  const { url, output } = await startCli(cli, ['exported.yaml', '--port', '0'], dir);
  const out = output();
  expect(out).not.toContain('items per collection');
  expect(out).toContain('the OpenAPI document exported.yaml: generated, stateful data (seed 1)\n');
  const lines = resourceLines(out, url, 'exported.yaml');
  expect(lines).toEqual([
    ['/comments', 'collection, 3 items'],
    ['/posts', 'collection, 2 items'],
  ]);
  for (const [path, label] of lines) {
    const r = await fetch(`${url}${path}`);
    expect(r.status, path).toBe(200);
    expect(`collection, ${((await r.json()) as unknown[]).length} items`, path).toBe(label);
  }
});

it('a generated document under its server path: the collection at its prefixed URL, with the count generated', async () => {
  const dir = await makeTempDir();
  await copyFile(resolve('test/fixtures/openapi/petstore-3.0.yaml'), join(dir, 'petstore.yaml'));
  const { url, output } = await startCli(cli, ['petstore.yaml', '--port', '0', '--seed', '7'], dir);
  const lines = resourceLines(output(), url, 'petstore.yaml');
  expect(lines).toEqual([['/v1/pets', 'collection, 20 items']]);
  expect((await fetch(`${url}/v1/pets`)).status).toBe(200);
});
