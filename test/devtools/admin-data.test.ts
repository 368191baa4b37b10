/**
 * The admin API's editing routes through a real node:http server: collections read in pages and
 * written through the store (seen by REST, GraphQL and the store's change events), a session's
 * copy apart from the shared data, If-Match conflicts (412, nothing written), import/export and
 * reset to the seed; mock files created and edited (seen by the files layer, conflicts with an
 * edit on disk); a session override removed by its index; the token guard on every new write.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { memoryFs } from '../../src/vfs/memory.js';
import type { MockApiOptions } from '../../src/engine/mock-api-options.js';
import { isMockApi } from '../../src/engine/is-mock-api.js';
import type { StoreChange } from '../../src/engine/store-contract/contract.js';
import { createServer } from 'node:http';
import { closeServers, startServer } from '../helpers/server.js';
import { makeTempDir, removeTempDirs } from '../helpers/temp-dir.js';

afterEach(async () => {
  await closeServers();
  await removeTempDirs();
});

const A = '/_mockyard/api';
const TODOS = [
  { id: 1, title: 'buy milk', done: false },
  { id: 2, title: 'write tests', done: true },
  { id: 3, title: 'ship it', done: false },
];

function options(extra: Partial<MockApiOptions> = {}): MockApiOptions {
  return {
    endpointPrefix: '/api',
    logLevel: 'silent',
    fs: memoryFs({ 'mocks/todos.json': TODOS, 'mocks/config.json': { theme: 'dark' } }),
    fsDir: 'mocks',
    graphql: true,
    collections: true,
    ...extra,
  };
}

async function call(url: string, method = 'GET', body?: unknown, headers: Record<string, string> = {}) {
  const r = await fetch(url, { method, headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers }, body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body) });
  const text = await r.text();
  return { status: r.status, headers: r.headers, json: text && /json/.test(r.headers.get('content-type') ?? '') ? JSON.parse(text) : undefined, text };
}

async function gql(url: string, query: string, session?: string) {
  const r = await fetch(`${url}/api/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...(session ? { 'x-mockyard-session': session } : {}) }, body: JSON.stringify({ query }) });
  return (await r.json()) as { data: any; errors?: unknown };
}

describe('admin API: data', () => {
  it('lists collections and pages one on the server (sort, q, filter)', async () => {
    const s = await startServer({ mock: options() });
    const list = await call(`${s.url}${A}/data`);
    expect(list.status).toBe(200);
    expect(list.json).toEqual({ scope: { session: null }, collections: [{ name: 'todos', count: 3 }], objects: ['config'] });
    const page = await call(`${s.url}${A}/data/todos?sort=title&order=desc&limit=2`);
    expect(page.json.items.map((t: any) => t.title)).toEqual(['write tests', 'ship it']);
    expect(page.json.total).toBe(3);
    expect(page.json.etags).toHaveLength(2);
    expect((await call(`${s.url}${A}/data/todos?q=MILK`)).json.items.map((t: any) => t.id)).toEqual([1]);
    expect((await call(`${s.url}${A}/data/todos?filter=${encodeURIComponent('{"done":true}')}`)).json.items.map((t: any) => t.id)).toEqual([2]);
    expect((await call(`${s.url}${A}/data/todos?limit=0`)).status).toBe(400);
    expect((await call(`${s.url}${A}/data/todos?filter=nope`)).status).toBe(400);
    expect((await call(`${s.url}${A}/data/nothing`)).status).toBe(404);
  });

  it('pages a 100k-item collection on the server: one page travels, not the collection', async () => {
    const big = Array.from({ length: 100_000 }, (_, i) => ({ id: i + 1, name: `user ${i + 1}`, n: i % 7 }));
    const s = await startServer({ mock: options({ fs: memoryFs({ 'mocks/users.json': big }) }) });
    const t0 = performance.now();
    const page = await call(`${s.url}${A}/data/users?offset=99990&limit=50&sort=id&order=asc`);
    expect(page.json.total).toBe(100_000);
    expect(page.json.items.map((u: any) => u.id)).toEqual(Array.from({ length: 10 }, (_, i) => 99_991 + i));
    expect(page.text.length).toBeLessThan(5_000);
    const q = await call(`${s.url}${A}/data/users?q=user%2099999&limit=50`);
    expect(q.json.items.map((u: any) => u.id)).toEqual([99_999]);
    expect(performance.now() - t0).toBeLessThan(10_000);
  });

  it('writes through the store: REST, GraphQL and change events see the page\u2019s edits', async () => {
    const s = await startServer({ mock: options() });
    const api = s.engines.find(isMockApi)!;
    const changes: StoreChange[] = [];
    await api.app.store.subscribe((c) => changes.push(c));

    const created = await call(`${s.url}${A}/data/todos`, 'POST', { title: 'from the page' });
    expect(created.status).toBe(201);
    expect(created.json).toEqual({ id: 4, title: 'from the page' });
    expect((await call(`${s.url}/api/todos/4`)).json).toEqual({ id: 4, title: 'from the page' });
    expect((await gql(s.url, '{ Todo(id: 4) { title } }')).data.Todo.title).toBe('from the page');

    const one = await call(`${s.url}${A}/data/todos/1`);
    const etag = one.headers.get('etag')!;
    expect(etag).toMatch(/^"/);
    const patched = await call(`${s.url}${A}/data/todos/1`, 'PATCH', { done: true }, { 'if-match': etag });
    expect(patched.status).toBe(200);
    expect(patched.json).toEqual({ id: 1, title: 'buy milk', done: true });
    expect((await call(`${s.url}/api/todos/1`)).json.done).toBe(true);

    const dup = await call(`${s.url}${A}/data/todos/2/duplicate`, 'POST');
    expect(dup.status).toBe(201);
    expect(dup.json).toEqual({ id: 5, title: 'write tests', done: true });

    const replaced = await call(`${s.url}${A}/data/todos/3`, 'PUT', { title: 'only a title' });
    expect(replaced.json).toEqual({ id: 3, title: 'only a title' });
    expect((await call(`${s.url}${A}/data/todos/3`, 'DELETE')).status).toBe(204);
    expect((await call(`${s.url}/api/todos/3`)).status).toBe(404);

    expect(changes.map((c) => `${c.type} ${c.collection} ${c.id}`)).toEqual(['created todos 4', 'updated todos 1', 'created todos 5', 'updated todos 3', 'removed todos 3']);
    // The same validation as REST: a taken id is a 409, a non-object a 400.
    expect((await call(`${s.url}${A}/data/todos`, 'POST', { id: 1 })).status).toBe(409);
    expect((await call(`${s.url}${A}/data/todos`, 'POST', [1])).status).toBe(400);
    expect((await call(`${s.url}${A}/data/todos`, 'POST', '{"__proto__":{}}')).status).toBe(400);
  });

  it('refuses a write from a stale view with 412 and writes nothing', async () => {
    const s = await startServer({ mock: options() });
    const tabA = (await call(`${s.url}${A}/data/todos?limit=10`)).json;
    const tabB = (await call(`${s.url}${A}/data/todos?limit=10`)).json;
    expect(tabA.etags[0]).toBe(tabB.etags[0]);
    expect((await call(`${s.url}${A}/data/todos/1`, 'PATCH', { title: 'tab A' }, { 'if-match': tabA.etags[0] })).status).toBe(200);
    const late = await call(`${s.url}${A}/data/todos/1`, 'PATCH', { title: 'tab B' }, { 'if-match': tabB.etags[0] });
    expect(late.status).toBe(412);
    expect(late.json.message).toMatch(/changed since you read it/);
    expect(late.json.etag).toBe(late.headers.get('etag'));
    expect((await call(`${s.url}/api/todos/1`)).json.title).toBe('tab A');
    expect((await call(`${s.url}${A}/data/todos/1`, 'DELETE', undefined, { 'if-match': tabB.etags[0] })).status).toBe(412);
    expect((await call(`${s.url}/api/todos/1`)).status).toBe(200);
  });

  it('works on a session\u2019s copy, labelled, apart from the shared data; resets to the seed', async () => {
    const s = await startServer({ mock: options() });
    const inSession = await call(`${s.url}${A}/data/todos?session=alice`, 'POST', { title: 'alice only' });
    expect(inSession.status).toBe(201);
    expect((await call(`${s.url}${A}/data?session=alice`)).json).toEqual({ scope: { session: 'alice' }, collections: [{ name: 'todos', count: 4 }], objects: ['config'] });
    expect((await call(`${s.url}/api/todos/4`, 'GET', undefined, { 'x-mockyard-session': 'alice' })).json.title).toBe('alice only');
    expect((await gql(s.url, '{ Todo(id: 4) { title } }', 'alice')).data.Todo.title).toBe('alice only');
    expect((await call(`${s.url}/api/todos/4`)).status).toBe(404);
    expect((await call(`${s.url}/api/todos/4`, 'GET', undefined, { 'x-mockyard-session': 'bob' })).status).toBe(404);
    // Reset the session's collection: back to the shared data.
    expect((await call(`${s.url}${A}/data/todos/reset?session=alice`, 'POST')).json.count).toBe(3);
    expect((await call(`${s.url}/api/todos/4`, 'GET', undefined, { 'x-mockyard-session': 'alice' })).status).toBe(404);
    // Reset the shared collection: back to the memory filesystem's seed.
    await call(`${s.url}${A}/data/todos/1`, 'DELETE');
    expect((await call(`${s.url}/api/todos/1`)).status).toBe(404);
    expect((await call(`${s.url}${A}/data/todos/reset`, 'POST')).json.count).toBe(3);
    expect((await call(`${s.url}/api/todos`)).json).toEqual(TODOS);
  });

  it('exports a collection as JSON and imports one back in one write', async () => {
    const s = await startServer({ mock: options() });
    const exported = await call(`${s.url}${A}/data/todos?export=true`);
    expect(exported.headers.get('content-disposition')).toBe('attachment; filename="todos.json"');
    expect(JSON.parse(exported.text)).toEqual(TODOS);
    const imported = await call(`${s.url}${A}/data/todos`, 'PUT', [{ id: 'a', title: 'imported' }, { title: 'no id' }]);
    expect(imported.json).toEqual({ scope: { session: null }, name: 'todos', count: 2 });
    const now = (await call(`${s.url}/api/todos`)).json;
    expect(now[0]).toEqual({ id: 'a', title: 'imported' });
    expect(now).toHaveLength(2);
    expect((await call(`${s.url}${A}/data/todos`, 'PUT', { not: 'an array' })).status).toBe(400);
    // A bad item rolls the whole import back.
    expect((await call(`${s.url}${A}/data/todos`, 'PUT', [{ id: 9 }, { id: 9 }])).status).toBe(409);
    expect((await call(`${s.url}/api/todos`)).json).toHaveLength(2);
  });

  it('answers 501 for a collection reset on a disk folder (no seed kept)', async () => {
    const dir = await makeTempDir();
    await writeFile(join(dir, 'todos.json'), JSON.stringify(TODOS));
    const s = await startServer({ mock: { endpointPrefix: '/api', logLevel: 'silent', fsDir: dir } });
    expect((await call(`${s.url}${A}/data/todos/reset`, 'POST')).status).toBe(501);
  });
});

describe('admin API: files', () => {
  it('creates a static route as an ordinary mock file, edits it with If-Match, refuses stale and invalid writes', async () => {
    const dir = await makeTempDir();
    await mkdir(join(dir, 'api'), { recursive: true });
    await writeFile(join(dir, 'api', 'todos.json'), JSON.stringify(TODOS));
    const s = await startServer({ mock: { endpointPrefix: '/api', logLevel: 'silent', fsDir: dir, collections: true } });
    // Create: /api/flags answered from flags.json on disk.
    const made = await call(`${s.url}${A}/files/flags.json`, 'PUT', { beta: true }, { 'if-none-match': '*' });
    expect(made.status).toBe(201);
    expect(JSON.parse(await readFile(join(dir, 'flags.json'), 'utf8'))).toEqual({ beta: true });
    expect((await call(`${s.url}/api/flags`)).json).toEqual({ beta: true });
    expect((await call(`${s.url}${A}/files/flags.json`, 'PUT', { beta: false }, { 'if-none-match': '*' })).status).toBe(412);
    // No precondition: 428, nothing written.
    expect((await call(`${s.url}${A}/files/flags.json`, 'PUT', { beta: false })).status).toBe(428);
    // Edit with the tag of what was read.
    const read = await call(`${s.url}${A}/files/flags.json`);
    const etag = read.headers.get('etag')!;
    expect(made.headers.get('etag')).toBe(etag);
    // Someone edits the file on disk meanwhile: the page's save is refused, the disk edit kept.
    await writeFile(join(dir, 'flags.json'), '{"beta":"from the editor"}');
    const stale = await call(`${s.url}${A}/files/flags.json`, 'PUT', { beta: 'from the page' }, { 'if-match': etag });
    expect(stale.status).toBe(412);
    expect(await readFile(join(dir, 'flags.json'), 'utf8')).toBe('{"beta":"from the editor"}');
    const fresh = (await call(`${s.url}${A}/files/flags.json`)).headers.get('etag')!;
    expect((await call(`${s.url}${A}/files/flags.json`, 'PUT', '{"beta": "page"}', { 'if-match': fresh })).status).toBe(200);
    expect((await call(`${s.url}/api/flags`)).json).toEqual({ beta: 'page' });
    // Validation: a .json file must be JSON.
    const bad = await call(`${s.url}${A}/files/flags.json`, 'PUT', '{"beta": tru', { 'if-match': '*' });
    expect(bad.status).toBe(400);
    expect((await call(`${s.url}/api/flags`)).json).toEqual({ beta: 'page' });
    // Text files are written as given; traversal is refused.
    expect((await call(`${s.url}${A}/files/hello.txt`, 'PUT', 'hi there', { 'if-none-match': '*', 'content-type': 'text/plain' })).status).toBe(201);
    expect((await call(`${s.url}/api/hello.txt`)).text).toBe('hi there');
    expect((await call(`${s.url}${A}/files/..%2fescape.json`, 'PUT', '{}', { 'if-none-match': '*' })).status).toBe(400);
    // Delete with If-Match.
    const tag = (await call(`${s.url}${A}/files/hello.txt`)).headers.get('etag')!;
    expect((await call(`${s.url}${A}/files/hello.txt`, 'DELETE', undefined, { 'if-match': tag })).status).toBe(204);
    expect((await call(`${s.url}/api/hello.txt`)).status).toBe(404);
  });
});

describe('admin API: openapi', () => {
  it('describes the document\u2019s operations, responses and examples, with the override pattern', async () => {
    const document = {
      openapi: '3.0.3',
      info: { title: 'pets', version: '1' },
      paths: { '/pets/{petId}': { get: { parameters: [{ name: 'petId', in: 'path', required: true, schema: { type: 'integer' } }], responses: { '200': { description: 'a pet', content: { 'application/json': { example: { id: 1 } } } }, '404': { description: 'none' } } } } },
    };
    const s = await startServer({ mock: { endpointPrefix: '/api', logLevel: 'silent', fs: memoryFs({}), openapi: { document } } });
    const r = await call(`${s.url}${A}/openapi`);
    expect(r.status).toBe(200);
    expect(r.json).toEqual({
      title: 'pets',
      basePath: '',
      operations: [
        {
          method: 'GET',
          template: '/pets/{petId}',
          pattern: '/pets/:petId',
          label: 'GET /pets/{petId}',
          operationId: null,
          responses: [
            { code: '200', description: 'a pet', contents: [{ type: 'application/json', example: { id: 1 }, examples: {} }] },
            { code: '404', description: 'none', contents: [] },
          ],
        },
      ],
    });
    const plain = await startServer({ mock: options() });
    expect((await call(`${plain.url}${A}/openapi`)).status).toBe(404);
  });
});

describe('admin API: events export', () => {
  it('exports a time window of the collector\u2019s events as JSON Lines, in pages, through the collector\u2019s key', async () => {
    const s = await startServer({ mock: options(), tracker: { appId: 'editor-test', apiKey: 'collector-key-123' } });
    const now = Date.now();
    const events = Array.from({ length: 25_000 }, (_, i) => ({ id: '', timestamp: new Date(now - 60_000 + (i % 1000)).toISOString(), i }));
    for (let b = 0; b < events.length; b += 500) {
      const ingest = await fetch(`${s.url}/_tracker/events`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-tracker-key': 'collector-key-123' }, body: JSON.stringify({ type: 'ingest', batchId: `b${b}`, events: events.slice(b, b + 500) }) });
      expect(ingest.status).toBeLessThan(300);
    }
    const q = `since=${new Date(now - 120_000).toISOString()}&until=${new Date(now + 1000).toISOString()}`;
    expect((await call(`${s.url}${A}/events/export?${q}`)).status).toBe(401);
    expect((await call(`${s.url}${A}/events/export`, 'GET', undefined, { 'x-tracker-key': 'collector-key-123' })).status).toBe(400);
    const res = await fetch(`${s.url}${A}/events/export?${q}`, { headers: { 'x-tracker-key': 'collector-key-123' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8');
    const lines = (await res.text()).trimEnd().split('\n');
    expect(lines).toHaveLength(25_000);
    const parsed = lines.map((l) => JSON.parse(l) as { i: number; id: string });
    expect(new Set(parsed.map((e) => e.id)).size).toBe(25_000);
    expect(new Set(parsed.map((e) => e.i)).size).toBe(25_000);
  });
});

describe('admin API: delete a time range of events', () => {
  it('deletes [from, to) through the collector\u2019s store, with its key; the read API and the guard agree', async () => {
    const dir = await makeTempDir();
    const key = { 'x-tracker-key': 'collector-key-123' };
    const tracker = { appId: 'editor-test', apiKey: 'collector-key-123', storageDir: dir };
    const s = await startServer({ mock: options(), tracker });
    const at = (m: number) => `2026-05-01T10:${String(m).padStart(2, '0')}:00.000Z`;
    const events = Array.from({ length: 30 }, (_, m) => ({ id: '', timestamp: at(m), m }));
    expect((await fetch(`${s.url}/_tracker/events`, { method: 'POST', headers: { 'content-type': 'application/json', ...key }, body: JSON.stringify({ type: 'ingest', events }) })).status).toBe(200);
    const range = `from=${at(10)}&to=${at(20)}`;
    expect((await call(`${s.url}${A}/events?${range}`, 'DELETE')).status).toBe(401);
    expect((await call(`${s.url}${A}/events?${range}`, 'DELETE', undefined, { ...key, origin: 'http://evil.example' })).status).toBe(403);
    expect((await call(`${s.url}${A}/events?from=${at(20)}&to=${at(10)}`, 'DELETE', undefined, key)).status).toBe(400);
    expect((await call(`${s.url}${A}/events?from=yesterday&to=${at(10)}`, 'DELETE', undefined, key)).json.message).toMatch(/Invalid "from"/);
    expect((await call(`${s.url}${A}/events?${range}`, 'GET', undefined, key)).status).toBe(405);
    const del = await call(`${s.url}${A}/events?${range}`, 'DELETE', undefined, { ...key, origin: s.url });
    expect(del.status).toBe(200);
    expect(del.json).toEqual({ deleted: 10, from: at(10), to: at(20) });
    const read = async (url: string) => ((await (await fetch(`${url}/_tracker?since=${at(0)}&until=${at(59)}`, { headers: key })).json()) as { events: Array<{ m: number }>; total: number });
    const left = Array.from({ length: 30 }, (_, m) => m).filter((m) => m < 10 || m >= 20).reverse();
    expect((await read(s.url)).events.map((e) => e.m)).toEqual(left);
    await s.close();
    const again = await startServer({ mock: options(), tracker });
    expect((await read(again.url)).events.map((e) => e.m)).toEqual(left); // the segments on disk agree
    const token = 'a-devtools-token-of-16+';
    const guarded = await startServer({ devtools: { token }, mock: options(), tracker: { appId: 'editor-test' } });
    expect((await call(`${guarded.url}${A}/events?${range}`, 'DELETE')).status).toBe(401);
    expect((await call(`${guarded.url}${A}/events?${range}`, 'DELETE', undefined, { authorization: `Bearer ${token}` })).json).toEqual({ deleted: 0, from: at(10), to: at(20) });
  });
});

describe('admin API: record', () => {
  it('starts and stops recording through the proxy; what was recorded is replayed from the mocks folder', async () => {
    let version = 'v1';
    const upstream = createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ path: req.url, version }));
    });
    await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
    const target = `http://127.0.0.1:${(upstream.address() as { port: number }).port}`;
    try {
      const dir = await makeTempDir();
      const s = await startServer({ mock: { endpointPrefix: '/api', logLevel: 'silent', fsDir: dir, proxy: { target } } });
      expect((await call(`${s.url}${A}/record`)).json).toEqual({ target, recording: false, entries: [] });
      expect((await call(`${s.url}/api/before`)).json.version).toBe('v1');
      const on = await call(`${s.url}${A}/record`, 'PUT', { recording: true });
      expect(on.json.recording).toBe(true);
      expect((await call(`${s.url}/api/users`)).json).toEqual({ path: '/api/users', version: 'v1' });
      await expect.poll(async () => (await call(`${s.url}${A}/record`)).json.entries.map((e: any) => `${e.method} ${e.path} ${e.status}`)).toEqual(['GET /api/users 200']);
      await expect.poll(async () => readFile(join(dir, 'users.json'), 'utf8').catch(() => '')).toContain('"v1"');
      const off = await call(`${s.url}${A}/record`, 'PUT', { recording: false });
      expect(off.json.recording).toBe(false);
      expect(off.json.entries).toHaveLength(1); // what was recorded stays listed
      version = 'v2';
      // Replay: the recorded answer, not the target's new one; other paths still go to the target, unrecorded.
      expect((await call(`${s.url}/api/users`)).json).toEqual({ path: '/api/users', version: 'v1' });
      expect((await call(`${s.url}/api/other`)).json.version).toBe('v2');
      await expect.poll(async () => readFile(join(dir, 'other.json'), 'utf8').catch(() => 'absent')).toBe('absent');
      expect((await call(`${s.url}${A}/record`, 'PUT', { recording: 'yes' })).status).toBe(400);
      const plain = await startServer({ mock: options() });
      expect((await call(`${plain.url}${A}/record`, 'PUT', { recording: true })).status).toBe(409);
    } finally {
      await new Promise((r) => upstream.close(r));
    }
  });
});

describe('admin API: route overrides and the guard', () => {
  it('removes one session override by its index (undo)', async () => {
    const s = await startServer({ mock: options() });
    await call(`${s.url}${A}/sessions/alice/overrides`, 'POST', { method: 'GET', path: '/todos', status: 500 });
    await call(`${s.url}${A}/sessions/alice/overrides`, 'POST', { method: 'GET', path: '/todos/:id', delay: 10 });
    const listed = (await call(`${s.url}${A}/sessions/alice/overrides`)).json.overrides;
    expect(listed.map((o: any) => o.path)).toEqual(['/todos/:id', '/todos']);
    expect((await call(`${s.url}/api/todos`, 'GET', undefined, { 'x-mockyard-session': 'alice' })).status).toBe(500);
    const after = await call(`${s.url}${A}/sessions/alice/overrides/1`, 'DELETE');
    expect(after.json.overrides.map((o: any) => o.path)).toEqual(['/todos/:id']);
    expect((await call(`${s.url}/api/todos`, 'GET', undefined, { 'x-mockyard-session': 'alice' })).status).toBe(200);
    expect((await call(`${s.url}${A}/sessions/alice/overrides/5`, 'DELETE')).status).toBe(404);
    expect((await call(`${s.url}${A}/sessions/nobody/overrides/0`, 'DELETE')).status).toBe(404);
  });

  it('needs the token for every new write when the guard asks for one', async () => {
    const token = 'a-long-enough-token';
    const s = await startServer({ mock: options(), devtools: { token } });
    for (const [path, method, body, headers] of [
      ['/data/todos', 'POST', { title: 'x' }, {}],
      ['/data/todos/1', 'PATCH', { title: 'x' }, {}],
      ['/data/todos/1', 'DELETE', undefined, {}],
      ['/data/todos', 'PUT', [], {}],
      ['/data/todos/reset', 'POST', undefined, {}],
      ['/files/x.json', 'PUT', {}, { 'if-none-match': '*' }],
      ['/sessions/a/overrides/0', 'DELETE', undefined, {}],
    ] as const) {
      expect((await call(`${s.url}${A}${path}`, method, body, headers)).status, `${method} ${path}`).toBe(401);
    }
    expect((await call(`${s.url}/api/todos`)).json).toEqual(TODOS);
    expect((await call(`${s.url}${A}/data/todos`, 'POST', { title: 'x' }, { authorization: `Bearer ${token}` })).status).toBe(201);
  });

  it('refuses every new write from another origin (the guard\u2019s Origin rule), and reads sent to a foreign Host', async () => {
    const s = await startServer({ mock: options() });
    const evil = { origin: 'http://evil.example' };
    for (const [path, method, body, headers] of [
      ['/data/todos', 'POST', { title: 'x' }, evil],
      ['/data/todos/1', 'PATCH', { title: 'x' }, evil],
      ['/data/todos/1', 'DELETE', undefined, evil],
      ['/data/todos', 'PUT', [], evil],
      ['/data/todos/reset', 'POST', undefined, evil],
      ['/data/todos/1/duplicate', 'POST', undefined, evil],
      ['/files/x.json', 'PUT', {}, { ...evil, 'if-none-match': '*' }],
      ['/sessions/a/overrides/0', 'DELETE', undefined, evil],
    ] as const) {
      expect((await call(`${s.url}${A}${path}`, method, body, headers)).status, `${method} ${path}`).toBe(403);
    }
    expect((await call(`${s.url}/api/todos`)).json).toEqual(TODOS);
    // The page's own origin may write.
    expect((await call(`${s.url}${A}/data/todos`, 'POST', { title: 'x' }, { origin: s.url })).status).toBe(201);
  });
});
