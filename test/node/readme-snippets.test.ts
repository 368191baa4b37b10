/**
 * The README's first-run snippets, run as written (extracted from README.md, so the test fails
 * when the doc drifts), each giving a working list app — list, filter, create, toggle, delete —
 * with no option beyond what the snippet shows:
 *  - the command (`<!-- example: cli-quick-start -->`: its `--fs-dir mocks` line; the built CLI as
 *    a real process, `--port 0` added so the test never fights for port 3000);
 *  - the Vite plugin (`<!-- example: vite -->`: its `export default` line as vite.config.mjs, in a
 *    folder where mockyard is installed as a package; a real Vite dev server).
 * The browser snippets (handlersFor in setupWorker, startWorker) run in test/e2e/day-one.e2e.ts.
 */
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer, type ViteDevServer } from 'vite';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { compileSources } from '../helpers/built-src.js';
import { startCli, stopCliProcesses } from '../helpers/cli-process.js';
import { makeTempDir, removeTempDirs } from '../helpers/temp-dir.js';
import { markedBlock, removeUserApps, userApp } from '../helpers/user-app.js';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const TODOS = [
  { id: 1, title: 'buy milk', done: false },
  { id: 2, title: 'call mum', done: true },
];

let cli: string;
let readme: string;
beforeAll(async () => {
  cli = join(compileSources('readme-snippets'), 'node', 'cli.js');
  readme = await readFile(join(repo, 'README.md'), 'utf8');
}, 120_000);
const vites: ViteDevServer[] = [];
afterEach(async () => {
  await stopCliProcesses();
  for (const v of vites.splice(0)) await v.close();
});
afterAll(async () => {
  await removeTempDirs();
  await removeUserApps();
});

/** List, filter, create, toggle, delete on `${api}/todos`. */
async function todoList(api: string) {
  const json = async (path: string, init?: { method: string; body?: unknown }) => {
    const r = await fetch(`${api}${path}`, init && { method: init.method, headers: init.body === undefined ? {} : { 'content-type': 'application/json' }, body: init.body === undefined ? undefined : JSON.stringify(init.body) });
    const text = await r.text();
    return { status: r.status, body: text ? JSON.parse(text) : null };
  };
  expect((await json('/todos')).body).toEqual(TODOS);
  expect((await json('/todos?done=false')).body).toEqual([TODOS[0]]);
  const created = await json('/todos', { method: 'POST', body: { title: 'new', done: false } });
  expect(created.status).toBe(201);
  expect((await json(`/todos/${created.body.id}`, { method: 'PATCH', body: { done: true } })).body.done).toBe(true);
  expect((await json('/todos?done=true')).body.map((t: { id: number }) => t.id)).toEqual([2, created.body.id]);
  expect((await json(`/todos/${created.body.id}`, { method: 'DELETE' })).status).toBe(200);
  expect((await json('/todos')).body).toEqual(TODOS);
}

describe('README snippets give a working todo list', () => {
  it('the command: npx mockyard --fs-dir mocks', async () => {
    const line = markedBlock(readme, 'cli-quick-start').split('\n').find((l) => /^npx mockyard --fs-dir mocks\b/.test(l));
    expect(line).toBeDefined();
    const args = line!.replace(/#.*$/, '').trim().split(/\s+/).slice(2);
    const dir = await makeTempDir();
    await mkdir(join(dir, 'mocks'));
    await writeFile(join(dir, 'mocks', 'todos.json'), JSON.stringify(TODOS, null, 2));
    const { url } = await startCli(cli, [...args, '--port', '0'], dir);
    await todoList(`${url}/api`);
  });

  it('the Vite plugin: vite.config with mockyard({ mock: … })', async () => {
    const line = markedBlock(readme, 'vite').split('\n').find((l) => l.startsWith('export default'));
    expect(line).toBeDefined();
    const dir = await userApp({
      'vite.config.mjs': `import { mockyard } from 'mockyard/node';\n${line}\n`,
      'index.html': '<!doctype html><html><body></body></html>\n',
      'mocks/todos.json': JSON.stringify(TODOS, null, 2),
    });
    const server = await createServer({ root: dir, logLevel: 'silent', server: { host: '127.0.0.1', port: 0 } });
    vites.push(server);
    await server.listen();
    const { port } = server.httpServer!.address() as { port: number };
    await todoList(`http://127.0.0.1:${port}/api`);
  }, 60_000);
});
