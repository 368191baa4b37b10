/**
 * Recorded traffic replayed exactly, through the built CLI as real processes: `mockyard record`
 * in front of a real upstream on 127.0.0.1, the upstream stopped, then `mockyard --fs-dir` (and
 * `mockyard --har`) answering offline with the recorded status, body and meaningful headers;
 * query variants matched exactly (parameter order aside), writes matched on their body (JSON
 * key order aside); what was not recorded goes to the proxy, else a 404 naming what was.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { compileSources } from '../helpers/built-src.js';
import { startCli, stopCliProcesses, type CliProcess } from '../helpers/cli-process.js';
import { harErrors } from '../helpers/har-schema.js';
import { makeTempDir, removeTempDirs } from '../helpers/temp-dir.js';
import { closeUpstreams, startUpstream } from '../helpers/upstream.js';

let cli: string;
beforeAll(() => {
  cli = join(compileSources('recorded-traffic'), 'node', 'cli.js');
}, 120_000);

afterEach(async () => {
  await stopCliProcesses();
  await closeUpstreams();
  await removeTempDirs();
});

const USERS = [{ id: 1, name: 'Ann' }, { id: 2, name: 'Bob' }];

/** The real API: every status the replay must keep. */
function realApi() {
  return startUpstream(async (req, res, body) => {
    const url = req.url ?? '';
    const json = (status: number, value: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(value));
    };
    if (req.method === 'GET' && url === '/api/users') {
      return json(200, USERS, {
        'x-total-count': '3', link: '</api/users?page=2>; rel="next"', 'cache-control': 'max-age=60', etag: '"v1"',
        'last-modified': 'Tue, 01 Sep 2026 10:00:00 GMT', 'x-request-id': 'req-1', 'set-cookie': 'session=secret; HttpOnly', date: 'Tue, 01 Sep 2026 10:00:00 GMT',
      });
    }
    if (req.method === 'GET' && url === '/api/users?page=2') return json(200, [{ id: 3, name: 'Cy' }], { 'x-total-count': '3' });
    if (req.method === 'POST' && url === '/api/users') {
      const sent = JSON.parse((await body()).toString()) as { name: string };
      const id = sent.name === 'Ann' ? 9 : 10;
      return json(201, { id, ...sent }, { location: `/api/users/${id}` });
    }
    if (req.method === 'DELETE' && url === '/api/users/9') {
      res.writeHead(204, { 'x-deleted': '1' }).end();
      return;
    }
    if (url === '/api/old') {
      res.writeHead(302, { location: '/api/users' }).end();
      return;
    }
    if (url === '/api/private') return json(401, { error: 'unauthorized' }, { 'www-authenticate': 'Bearer realm="api"' });
    if (url === '/api/users/404') return json(404, { error: 'no such user' });
    if (url === '/api/boom') {
      res.writeHead(500, { 'content-type': 'text/plain' }).end('upstream exploded');
      return;
    }
    json(418, { unexpected: url });
  });
}

const post = (value: unknown): RequestInit => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(value) });

/** Records a session against the real API, then stops both; returns the project folder. */
async function recordSession(): Promise<string> {
  const upstream = await realApi();
  const dir = await makeTempDir();
  const rec = await startCli(cli, ['record', '--target', upstream.url, '--fs-dir', 'mocks', '--port', '0', '--log-level', 'warn'], dir);
  const api = `${rec.url}/api`;
  expect((await fetch(`${api}/users`, { headers: { authorization: 'Bearer secret-token' } })).status).toBe(200);
  expect((await fetch(`${api}/users?page=2`)).status).toBe(200);
  expect((await fetch(`${api}/users`, post({ name: 'Ann', role: 'admin' }))).status).toBe(201);
  expect((await fetch(`${api}/users`, post({ name: 'Bob' }))).status).toBe(201);
  expect((await fetch(`${api}/users/9`, { method: 'DELETE' })).status).toBe(204);
  expect((await fetch(`${api}/old`, { redirect: 'manual' })).status).toBe(302);
  expect((await fetch(`${api}/private`)).status).toBe(401);
  expect((await fetch(`${api}/users/404`)).status).toBe(404);
  expect((await fetch(`${api}/boom`)).status).toBe(500);
  await stopProcess(rec);
  await upstream.close();
  return dir;
}

async function stopProcess(p: CliProcess): Promise<void> {
  await new Promise<void>((resolve) => {
    if (p.child.exitCode !== null) return resolve();
    p.child.once('exit', () => resolve());
    p.child.kill('SIGTERM');
  });
}

