/**
 * A folder of JSON files is a REST API with no option: the built CLI as a real process, without a
 * config file, serves `mocks/` with collections and json-server's query syntax (the preset) and
 * says so at start-up; a config file without `preset` keeps the spec's file mode, where the
 * answers a newcomer meets (404 for `<array>/<id>`, 409 on POST to an array, ignored query
 * parameters) name the option.
 */
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { compileSources } from '../helpers/built-src.js';
import { startCli, stopCliProcesses } from '../helpers/cli-process.js';
import { listFiles } from '../helpers/cli-run.js';
import { IN_CI, postgresBinaries, startPostgres } from '../helpers/postgres-server.js';
import { makeTempDir, removeTempDirs } from '../helpers/temp-dir.js';

let cli: string;
beforeAll(() => {
  cli = join(compileSources('cli-default-preset'), 'node', 'cli.js');
}, 120_000);

afterEach(async () => {
  await stopCliProcesses();
  await removeTempDirs();
});

const TODOS = [
  { id: 1, title: 'buy milk', done: false },
  { id: 2, title: 'call mum', done: true },
  { id: 3, title: 'answer mail', done: false },
  { id: 4, title: 'water plants', done: false },
];

async function project(config?: string): Promise<string> {
  const dir = await makeTempDir();
  await mkdir(join(dir, 'mocks'));
  await writeFile(join(dir, 'mocks', 'todos.json'), JSON.stringify(TODOS, null, 2));
  if (config !== undefined) await writeFile(join(dir, 'mockyard.config.mjs'), config);
  return dir;
}

const send = (method: string, body?: unknown): RequestInit => ({ method, headers: body === undefined ? {} : { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });

describe('mockyard in a folder with mocks/ and no config file', () => {
  it('serves the JSON arrays as collections with the json-server query syntax, and says so', async () => {
    const dir = await project();
    const { url, output } = await startCli(cli, ['--port', '0'], dir);
    expect(output()).toMatch(/Mode: REST collections, json-server query syntax .*--preset none/);
    const api = `${url}/api/todos`;

    expect(await (await fetch(`${api}/2`)).json()).toEqual(TODOS[1]);
    expect((await (await fetch(`${api}?done=false`)).json()).map((t: { id: number }) => t.id)).toEqual([1, 3, 4]);
    expect((await (await fetch(`${api}?_limit=2`)).json()).map((t: { id: number }) => t.id)).toEqual([1, 2]);
    expect((await (await fetch(`${api}?_sort=title&_order=desc`)).json()).map((t: { title: string }) => t.title)[0]).toBe('water plants');

    const created = await fetch(api, send('POST', { title: 'new', done: false }));
    expect(created.status).toBe(201);
    const item = (await created.json()) as { id: number };
    expect(item.id).toBe(5);
    expect((await fetch(`${api}/5`, send('PATCH', { done: true }))).status).toBe(200);
    expect(await (await fetch(`${api}/5`)).json()).toEqual({ id: 5, title: 'new', done: true });
    expect((await fetch(`${api}/5`, send('DELETE'))).status).toBe(200);
    expect((await fetch(`${api}/5`)).status).toBe(404);
  });

  it('the home page links the devtools page', async () => {
    const dir = await project();
    const { url } = await startCli(cli, ['--port', '0'], dir);
    const html = await (await fetch(`${url}/`, { headers: { accept: 'text/html' } })).text();
    expect(html).toContain('<a href="/_mockyard/">Devtools</a>');
  });

  it('--tracker alone (as --tracker-db) does not create ./mocks in the current folder', async () => {
    const dir = await makeTempDir();
    const { output } = await startCli(cli, ['--port', '0', '--tracker'], dir);
    expect(output()).not.toContain('created');
    expect(existsSync(join(dir, 'mocks'))).toBe(false);
  });

  it.skipIf(postgresBinaries() === undefined && !IN_CI)('--tracker-db postgres://… alone (a real PostgreSQL) does not create ./mocks in the current folder', async () => {
    const pg = await startPostgres();
    try {
      const dir = await makeTempDir();
      const { url, output } = await startCli(cli, ['--port', '0', '--tracker-db', pg.url], dir);
      const ingest = await fetch(`${url}/_tracker/events`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ type: 'ingest', batchId: 'b1', events: [{ id: '', timestamp: '2026-03-01T10:00:00Z', type: 'click' }] }),
      });
      expect(ingest.status).toBe(200);
      expect(output()).toContain('PostgreSQL at 127.0.0.1');
      expect(output()).not.toMatch(/created .*mocks/);
      expect(existsSync(join(dir, 'mocks'))).toBe(false);
      expect(await listFiles(dir)).toEqual([]); // nothing at all written in the current folder
      await stopCliProcesses(); // before the database goes away
    } finally {
      pg.stop();
    }
  }, 120_000);

  it('--preset none serves the spec\'s file mode and says how to get the REST API', async () => {
    const dir = await project();
    const { url, output } = await startCli(cli, ['--port', '0', '--preset', 'none'], dir);
    expect(output()).toMatch(/Mode: files as stored .*--preset json-server/);
    expect((await fetch(`${url}/api/todos/2`)).status).toBe(404);
  });
});

describe('a config file without preset keeps the spec\'s file mode, and names the option where a newcomer stumbles', () => {
  const CONFIG = "export default { mock: { fsDir: 'mocks', endpointPrefix: '/api' } };\n";

  it('start-up line', async () => {
    const dir = await project(CONFIG);
    const { output } = await startCli(cli, ['--port', '0'], dir);
    expect(output()).toMatch(/Mode: files as stored .*add preset: 'json-server' to the config/);
  });

  it('404 for <array>/<id> and 409 on POST to an array carry a hint naming the preset; the spec\'s messages unchanged', async () => {
    const dir = await project(CONFIG);
    const { url } = await startCli(cli, ['--port', '0'], dir);
    const missing = await fetch(`${url}/api/todos/2`);
    expect(missing.status).toBe(404);
    const body = (await missing.json()) as { message: string; hint: string };
    expect(body.message).toBe('Not Found');
    expect(body.hint).toMatch(/preset: 'json-server'/);

    const conflict = await fetch(`${url}/api/todos`, send('POST', { title: 'x' }));
    expect(conflict.status).toBe(409);
    const c = (await conflict.json()) as { message: string; hint: string };
    expect(c.message).toBe('File at /api/todos already exists');
    expect(c.hint).toMatch(/preset: 'json-server'/);

    // A path whose parent is no array: the plain 404.
    expect(await (await fetch(`${url}/api/nothing/2`)).json()).not.toHaveProperty('hint');
  });

  it('GET query parameters no option reads: one warning per path naming the option', async () => {
    const dir = await project(CONFIG);
    const { url, output, printed } = await startCli(cli, ['--port', '0'], dir);
    const all = (await (await fetch(`${url}/api/todos?done=false`)).json()) as unknown[];
    expect(all).toHaveLength(4);
    await printed(/query parameter "done" ignored/);
    await fetch(`${url}/api/todos?_limit=2`);
    await fetch(`${url}/api/todos?done=true`);
    await printed(/GET +\/api\/todos\?done=true/);
    expect(output().match(/ignored \(file mode/g)).toHaveLength(1);
    expect(output()).toMatch(/preset: 'json-server' \(CLI: --preset json-server\)/);
  });
});
