/**
 * What a newcomer does first: open the URLs the `mockyard` command prints, and the links of its
 * home page. Each one answers; a folder whose own URL answers nothing (no index.json, no file
 * named like it) is shown as where its files are (`/api/uploads/<file>`), not as a link.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { runCli, stopClis } from '../helpers/cli-run.js';
import { makeTempDir, removeTempDirs } from '../helpers/temp-dir.js';

afterEach(async () => {
  await stopClis();
  await removeTempDirs();
});

it.each([['file mode', ['--preset', 'none']], ['the json-server preset', []]])('every resource URL of the start-up map and the home page answers (%s)', async (_mode, flags) => {
  const dir = await makeTempDir();
  const mocks = join(dir, 'mocks');
  for (const sub of ['uploads', 'users', 'pages']) await mkdir(join(mocks, sub), { recursive: true });
  await writeFile(join(mocks, 'users.json'), '[{"id":1,"name":"Ada"}]');
  await writeFile(join(mocks, 'users', '1.json'), '{"id":1,"name":"Ada"}'); // users/ answers with users.json
  await writeFile(join(mocks, 'uploads', 'readme.txt'), 'hello'); // uploads/ answers nothing: its files do
  await writeFile(join(mocks, 'pages', 'index.json'), '{"home":true}'); // pages/ answers with its index.json
  const cli = await runCli(['--fs-dir', 'mocks', ...flags, '--port', '0'], dir);
  const base = cli.server!.url;

  const from = cli.out.indexOf('Resources');
  const section = cli.out.slice(from, cli.out.indexOf('\n\n', from));
  const printed = [...section.matchAll(/^\s+(http:\/\/\S+)\s+(.+)$/gm)].map((m) => [m[1]!.slice(base.length), m[2]!] as const);
  expect(printed).toEqual([
    ['/api/pages/', 'folder, 1 entry'],
    ['/api/uploads/<file>', 'folder, 1 entry'],
    ['/api/users/', 'folder, 1 entry'],
    ['/api/users', 'collection, 1 item'],
  ]);
  for (const [path] of printed) {
    const url = `${base}${path.replace('<file>', 'readme.txt')}`;
    expect((await fetch(url)).status, url).toBe(200);
  }

  const home = await (await fetch(`${base}/`, { headers: { accept: 'text/html' } })).text();
  const links = [...home.matchAll(/<a href="([^"]+)"/g)].map((m) => m[1]!);
  expect(links).toEqual(['/_mockyard/', '/api/pages/', '/api/users/', '/api/users']);
  for (const link of links) expect((await fetch(`${base}${link}`)).status, link).toBe(200);
  expect(home).toContain('<code>/api/uploads/&lt;file&gt;</code>');
});

it('the GraphQL endpoint the json-server preset serves is in the start-up map and on the home page, at the URL that answers', async () => {
  const dir = await makeTempDir();
  await writeFile(join(dir, 'db.json'), '{"posts":[{"id":1,"title":"a"}]}');
  for (const [flags, path] of [[[], '/graphql'], [['--prefix', '/api'], '/api/graphql']] as const) {
    const cli = await runCli(['db.json', ...flags, '--port', '0'], dir);
    const base = cli.server!.url;
    const lines = cli.out.split('\n');
    const at = lines.findIndex((l) => l.startsWith('  GraphQL'));
    expect(at, cli.out).toBeGreaterThan(0);
    expect(lines[at + 1]!.trim()).toBe(`${base}${path}`);
    const res = await fetch(lines[at + 1]!.trim(), { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query":"{ allPosts { title } }"}' });
    expect(await res.json()).toEqual({ data: { allPosts: [{ title: 'a' }] } });
    const home = await (await fetch(`${base}/`, { headers: { accept: 'text/html' } })).text();
    expect(home).toContain(`<h2>GraphQL</h2>\n<p><code>${path}</code>`);
    await stopClis();
  }
  // Off without the preset: no line.
  await mkdir(join(dir, 'mocks'));
  const plain = await runCli(['--fs-dir', 'mocks', '--preset', 'none', '--port', '0'], dir);
  expect(plain.out).not.toContain('GraphQL');
});

it('the bare prefix the start-up lines print (http://…/api) says what it is when nothing is there', async () => {
  const dir = await makeTempDir();
  await mkdir(join(dir, 'mocks'));
  await writeFile(join(dir, 'mocks', 'users.json'), '[]');
  const cli = await runCli(['--fs-dir', 'mocks', '--port', '0'], dir);
  expect(cli.out).toContain(`${cli.server!.url}/api  →  files in`);
  for (const path of ['/api', '/api/']) {
    const res = await fetch(`${cli.server!.url}${path}`);
    expect(res.status).toBe(404);
    expect((await res.json()).message).toBe('Not Found: /api is where the mock API answers, not a resource itself: ask for one below it (/api/<name>)');
  }
  expect((await (await fetch(`${cli.server!.url}/api/nothing`)).json()).message).toBe('Not Found'); // below the prefix: as before
  await writeFile(join(dir, 'mocks', 'index.json'), '{"root":true}'); // an index.json answers the prefix as before
  let res;
  do res = await fetch(`${cli.server!.url}/api/`);
  while (res.status === 404);
  expect(await res.json()).toEqual({ root: true });
});
