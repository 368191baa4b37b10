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

  const section = cli.out.slice(cli.out.indexOf('Resources'), cli.out.indexOf('Open '));
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
