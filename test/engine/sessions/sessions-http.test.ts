/**
 * Sessions through a real node:http server (and the connect middleware) over real files: private copy-on-write views of the
 * mocks per X-Mockyard-Session (header, cookie, ?__session=), the base files never written;
 * reset, drop, expiry with an injected clock, the bound on their number; the admin API.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMiddleware } from '../../../src/node/middleware.js';
import { join } from 'node:path';
import type { MockApiOptions } from '../../../src/engine/mock-api-options.js';
import { closeServers, startServer } from '../../helpers/server.js';
import { makeTempDir, removeTempDirs } from '../../helpers/temp-dir.js';

afterEach(async () => {
  await closeServers();
  await removeTempDirs();
});

const A = '/_mockyard/api';
const SEED = [{ id: 1, name: 'Ada' }, { id: 2, name: 'Bob' }];

async function mocksDir(): Promise<string> {
  const dir = await makeTempDir();
  await mkdir(join(dir, 'mocks', 'scen', 'empty'), { recursive: true });
  await writeFile(join(dir, 'mocks', 'users.json'), JSON.stringify(SEED, null, 2));
  await writeFile(join(dir, 'mocks', 'note.txt'), 'base note');
  await writeFile(join(dir, 'mocks', 'scen', 'empty', 'users.json'), '[]');
  return dir;
}

function options(dir: string, extra: Partial<MockApiOptions> = {}): MockApiOptions {
  return { endpointPrefix: '/api', logLevel: 'silent', root: dir, fsDir: 'mocks', collections: true, scenarios: { empty: { fsDir: 'mocks/scen/empty' } }, ...extra };
}

const as = (session: string | undefined, init: RequestInit = {}): RequestInit => ({ ...init, headers: { ...(init.headers as Record<string, string>), ...(session ? { 'X-Mockyard-Session': session } : {}) } });
const post = (session: string | undefined, body: unknown): RequestInit => as(session, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
async function list(url: string, session?: string): Promise<unknown[]> {
  const r = await fetch(`${url}/api/users`, as(session));
  expect(r.status).toBe(200);
  return (await r.json()) as unknown[];
}

describe('sessions over a real server and real files', () => {
  it('two concurrent sessions writing the same collection see only their own writes; the base file is never written', async () => {
    const dir = await mocksDir();
    const before = await readFile(join(dir, 'mocks', 'users.json'), 'utf8');
    const s = await startServer({ mock: options(dir) });
    const writes = await Promise.all(
      ['a', 'b'].flatMap((session) => Array.from({ length: 5 }, (_, i) => fetch(`${s.url}/api/users`, post(session, { name: `${session}${i}` })).then(async (r) => [r.status, await r.json()] as const))),
    );
    expect(writes.every(([status]) => status === 201)).toBe(true);
    // Item writes too: a PATCH of a base item and a DELETE of another, in one session only.
    expect((await fetch(`${s.url}/api/users/1`, as('a', { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: '{"name":"Ada A"}' }))).status).toBe(200);
    expect((await fetch(`${s.url}/api/users/2`, as('b', { method: 'DELETE' }))).status).toBe(200);
    const a = (await list(s.url, 'a')) as Array<{ id: number; name: string }>;
    const b = (await list(s.url, 'b')) as Array<{ id: number; name: string }>;
    expect(a.map((u) => u.name).sort()).toEqual(['Ada A', 'Bob', 'a0', 'a1', 'a2', 'a3', 'a4']);
    expect(b.map((u) => u.name).sort()).toEqual(['Ada', 'b0', 'b1', 'b2', 'b3', 'b4']);
    expect(await list(s.url)).toEqual(SEED); // no session: the mocks as they are
    expect(await list(s.url, 'c')).toEqual(SEED); // a new session starts from the mocks
    expect(await readFile(join(dir, 'mocks', 'users.json'), 'utf8')).toBe(before);
    // A whole-file write and a new file stay in the session too.
    expect((await fetch(`${s.url}/api/note.txt`, as('a', { method: 'PUT', headers: { 'content-type': 'text/plain' }, body: 'mine' }))).status).toBeLessThan(300);
    expect(await (await fetch(`${s.url}/api/note.txt`, as('a'))).text()).toBe('mine');
    expect(await (await fetch(`${s.url}/api/note.txt`)).text()).toBe('base note');
    expect(await readFile(join(dir, 'mocks', 'note.txt'), 'utf8')).toBe('base note');
    const sessions = (await (await fetch(`${s.url}${A}/sessions`)).json()).sessions as Array<{ id: string; changes: number }>;
    expect(sessions.map((x) => x.id).sort()).toEqual(['a', 'b', 'c']);
    expect(sessions.find((x) => x.id === 'c')!.changes).toBe(0);
    expect(sessions.find((x) => x.id === 'a')!.changes).toBeGreaterThan(0);
  });

  it('the session is read from the header, a cookie of the same name, or ?__session=', async () => {
    const dir = await mocksDir();
    const s = await startServer({ mock: options(dir) });
    expect((await fetch(`${s.url}/api/users`, { method: 'POST', headers: { 'content-type': 'application/json', cookie: 'theme=dark; X-Mockyard-Session=k1' }, body: '{"name":"cookie"}' })).status).toBe(201);
    expect((await fetch(`${s.url}/api/users?__session=k1`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"query"}' })).status).toBe(201);
    const names = ((await list(s.url, 'k1')) as Array<{ name: string }>).map((u) => u.name);
    expect(names).toEqual(['Ada', 'Bob', 'cookie', 'query']);
    expect(await list(s.url)).toEqual(SEED);
    const bad = await fetch(`${s.url}/api/users`, as('no spaces allowed'));
    expect(bad.status).toBe(400);
    expect((await bad.json()).message).toMatch(/Invalid session id/);
  });

  it('reset, delete, own scenario and overrides over the admin API; the journal filters by session', async () => {
    const dir = await mocksDir();
    const s = await startServer({ mock: options(dir) });
    await fetch(`${s.url}/api/users`, post('r', { name: 'x' }));
    expect(await list(s.url, 'r')).toHaveLength(3);
    const reset = await fetch(`${s.url}${A}/sessions/r/reset`, { method: 'POST' });
    expect(reset.status).toBe(200);
    expect((await reset.json()).changes).toBe(0);
    expect(await list(s.url, 'r')).toEqual(SEED);
    // Own scenario: only this session sees the empty list.
    expect((await fetch(`${s.url}${A}/sessions/r/scenario`, { method: 'PUT', body: '{"name":"empty"}' })).status).toBe(200);
    expect(await list(s.url, 'r')).toEqual([]);
    expect(await list(s.url, 'q')).toEqual(SEED);
    expect((await fetch(`${s.url}${A}/sessions/r/scenario`, { method: 'PUT', body: '{"name":"nope"}' })).status).toBe(400);
    // Overrides: declarative, newest first, only in this session.
    const add = await fetch(`${s.url}${A}/sessions/r/overrides`, { method: 'POST', body: JSON.stringify([{ method: 'GET', path: '/users/:id', status: 418, headers: { 'x-why': 'override' }, body: { teapot: true } }, { path: '/note.txt', body: 'overridden' }, { path: '/users.json', file: 'scen/empty/users.json' }]) });
    expect(add.status).toBe(200);
    const r1 = await fetch(`${s.url}/api/users/1`, as('r'));
    expect([r1.status, r1.headers.get('x-why'), await r1.json()]).toEqual([418, 'override', { teapot: true }]);
    expect(await (await fetch(`${s.url}/api/note.txt`, as('r'))).text()).toBe('overridden');
    const f = await fetch(`${s.url}/api/users.json`, as('r'));
    expect([f.headers.get('content-type'), await f.json()]).toEqual(['application/json; charset=utf-8', []]);
    expect((await fetch(`${s.url}/api/users/1`, as('q'))).status).toBe(200);
    const bad = await fetch(`${s.url}${A}/sessions/r/overrides`, { method: 'POST', body: '{"path":"/x","status":99}' });
    expect(bad.status).toBe(400);
    expect((await bad.json()).message).toMatch(/overrides\[0\]\.status/);
    // The journal: this session's entries only.
    const entries = (await (await fetch(`${s.url}${A}/requests?session=r`)).json()).entries as Array<{ session: string; url: string }>;
    expect(entries.length).toBeGreaterThan(3);
    expect(entries.every((e) => e.session === 'r')).toBe(true);
    const same = (await (await fetch(`${s.url}${A}/sessions/r/requests`)).json()).entries;
    expect(same.map((e: { id: number }) => e.id)).toEqual(entries.map((e: any) => e.id));
    // Delete: gone, a new request starts afresh.
    expect((await fetch(`${s.url}${A}/sessions/r`, { method: 'DELETE' })).status).toBe(204);
    expect((await fetch(`${s.url}${A}/sessions/r`)).status).toBe(404);
    expect((await fetch(`${s.url}${A}/sessions/r`, { method: 'DELETE' })).status).toBe(404);
    expect(await list(s.url, 'r')).toEqual(SEED);
    // Create with a generated id.
    const made = await fetch(`${s.url}${A}/sessions`, { method: 'POST', body: '{"scenario":"empty"}' });
    expect(made.status).toBe(201);
    const { id } = await made.json();
    expect(await list(s.url, id)).toEqual([]);
  });

  it('expires idle sessions (injected clock) and keeps at most `max`, dropping the one idle longest', async () => {
    const dir = await mocksDir();
    let now = 1_000_000;
    const logs: string[] = [];
    const logger = { info: (m: string) => logs.push(m), warn: (m: string) => logs.push(m), error: (m: string) => logs.push(m), debug: (m: string) => logs.push(m) };
    const s = await startServer({ mock: options(dir, { logLevel: 'info', logger, sessions: { idleTimeout: 60_000, max: 3, clock: () => now } }) });
    await fetch(`${s.url}/api/users`, post('e1', { name: 'one' }));
    now += 59_999;
    expect(await list(s.url, 'e1')).toHaveLength(3); // used again: idle time starts over
    now += 60_000;
    expect(await list(s.url, 'e1')).toEqual(SEED); // expired: a fresh session
    const ids = async () => ((await (await fetch(`${s.url}${A}/sessions`)).json()).sessions as Array<{ id: string }>).map((x) => x.id).sort();
    now += 1;
    await fetch(`${s.url}/api/users`, post('e2', { name: 'two' }));
    now += 1;
    await fetch(`${s.url}/api/users`, post('e3', { name: 'three' }));
    now += 1;
    expect(await ids()).toEqual(['e1', 'e2', 'e3']);
    await list(s.url, 'e4'); // a fourth: e1 (idle longest) goes
    expect(await ids()).toEqual(['e2', 'e3', 'e4']);
    expect(logs.some((l) => /session e1 dropped: 3 sessions are kept at most/.test(l))).toBe(true);
    now += 60_000;
    expect(await ids()).toEqual([]);
  });
});

describe('sessions through the connect middleware (Vite dev servers)', () => {
  it('two sessions writing the same collection through createMiddleware see only their own writes', async () => {
    const dir = await mocksDir();
    const mw = await createMiddleware({ mock: options(dir) });
    const server = createServer((req, res) => mw(req, res, () => {
      res.statusCode = 404;
      res.end('next');
    }));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      await Promise.all([fetch(`${url}/api/users`, post('m1', { name: 'one' })), fetch(`${url}/api/users`, post('m2', { name: 'two' }))]);
      expect(((await list(url, 'm1')) as Array<{ name: string }>).map((u) => u.name)).toEqual(['Ada', 'Bob', 'one']);
      expect(((await list(url, 'm2')) as Array<{ name: string }>).map((u) => u.name)).toEqual(['Ada', 'Bob', 'two']);
      expect(await list(url)).toEqual(SEED);
    } finally {
      await new Promise((r) => server.close(r));
      await mw.close?.();
    }
  });
});
