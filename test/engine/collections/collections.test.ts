/**
 * Collections on the engine with memoryFs: item routes, POST append with ids, merge
 * and JSON Patch into an item, files and handlers winning, the fast path, serialised writes.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createMockApi, type MockApi } from '../../../src/engine/create-mock-api.js';
import { memoryFs } from '../../../src/vfs/memory.js';
import { req, see } from '../../helpers/engine-request.js';

const apis: MockApi[] = [];
afterEach(async () => {
  await Promise.all(apis.splice(0).map((a) => a.close()));
});

function api(tree: Record<string, unknown>, extra: Record<string, unknown> = { collections: true }) {
  const fs = memoryFs(tree as never);
  const a = createMockApi({ endpointPrefix: '/api', fs, logLevel: 'silent', ...extra });
  apis.push(a);
  return { a, fs };
}

async function stored(fs: ReturnType<typeof memoryFs>, path: string): Promise<unknown> {
  return JSON.parse(new TextDecoder().decode(await fs.read(path)));
}

const users = [{ id: 1, name: 'Ada' }, { id: 2, name: 'Linus' }, { id: '7', name: 'Grace' }];

describe('item routes', () => {
  it('GET /users/1 answers the item; "7" and 7 match the stored type; unknown id is the JSON 404', async () => {
    const { a } = api({ 'users.json': users });
    expect((await see(await a.handle(req('GET', '/api/users/1')))).json).toEqual({ id: 1, name: 'Ada' });
    expect((await see(await a.handle(req('GET', '/api/users/7')))).json).toEqual({ id: '7', name: 'Grace' });
    const miss = await see(await a.handle(req('GET', '/api/users/99')));
    expect(miss.status).toBe(404);
    const head = await a.handle(req('HEAD', '/api/users/2'));
    expect(head!.status).toBe(200);
    expect(Number(head!.headers.get('content-length'))).toBe(JSON.stringify(users[1]).length);
  });

  it('is off by default: the spec answers 404 for /users/1 when users.json is an array', async () => {
    const { a } = api({ 'users.json': users }, {});
    expect((await a.handle(req('GET', '/api/users/1')))!.status).toBe(404);
  });

  it('files win over items: users/1.json is served as stored', async () => {
    const { a } = api({ 'users.json': users, 'users/1.json': { from: 'file' } });
    expect((await see(await a.handle(req('GET', '/api/users/1')))).json).toEqual({ from: 'file' });
  });

  it('handlers win over items', async () => {
    const { a } = api({ 'users.json': users }, { collections: true, handlers: [{ pattern: '/users/{id}', method: 'GET', handle: () => ({ handler: true }) }] });
    expect((await see(await a.handle(req('GET', '/api/users/1')))).json).toEqual({ handler: true });
  });

  it('PATCH merges into the item (merge patch and JSON Patch), keeps its id, writes the file', async () => {
    const { a, fs } = api({ 'users.json': users });
    const r = await see(await a.handle(req('PATCH', '/api/users/1', { json: { role: 'dev', name: null, id: 5 } })));
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ id: 1, role: 'dev' });
    const jp = await see(await a.handle(req('PATCH', '/api/users/2', { body: JSON.stringify([{ op: 'add', path: '/tags', value: ['x'] }]), headers: { 'content-type': 'application/json-patch+json' } })));
    expect(jp.json).toEqual({ id: 2, name: 'Linus', tags: ['x'] });
    expect(await stored(fs, 'users.json')).toEqual([{ id: 1, role: 'dev' }, { id: 2, name: 'Linus', tags: ['x'] }, users[2]]);
    const failing = await a.handle(req('PATCH', '/api/users/2', { body: JSON.stringify([{ op: 'test', path: '/name', value: 'nope' }]), headers: { 'content-type': 'application/json-patch+json' } }));
    expect(failing!.status).toBe(409);
    expect((await stored(fs, 'users.json') as unknown[])[1]).toEqual({ id: 2, name: 'Linus', tags: ['x'] });
  });

  it('PUT replaces the item (id kept), DELETE removes it (200 with the item, X-Deleted-Count: 1)', async () => {
    const { a, fs } = api({ 'users.json': users });
    expect((await see(await a.handle(req('PUT', '/api/users/2', { json: { name: 'L' } })))).json).toEqual({ name: 'L', id: 2 });
    const del = await see(await a.handle(req('DELETE', '/api/users/1')));
    expect(del.status).toBe(200);
    expect(del.headers['x-deleted-count']).toBe('1');
    expect(del.json).toEqual(users[0]);
    expect(await stored(fs, 'users.json')).toEqual([{ name: 'L', id: 2 }, users[2]]);
    expect((await a.handle(req('DELETE', '/api/users/1')))!.status).toBe(404);
    expect((await a.handle(req('GET', '/api/users/7')))!.status).toBe(200);
  });

  it('refuses forbidden keys and malformed JSON with 400, non-JSON PATCH types with 415', async () => {
    const { a } = api({ 'users.json': users });
    expect((await a.handle(req('PATCH', '/api/users/1', { body: '{"__proto__":{"x":1}}', headers: { 'content-type': 'application/json' } })))!.status).toBe(400);
    expect((await a.handle(req('PUT', '/api/users/1', { body: '{nope', headers: { 'content-type': 'application/json' } })))!.status).toBe(400);
    expect((await a.handle(req('PATCH', '/api/users/1', { body: 'x', headers: { 'content-type': 'text/plain' } })))!.status).toBe(415);
  });
});

describe('POST append', () => {
  it('json-server preset: a form POST stores its fields as strings, a repeated one as a list, any name as given', async () => {
    const { a, fs } = api({ 'posts.json': [] }, { preset: 'json-server' });
    const body = 'title=x&tag=a&tag=b&toString=t';
    const r = await see(await a.handle(req('POST', '/api/posts', { body, headers: { 'content-type': 'application/x-www-form-urlencoded' } })));
    expect(r.status).toBe(201);
    expect(await stored(fs, 'posts.json')).toEqual([{ title: 'x', tag: ['a', 'b'], toString: 't', id: 1 }]);
  });

  it('json-server preset: a form field named __proto__ is refused as a JSON body key is (400 JSON error), nothing stored', async () => {
    const { a, fs } = api({ 'posts.json': [] }, { preset: 'json-server' });
    const form = await see(await a.handle(req('POST', '/api/posts', { body: 'title=x&__proto__=t', headers: { 'content-type': 'application/x-www-form-urlencoded' } })));
    const json = await see(await a.handle(req('POST', '/api/posts', { body: '{"title":"x","__proto__":"t"}', headers: { 'content-type': 'application/json' } })));
    expect(json.status).toBe(400);
    expect(form.status).toBe(json.status);
    expect({ ...form.json, timestamp: 0 }).toEqual({ ...json.json, timestamp: 0 });
    expect(await stored(fs, 'posts.json')).toEqual([]);
  });

  it('assigns max + 1 to numeric collections, answers 201 with Location and the stored item', async () => {
    const { a, fs } = api({ 'posts.json': [{ id: 1 }, { id: 4 }] });
    const r = await see(await a.handle(req('POST', '/api/posts', { json: { title: 'x' } })));
    expect(r.status).toBe(201);
    expect(r.json).toEqual({ id: 5, title: 'x' });
    expect(r.headers.location).toBe('/api/posts/5');
    expect(await stored(fs, 'posts.json')).toEqual([{ id: 1 }, { id: 4 }, { id: 5, title: 'x' }]);
    expect((await see(await a.handle(req('GET', '/api/posts/5')))).json).toEqual({ id: 5, title: 'x' });
  });

  it('assigns a UUID to string-id collections; keeps a given id; a duplicate id is 409', async () => {
    const { a } = api({ 'posts.json': [{ id: 'a' }] });
    const r = await see(await a.handle(req('POST', '/api/posts', { json: { t: 1 } })));
    expect(r.json.id).toMatch(/^[0-9a-f-]{36}$/);
    expect((await see(await a.handle(req('POST', '/api/posts', { json: { id: 'b' } })))).status).toBe(201);
    const dup = await see(await a.handle(req('POST', '/api/posts', { json: { id: 'b' } })));
    expect(dup.status).toBe(409);
    expect(dup.json.message).toMatch(/already exists/);
  });

  it('concurrent POSTs and PATCHes lose nothing and get distinct ids', async () => {
    const { a, fs } = api({ 'posts.json': [{ id: 1, n: 0 }] });
    const posts = await Promise.all(Array.from({ length: 20 }, (_, i) => a.handle(req('POST', '/api/posts', { json: { i } }))));
    const ids = await Promise.all(posts.map(async (p) => (await p!.json() as { id: number }).id));
    expect(new Set(ids).size).toBe(20);
    await Promise.all(Array.from({ length: 10 }, (_, i) => a.handle(req('PATCH', '/api/posts/1', { json: { [`k${i}`]: i } }))));
    const doc = await stored(fs, 'posts.json') as Array<Record<string, unknown>>;
    expect(doc).toHaveLength(21);
    expect(Object.keys(doc[0]!).filter((k) => k.startsWith('k'))).toHaveLength(10);
  });

  it('uses idField', async () => {
    const { a } = api({ 'users.json': [{ uid: 'x', n: 1 }] }, { collections: { idField: 'uid' } });
    expect((await see(await a.handle(req('GET', '/api/users/x')))).json).toEqual({ uid: 'x', n: 1 });
  });
});

describe('fast path', () => {
  it('answers a cached item GET synchronously (handleCached) with the same bytes as handle()', async () => {
    const { a } = api({ 'users.json': users });
    const first = await see(await a.handle(req('GET', '/api/users/2')));
    const cached = a.handleCached(req('GET', '/api/users/2'));
    expect(cached).toBeDefined();
    expect(await see(cached)).toEqual(first);
    // After a write the fast path serves the new item.
    await a.handle(req('PATCH', '/api/users/2', { json: { name: 'Z' } }));
    expect((await see(a.handleCached(req('GET', '/api/users/2')))).json).toEqual({ id: 2, name: 'Z' });
  });
});
