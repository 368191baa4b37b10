/**
 * Recordings replay where they are served: `mockyard record` (the built CLI, dist/) against a real
 * upstream on 127.0.0.1 that names itself in `Link`, `Location` and absolute URLs in its JSON
 * bodies keeps the upstream's origin in `<path>@recorded.json` (`request.origin`); with the
 * upstream stopped, `mockyard --fs-dir` replays those answers naming the mock instead
 * (src/engine/replay/origin-rewrite.ts, as a HAR replay does). A recording without `origin`
 * (made before it was kept) replays as recorded; a malformed one is named.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startCli, stopCliProcesses } from '../helpers/cli-process.js';
import { makeTempDir, removeTempDirs } from '../helpers/temp-dir.js';
import { closeUpstreams, startUpstream } from '../helpers/upstream.js';

const cli = resolve('dist/node/cli.js');
beforeAll(() => {
  if (!existsSync(cli)) throw new Error('npm run build first: this test runs the built CLI (dist/node/cli.js)');
});
afterEach(async () => {
  await stopCliProcesses();
  await closeUpstreams();
  await removeTempDirs();
});

async function until(probe: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await probe().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('not written within 10 s');
}

describe('recorded origin, rewritten on replay (the built CLI)', () => {
  it('Link, Location and absolute body URLs that named the upstream name the mock after it is gone', async () => {
    const upstream = await startUpstream((req, res) => {
      const up = `http://127.0.0.1:${(req.socket.address() as { port: number }).port}`;
      if (req.method === 'GET' && req.url === '/api/users?page=1') {
        res.writeHead(200, { 'content-type': 'application/json', link: `<${up}/api/users?page=2>; rel="next"` });
        res.end(JSON.stringify({ items: [{ id: 1, self: `${up}/api/users/1` }], next: `${up}/api/users?page=2`, docs: 'https://docs.example.com/users' }));
      } else if (req.method === 'POST' && req.url === '/api/users') {
        res.writeHead(201, { 'content-type': 'application/json', location: `${up}/api/users/9` });
        res.end(JSON.stringify({ id: 9, self: `${up}/api/users/9` }));
      } else if (req.url === '/api/old') {
        res.writeHead(301, { location: `${up}/api/users/1` });
        res.end();
      } else {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end('{}');
      }
    });
    const root = await makeTempDir();
    await mkdir(join(root, 'mocks'));
    const rec = await startCli(cli, ['record', '--target', upstream.url, '--fs-dir', 'mocks', '--port', '0', '--log-level', 'info'], root);
    const listed = await fetch(`${rec.url}/api/users?page=1`);
    expect(listed.headers.get('link')).toBe(`<${upstream.url}/api/users?page=2>; rel="next"`); // recording passes the upstream's answer on
    await listed.arrayBuffer();
    expect((await fetch(`${rec.url}/api/users`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"Ann"}' })).status).toBe(201);
    expect((await fetch(`${rec.url}/api/old`, { redirect: 'manual' })).status).toBe(301);
    const recording = join(root, 'mocks', 'users@recorded.json');
    await until(async () => (JSON.parse(await readFile(recording, 'utf8')).recorded as unknown[]).length === 2);
    await until(async () => existsSync(join(root, 'mocks', 'old@recorded.json')));
    await stopCliProcesses();
    await upstream.close();

    const kept = JSON.parse(await readFile(recording, 'utf8')) as { recorded: Array<{ request: { method: string; origin?: string } }> };
    expect(kept.recorded.map((x) => [x.request.method, x.request.origin])).toEqual([['GET', upstream.url], ['POST', upstream.url]]);

    const replay = await startCli(cli, ['--fs-dir', 'mocks', '--port', '0', '--log-level', 'warn'], root);
    const mock = replay.url;
    const page = await fetch(`${mock}/api/users?page=1`);
    expect(page.status).toBe(200);
    expect(page.headers.get('link')).toBe(`<${mock}/api/users?page=2>; rel="next"`);
    expect(await page.json()).toEqual({ items: [{ id: 1, self: `${mock}/api/users/1` }], next: `${mock}/api/users?page=2`, docs: 'https://docs.example.com/users' });
    const created = await fetch(`${mock}/api/users`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"Ann"}' });
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe(`${mock}/api/users/9`);
    expect(await created.json()).toEqual({ id: 9, self: `${mock}/api/users/9` });
    const moved = await fetch(`${mock}/api/old`, { redirect: 'manual' });
    expect(moved.status).toBe(301);
    expect(moved.headers.get('location')).toBe(`${mock}/api/users/1`);
    // Served under another name of the same server: the mock's origin is the one asked.
    const byName = await fetch(`${mock.replace('127.0.0.1', 'localhost')}/api/users/9`.replace('/api/users/9', '/api/users'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"Ann"}' });
    expect(byName.headers.get('location')).toBe(`${mock.replace('127.0.0.1', 'localhost')}/api/users/9`);
  });

  it('a recording without origin replays as recorded; a malformed origin is named', async () => {
    const root = await makeTempDir();
    await mkdir(join(root, 'mocks'));
    const old = { recorded: [{ request: { method: 'GET' }, response: { status: 200, headers: { link: '<http://127.0.0.1:9/api/a?page=2>; rel="next"' }, body: { next: 'http://127.0.0.1:9/api/a?page=2' } } }] };
    await writeFile(join(root, 'mocks', 'a@recorded.json'), JSON.stringify(old));
    await writeFile(join(root, 'mocks', 'b@recorded.json'), JSON.stringify({ recorded: [{ request: { method: 'GET', origin: 'http://127.0.0.1:9/x' }, response: { status: 200 } }] }));
    const replay = await startCli(cli, ['--fs-dir', 'mocks', '--port', '0', '--log-level', 'warn'], root);
    const a = await fetch(`${replay.url}/api/a`);
    expect(a.headers.get('link')).toBe('<http://127.0.0.1:9/api/a?page=2>; rel="next"');
    expect(await a.json()).toEqual({ next: 'http://127.0.0.1:9/api/a?page=2' });
    const b = await fetch(`${replay.url}/api/b`);
    expect(b.status).toBe(500);
    expect(((await b.json()) as { message: string }).message).toContain('recorded[0].request.origin must be an origin');
  });
});