/** Every status, body and meaningful header as the real API answered. */
async function expectReplay(api: string): Promise<void> {
  const users = await fetch(`${api}/users`);
  expect(users.status).toBe(200);
  expect(await users.json()).toEqual(USERS);
  expect(users.headers.get('x-total-count')).toBe('3');
  expect(users.headers.get('link')).toBe('</api/users?page=2>; rel="next"');
  expect(users.headers.get('cache-control')).toBe('max-age=60');
  expect(users.headers.get('etag')).toBe('"v1"');
  expect(users.headers.get('last-modified')).toBe('Tue, 01 Sep 2026 10:00:00 GMT');
  expect(users.headers.get('x-request-id')).toBe('req-1');
  expect(users.headers.get('set-cookie')).toBeNull();

  const page2 = await fetch(`${api}/users?page=2`);
  expect(await page2.json()).toEqual([{ id: 3, name: 'Cy' }]);
  expect(page2.headers.get('x-total-count')).toBe('3');

  const created = await fetch(`${api}/users`, post({ role: 'admin', name: 'Ann' })); // other key order: same JSON
  expect(created.status).toBe(201);
  expect(created.headers.get('location')).toBe('/api/users/9');
  expect(await created.json()).toEqual({ id: 9, name: 'Ann', role: 'admin' });
  const bob = await fetch(`${api}/users`, post({ name: 'Bob' }));
  expect(bob.headers.get('location')).toBe('/api/users/10');

  const deleted = await fetch(`${api}/users/9`, { method: 'DELETE' });
  expect(deleted.status).toBe(204);
  expect(deleted.headers.get('x-deleted')).toBe('1');
  expect(await deleted.text()).toBe('');

  const moved = await fetch(`${api}/old`, { redirect: 'manual' });
  expect(moved.status).toBe(302);
  expect(moved.headers.get('location')).toBe('/api/users');

  const denied = await fetch(`${api}/private`);
  expect(denied.status).toBe(401);
  expect(denied.headers.get('www-authenticate')).toBe('Bearer realm="api"');
  expect(await denied.json()).toEqual({ error: 'unauthorized' });

  const missing = await fetch(`${api}/users/404`);
  expect(missing.status).toBe(404);
  expect(await missing.json()).toEqual({ error: 'no such user' });

  const boom = await fetch(`${api}/boom`);
  expect(boom.status).toBe(500);
  expect(boom.headers.get('content-type')).toBe('text/plain');
  expect(await boom.text()).toBe('upstream exploded');
}

describe('mockyard record, then mockyard --fs-dir offline', () => {
  it('replays every status with its body and meaningful headers; the 2xx GET bodies stay plain files', async () => {
    const dir = await recordSession();
    const files = (await readdir(join(dir, 'mocks'), { recursive: true })).sort();
    expect(files).toEqual(expect.arrayContaining(['users.json', 'users@page=2.json', 'users@recorded.json', 'old@recorded.json', 'users/9@recorded.json', 'users/404@recorded.json']));
    expect(JSON.parse(await readFile(join(dir, 'mocks', 'users.json'), 'utf8'))).toEqual(USERS);
    const recording = await readFile(join(dir, 'mocks', 'users@recorded.json'), 'utf8');
    expect(recording).not.toMatch(/secret|set-cookie|authorization/i);

    const replay = await startCli(cli, ['--fs-dir', 'mocks', '--port', '0', '--log-level', 'warn'], dir);
    await expectReplay(`${replay.url}/api`);
  });

  it('a query or a body that was not recorded is a 404 naming what was, never another variant\'s answer', async () => {
    const dir = await recordSession();
    const { url } = await startCli(cli, ['--fs-dir', 'mocks', '--port', '0', '--log-level', 'warn'], dir);
    const other = await fetch(`${url}/api/users?x=1&page=2`);
    expect(other.status).toBe(404);
    const body = await other.json() as { message: string; recorded: string[] };
    expect(body.message).toMatch(/^No recorded answer for GET \/api\/users\?x=1&page=2; recorded for this path: /);
    expect(body.recorded.slice(0, 2)).toEqual(['GET /api/users?page=2', 'GET /api/users']); // nearest first
    expect(body.recorded).toContain('POST /api/users (with a recorded body)');
    expect((await fetch(`${url}/api/users?page=2&page=2`)).status).toBe(404);
    const zed = await fetch(`${url}/api/users`, post({ name: 'Zed' }));
    expect(zed.status).toBe(404);
    expect(((await zed.json()) as { recorded: string[] }).recorded[0]).toBe('POST /api/users (with a recorded body)');
  });

  it('with --proxy, what was not recorded goes to the real API', async () => {
    const dir = await recordSession();
    const live = await startUpstream((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ live: `${req.method} ${req.url}` }));
    });
    const { url } = await startCli(cli, ['--fs-dir', 'mocks', '--proxy', live.url, '--port', '0', '--log-level', 'warn'], dir);
    expect(await (await fetch(`${url}/api/users?page=2&x=1`)).json()).toEqual({ live: 'GET /api/users?page=2&x=1' });
    expect(await (await fetch(`${url}/api/users`, post({ name: 'Zed' }))).json()).toEqual({ live: 'POST /api/users' });
    expect(live.seen.at(-1)!.body.toString()).toBe('{"name":"Zed"}');
    expect(await (await fetch(`${url}/api/users?page=2`)).json()).toEqual([{ id: 3, name: 'Cy' }]); // recorded: not forwarded
    expect(live.seen).toHaveLength(2);
  });

  it('the HAR log holds request bodies, validates, and mockyard --har serves it back', async () => {
    const dir = await recordSession();
    const har = JSON.parse(await readFile(join(dir, 'mocks.har'), 'utf8'));
    expect(harErrors(har)).toEqual([]);
    const ann = har.log.entries.find((e: any) => e.request.method === 'POST' && e.response.headers.some((h: any) => h.value === '/api/users/9'));
    expect(JSON.parse(ann.request.postData.text)).toEqual({ name: 'Ann', role: 'admin' });
    expect(ann.request.postData.mimeType).toBe('application/json');
    expect(JSON.stringify(har)).not.toContain('secret-token');

    const { url } = await startCli(cli, ['--har', 'mocks.har', '--port', '0', '--log-level', 'warn'], dir);
    await expectReplay(`${url}/api`);
    const other = await fetch(`${url}/api/users?page=3`);
    expect(other.status).toBe(404);
    expect(((await other.json()) as { recorded: string[] }).recorded).toContain('GET /api/users?page=2');
  });
});
