/**
 * The devtools admin API (/_mockyard/api/) through a real node:http server: journal reads with
 * filters, clearing, the live SSE stream, routes, scenario switching, reset, errors, the guard.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { memoryFs } from '../../src/vfs/memory.js';
import { isLoopbackHost, resolveDevtoolsGuard } from '../../src/devtools/guard.js';
import type { MockApiOptions } from '../../src/engine/mock-api-options.js';
import { closeServers, startServer } from '../helpers/server.js';
import { makeTempDir, removeTempDirs } from '../helpers/temp-dir.js';

afterEach(async () => {
  await closeServers();
  await removeTempDirs();
});

const A = '/_mockyard/api';

function mockOptions(extra: Partial<MockApiOptions> = {}): MockApiOptions {
  return {
    endpointPrefix: '/api',
    logLevel: 'silent',
    fs: memoryFs({ 'mocks/users.json': '[{"id":1}]', 'mocks/orders/1.json': '{"id":1}', 'scen/empty/users.json': '[]' }),
    fsDir: 'mocks',
    handlers: [{ pattern: '/me', method: 'GET', handle: (_r: any, res: any) => res.json({ me: true }) }],
    scenarios: { empty: { fsDir: 'scen/empty' } },
    ...extra,
  };
}

async function getJson(url: string, init?: RequestInit) {
  const r = await fetch(url, init);
  return { status: r.status, headers: r.headers, json: r.status === 204 ? undefined : await r.json() };
}

describe('admin API on a loopback node host', () => {
  it('lists journal entries newest first, with filters, and clears them', async () => {
    const s = await startServer({ mock: mockOptions() });
    await fetch(`${s.url}/api/users`, { headers: { authorization: 'Bearer hush-hush' } });
    await fetch(`${s.url}/api/nothing`);
    await fetch(`${s.url}/api/me`);
    await fetch(`${s.url}/api/users`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '[{"id":2}]' });
    const all = await getJson(`${s.url}${A}/requests`);
    expect(all.status).toBe(200);
    expect(all.json.entries.map((e: any) => `${e.method} ${e.url} ${e.status} ${e.answeredBy?.layer}`)).toEqual([
      'PUT /api/users 200 files',
      'GET /api/me 200 handlers',
      'GET /api/nothing 404 not-found',
      'GET /api/users 200 files',
    ]);
    const first = all.json.entries[3];
    expect(first.request.headers.authorization).toBe('[redacted]');
    expect(first.response.body.text).toBe('[{"id":1}]');
    expect(all.json.entries[0].request.body.text).toBe('[{"id":2}]');
    expect((await getJson(`${s.url}${A}/requests?status=4xx`)).json.entries.map((e: any) => e.url)).toEqual(['/api/nothing']);
    expect((await getJson(`${s.url}${A}/requests?method=put`)).json.entries).toHaveLength(1);
    expect((await getJson(`${s.url}${A}/requests?path=/api/users&limit=1`)).json.entries.map((e: any) => e.method)).toEqual(['PUT']);
    expect((await getJson(`${s.url}${A}/requests?since=${new Date(Date.now() + 60_000).toISOString()}`)).json.entries).toEqual([]);
    expect((await getJson(`${s.url}${A}/requests?status=abc`)).status).toBe(400);
    // The admin API's own requests are not journaled (it is its own engine).
    expect((await fetch(`${s.url}${A}/requests`, { method: 'DELETE' })).status).toBe(204);
    expect((await getJson(`${s.url}${A}/requests`)).json.entries).toEqual([]);
  });

  it('streams new journal entries as Server-Sent Events', async () => {
    const s = await startServer({ mock: mockOptions() });
    const controller = new AbortController();
    const res = await fetch(`${s.url}${A}/requests/stream`, { signal: controller.signal });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    const until = async (needle: string) => {
      while (!text.includes(needle)) {
        const { value, done } = await reader.read();
        if (done) throw new Error('stream ended');
        text += decoder.decode(value, { stream: true });
      }
    };
    await until(': connected');
    await fetch(`${s.url}/api/users?live=1`);
    await until('\n\n', ); // at least one event block after connected
    await until('event: request');
    await until('"url":"/api/users?live=1"');
    const block = text.slice(text.indexOf('event: request')).split('\n\n')[0]!;
    const data = JSON.parse(block.split('\n').find((l) => l.startsWith('data: '))!.slice(6));
    expect(data).toMatchObject({ method: 'GET', url: '/api/users?live=1', status: 200, answeredBy: { layer: 'files', detail: 'users.json' } });
    controller.abort();
  });

  it('describes routes: files tree with sizes, handlers, scenarios, collector routes', async () => {
    const s = await startServer({ mock: mockOptions(), tracker: true });
    const { status, json } = await getJson(`${s.url}${A}/routes`);
    expect(status).toBe(200);
    expect(json.mock.prefixes).toEqual(['/api']);
    expect(json.mock.files.tree).toEqual([
      { name: 'orders', kind: 'dir', children: [{ name: '1.json', kind: 'file', size: 8 }] },
      { name: 'users.json', kind: 'file', size: 10 },
    ]);
    expect(json.mock.handlers).toEqual([{ method: 'GET', pattern: '/me', disabled: false, fs: false }]);
    expect(json.mock.scenarios).toEqual(['empty']);
    expect(json.collector.basePath).toBe('/_tracker');
    expect(json.collector.routes.map((r: any) => r.path)).toContain('/_tracker/events');
  });

  it('routes: collections with their item counts, WebSocket handlers with their live connections', async () => {
    const s = await startServer({
      mock: mockOptions({ enableWs: true, wsHandlers: [{ pattern: '/live', onMessage: () => {} }, { pattern: '/quiet', onMessage: () => {} }] as MockApiOptions['wsHandlers'] }),
    });
    const routes = async () => (await getJson(`${s.url}${A}/routes`)).json.mock;
    const before = await routes();
    expect(before.collections).toEqual([{ url: '/api/users', file: 'users.json', count: 1 }]);
    expect(before.wsHandlers).toEqual([{ pattern: '/live', connections: 0 }, { pattern: '/quiet', connections: 0 }]);
    const ws = new WebSocket(`${s.url.replace('http', 'ws')}/api/live`);
    await new Promise((resolve, reject) => (ws.once('open', resolve), ws.once('error', reject)));
    expect((await routes()).wsHandlers).toEqual([{ pattern: '/live', connections: 1 }, { pattern: '/quiet', connections: 0 }]);
    ws.close();
    await new Promise((resolve) => ws.once('close', resolve));
    await expect.poll(async () => (await routes()).wsHandlers[0].connections).toBe(0);
    // A write changes the count (the resource map follows the files).
    await fetch(`${s.url}/api/users`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '[{"id":1},{"id":2},{"id":3}]' });
    await expect.poll(async () => (await routes()).collections[0].count).toBe(3);
  });

  it('CORS as the mock API: preflight and answers carry the policy; none without mock.cors', async () => {
    const origin = 'https://app.example';
    const token = 'tok-0123456789abcdef';
    const s = await startServer({ mock: mockOptions({ cors: { origins: [origin] } }), devtools: { token } });
    const pre = await fetch(`${s.url}${A}/requests`, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'DELETE', 'access-control-request-headers': 'authorization' } });
    expect(pre.status).toBe(204); // before the token check: a preflight carries no credentials
    expect(pre.headers.get('access-control-allow-origin')).toBe(origin);
    expect(pre.headers.get('access-control-allow-methods')).toContain('DELETE');
    expect(pre.headers.get('access-control-allow-headers')).toBe('authorization');
    const denied = await fetch(`${s.url}${A}/requests`, { method: 'OPTIONS', headers: { origin: 'https://evil.example', 'access-control-request-method': 'GET' } });
    expect(denied.status).toBe(403);
    const get = await fetch(`${s.url}${A}/scenario`, { headers: { origin, authorization: `Bearer ${token}` } });
    expect(get.status).toBe(200);
    expect(get.headers.get('access-control-allow-origin')).toBe(origin);
    const unauthorized = await fetch(`${s.url}${A}/scenario`, { headers: { origin } });
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers.get('access-control-allow-origin')).toBe(origin); // the page on that origin can read why
    const plain = await startServer({ mock: mockOptions() });
    expect((await fetch(`${plain.url}${A}/scenario`, { headers: { origin } })).headers.get('access-control-allow-origin')).toBeNull();
  });

  it('GET/PUT scenario switches the next answer without a restart; unknown → 400', async () => {
    const s = await startServer({ mock: mockOptions() });
    expect((await getJson(`${s.url}${A}/scenario`)).json).toEqual({ current: null, scenarios: ['empty'], saved: {} });
    expect((await getJson(`${s.url}/api/users`)).json).toEqual([{ id: 1 }]);
    const put = await getJson(`${s.url}${A}/scenario`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{"name":"empty"}' });
    expect(put.json).toEqual({ current: 'empty', scenarios: ['empty'], saved: {} });
    expect((await getJson(`${s.url}/api/users`)).json).toEqual([]);
    const bad = await getJson(`${s.url}${A}/scenario`, { method: 'PUT', body: '{"name":"nope"}' });
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({ status: 400, error: 'BAD_REQUEST', path: `${A}/scenario` });
    expect((await getJson(`${s.url}${A}/scenario`, { method: 'PUT', body: '{"name":' })).status).toBe(400);
    expect((await getJson(`${s.url}${A}/scenario`, { method: 'PUT', body: '{"name":3}' })).status).toBe(400);
    await getJson(`${s.url}${A}/scenario`, { method: 'PUT', body: '{"name":null}' });
    expect((await getJson(`${s.url}/api/users`)).json).toEqual([{ id: 1 }]);
  });

  it('POST reset restores the seed of a memory filesystem', async () => {
    const s = await startServer({ mock: mockOptions() });
    await fetch(`${s.url}/api/users`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '[{"id":7}]' });
    expect((await getJson(`${s.url}/api/users`)).json).toEqual([{ id: 7 }]);
    const r = await getJson(`${s.url}${A}/reset`, { method: 'POST' });
    expect(r).toMatchObject({ status: 200, json: { reset: true } });
    expect((await getJson(`${s.url}/api/users`)).json).toEqual([{ id: 1 }]);
  });

  it('POST reset on disk is a 501 with the error body', async () => {
    const dir = await makeTempDir();
    await mkdir(join(dir, 'mocks'));
    await writeFile(join(dir, 'mocks', 'users.json'), '[]');
    const s = await startServer({ mock: { endpointPrefix: '/api', fsDir: 'mocks', root: dir, logLevel: 'silent' } });
    const r = await getJson(`${s.url}${A}/reset`, { method: 'POST' });
    expect(r.status).toBe(501);
    expect(r.json).toMatchObject({ status: 501, path: `${A}/reset` });
    expect(r.json.message).toContain('not available');
  });

  it('unknown admin paths are 404 and wrong methods 405 with Allow, in the error body', async () => {
    const s = await startServer({ mock: mockOptions() });
    const nf = await getJson(`${s.url}${A}/nope`);
    expect(nf).toMatchObject({ status: 404, json: { status: 404, path: `${A}/nope` } });
    const na = await getJson(`${s.url}${A}/reset`);
    expect(na.status).toBe(405);
    expect(na.headers.get('allow')).toBe('POST');
  });

  it('the base URL the hosts print (/_mockyard/api/) answers an index whose every route exists', async () => {
    const s = await startServer({ mock: mockOptions(), tracker: { appId: 'a' } });
    for (const base of [`${A}/`, A]) {
      const index = await getJson(`${s.url}${base}`);
      expect(index.status).toBe(200);
      expect(index.json.page).toBe('/_mockyard/');
      expect(index.json.routes).toContainEqual({ methods: 'GET, DELETE', path: `${A}/requests` });
    }
    expect((await fetch(`${s.url}${A}/`, { method: 'POST' })).status).toBe(405);
    // Each listed route, placeholders filled, is one the API knows: never the unknown path's bare "Not Found".
    for (const { methods, path } of (await getJson(`${s.url}${A}/`)).json.routes as { methods: string; path: string }[]) {
      const url = path.replace('<name>', path.startsWith(`${A}/data`) ? 'users' : 'empty').replace('<id>', '1').replace('<path>', 'users.json');
      for (const method of methods.split(', ')) {
        const r = await fetch(`${s.url}${url}`, { method, headers: { 'content-type': 'application/json' }, body: method === 'GET' || method === 'DELETE' ? undefined : '{}' });
        const text = r.headers.get('content-type')?.includes('event-stream') ? (await r.body?.cancel(), '') : await r.text();
        expect(r.status === 404 && JSON.parse(text).message === 'Not Found', `${method} ${url}: ${r.status} ${text}`).toBe(false);
        expect(r.status, `${method} ${url}`).not.toBe(405);
      }
    }
  });

  it('devtools: false turns it off (a JSON 404 naming the option)', async () => {
    const s = await startServer({ mock: mockOptions(), devtools: false });
    const r = await getJson(`${s.url}${A}/requests`);
    expect(r.status).toBe(404);
    expect(r.json.message).toContain('devtools: false');
  });
});

describe('admin guard', () => {
  it('tells loopback addresses apart', () => {
    for (const h of ['127.0.0.1', '127.1.2.3', '::1', '[::1]', 'localhost', '::ffff:127.0.0.1']) expect(isLoopbackHost(h)).toBe(true);
    for (const h of ['0.0.0.0', '::', '192.168.1.2', '10.0.0.1', 'example.com']) expect(isLoopbackHost(h)).toBe(false);
  });

  it('resolves the option: on by default only locally; a token elsewhere; true off loopback refused', () => {
    expect(resolveDevtoolsGuard(undefined, true)).toMatchObject({ enabled: true, token: undefined });
    expect(resolveDevtoolsGuard(undefined, false)).toMatchObject({ enabled: false, token: undefined });
    expect(resolveDevtoolsGuard(false, true).enabled).toBe(false);
    expect(() => resolveDevtoolsGuard(true, false)).toThrow(/token/);
    expect(() => resolveDevtoolsGuard({}, false)).toThrow(/devtools\.token/);
    expect(() => resolveDevtoolsGuard({ token: 'short' }, false)).toThrow(/at least 16/);
    expect(resolveDevtoolsGuard({ token: 'a-long-enough-token' }, false)).toMatchObject({ enabled: true, token: 'a-long-enough-token' });
  });

  it('on a non-loopback listen address it is off by default', async () => {
    const s = await startServer({ mock: mockOptions(), host: '0.0.0.0' });
    const port = new URL(s.url).port;
    expect((await fetch(`http://127.0.0.1:${port}${A}/requests`)).status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${port}/api/users`)).status).toBe(200);
  });

  it('with a token it needs Authorization: Bearer <token> (401 otherwise)', async () => {
    const token = 'tok-0123456789abcdef';
    const s = await startServer({ mock: mockOptions(), host: '0.0.0.0', devtools: { token } });
    const base = `http://127.0.0.1:${new URL(s.url).port}${A}`;
    const none = await getJson(`${base}/requests`);
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(none.json).toMatchObject({ status: 401, path: `${A}/requests` });
    expect((await fetch(`${base}/requests`, { headers: { authorization: `Bearer ${token}x` } })).status).toBe(401);
    expect((await fetch(`${base}/requests`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
  });

  it('devtools: true on a non-loopback host is refused at start-up', async () => {
    await expect(startServer({ mock: mockOptions(), host: '0.0.0.0', devtools: true })).rejects.toThrow(/token/);
  });
});
