/**
 * Route overrides outside sessions and the Prefer override, through the admin API of a real
 * node:http server, checked by plain REST requests from a client that names no session:
 * the shared overrides (every request without a session; sessions keep theirs), saved scenarios
 * (made of overrides, selected as configured ones: PUT scenario, the header, a session's
 * scenario; undone one by one; dropped), the one route-overrides layer all three go through, and
 * `prefer` overrides that make the OpenAPI backend's own Prefer rule pick the answer (a named
 * example, a documented error, a response documented by its schema only).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { memoryFs } from '../../src/vfs/memory.js';
import type { MockApiOptions } from '../../src/engine/mock-api-options.js';
import { closeServers, startServer } from '../helpers/server.js';

afterEach(async () => {
  await closeServers();
});

const A = '/_mockyard/api';
const TODOS = [
  { id: 1, title: 'buy milk' },
  { id: 2, title: 'write tests' },
];

function options(extra: Partial<MockApiOptions> = {}): MockApiOptions {
  return { endpointPrefix: '/api', logLevel: 'silent', fs: memoryFs({ 'mocks/todos.json': TODOS }), fsDir: 'mocks', collections: true, ...extra };
}

async function call(url: string, method = 'GET', body?: unknown, headers: Record<string, string> = {}) {
  const r = await fetch(url, { method, headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await r.text();
  return { status: r.status, json: text && /json/.test(r.headers.get('content-type') ?? '') ? JSON.parse(text) : undefined, text };
}

describe('admin API: shared route overrides', () => {
  it('apply to every request without a session, not to a session; each undone by its index', async () => {
    const s = await startServer({ mock: options() });
    expect((await call(`${s.url}${A}/overrides`)).json).toEqual({ overrides: [] });
    const added = await call(`${s.url}${A}/overrides`, 'POST', { method: 'GET', path: '/todos/1', status: 500, errorRate: 1 });
    expect(added.status).toBe(200);
    expect(added.json.overrides).toEqual([{ method: 'GET', path: '/todos/1', status: 500, errorRate: 1 }]);
    expect((await call(`${s.url}/api/todos/1`)).status).toBe(500); // another client, no session
    expect((await call(`${s.url}/api/todos`)).status).toBe(200); // another route
    expect((await call(`${s.url}/api/todos/1`, 'GET', undefined, { 'x-mockyard-session': 'alice' })).status).toBe(200); // a session keeps its own

    await call(`${s.url}${A}/overrides`, 'POST', [{ method: 'GET', path: '/todos', status: 404, errorRate: 1 }, { method: 'GET', path: '/todos/2', body: { id: 2, title: 'overridden' } }]);
    expect((await call(`${s.url}/api/todos`)).status).toBe(404);
    expect((await call(`${s.url}/api/todos/2`)).json).toEqual({ id: 2, title: 'overridden' });
    const listed = (await call(`${s.url}${A}/overrides`)).json.overrides as Array<{ path: string }>;
    expect(listed.map((o) => o.path)).toEqual(['/todos', '/todos/2', '/todos/1']); // newest first

    expect((await call(`${s.url}${A}/overrides/0`, 'DELETE')).json.overrides).toHaveLength(2); // undo "off"
    expect((await call(`${s.url}/api/todos`)).status).toBe(200);
    expect((await call(`${s.url}${A}/overrides/9`, 'DELETE')).status).toBe(404);
    expect((await call(`${s.url}${A}/overrides`, 'DELETE')).json).toEqual({ overrides: [] });
    expect((await call(`${s.url}/api/todos/1`)).json).toEqual(TODOS[0]);
  });

  it('a delay and a connection fault as shared overrides; a bad override is a 400 naming the field', async () => {
    const s = await startServer({ mock: options() });
    await call(`${s.url}${A}/overrides`, 'POST', { path: '/todos', delay: 300 });
    const t0 = performance.now();
    expect((await call(`${s.url}/api/todos`)).status).toBe(200);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(280);
    await call(`${s.url}${A}/overrides`, 'POST', { path: '/todos/:id', fault: 'connection-reset' });
    await expect(fetch(`${s.url}/api/todos/1`)).rejects.toThrow();
    const bad = await call(`${s.url}${A}/overrides`, 'POST', { path: '/todos', status: 'x' });
    expect(bad.status).toBe(400);
    expect(bad.json.message).toMatch(/overrides\[0\]\.status/);
    expect((await call(`${s.url}${A}/overrides`)).json.overrides).toHaveLength(2); // nothing added
  });
});

describe('admin API: saved scenarios', () => {
  it('a scenario made of overrides: listed as saved, selected like a configured one, undone, dropped', async () => {
    const s = await startServer({ mock: options({ scenarios: { configured: { faults: [{ path: '/todos', status: 418 }] } } }) });
    const made = await call(`${s.url}${A}/scenarios/broken/overrides`, 'POST', { method: 'GET', path: '/todos/:id', status: 503, errorRate: 1 });
    expect(made.status).toBe(201);
    expect(made.json).toEqual({ name: 'broken', overrides: [{ method: 'GET', path: '/todos/:id', status: 503, errorRate: 1 }], current: false });
    expect((await call(`${s.url}${A}/scenarios/broken/overrides`, 'POST', { path: '/todos', delay: 10 })).status).toBe(200);
    const state = (await call(`${s.url}${A}/scenario`)).json;
    expect(state.scenarios).toEqual(['configured', 'broken']);
    expect(Object.keys(state.saved)).toEqual(['broken']);

    // Not chosen: nothing changes.
    expect((await call(`${s.url}/api/todos/1`)).status).toBe(200);
    // Chosen per request (the header, the parameter), then for everyone.
    expect((await call(`${s.url}/api/todos/1`, 'GET', undefined, { 'x-mockyard-scenario': 'broken' })).status).toBe(503);
    expect((await call(`${s.url}/api/todos/1?__scenario=broken`)).status).toBe(503);
    expect((await call(`${s.url}${A}/scenario`, 'PUT', { name: 'broken' })).json.current).toBe('broken');
    expect((await call(`${s.url}/api/todos/1`)).status).toBe(503);
    expect((await call(`${s.url}/api/todos/1`, 'GET', undefined, { 'x-mockyard-session': 'bob' })).status).toBe(503); // a session follows the current scenario too
    // A session may choose it for itself.
    await call(`${s.url}${A}/scenario`, 'PUT', { name: null });
    expect((await call(`${s.url}/api/todos/1`)).status).toBe(200);
    await call(`${s.url}${A}/sessions/carol/scenario`, 'PUT', { name: 'broken' });
    expect((await call(`${s.url}/api/todos/1`, 'GET', undefined, { 'x-mockyard-session': 'carol' })).status).toBe(503);
    expect((await call(`${s.url}/api/todos/1`)).status).toBe(200);

    // Undo its 503 (index 1: the older one), then drop it.
    const after = await call(`${s.url}${A}/scenarios/broken/overrides/1`, 'DELETE');
    expect(after.json.overrides).toEqual([{ method: '*', path: '/todos', delay: 10 }]);
    expect((await call(`${s.url}/api/todos/1`, 'GET', undefined, { 'x-mockyard-session': 'carol' })).status).toBe(200);
    await call(`${s.url}${A}/scenario`, 'PUT', { name: 'broken' });
    expect((await call(`${s.url}${A}/scenarios/broken`, 'DELETE')).status).toBe(204);
    expect((await call(`${s.url}${A}/scenario`)).json).toEqual({ current: null, scenarios: ['configured'], saved: {} });
    expect((await call(`${s.url}/api/todos/1`, 'GET', undefined, { 'x-mockyard-scenario': 'broken' })).status).toBe(400);
    expect((await call(`${s.url}/api/todos/1`, 'GET', undefined, { 'x-mockyard-session': 'carol' })).status).toBe(200); // its session falls back

    // A configured scenario's name cannot be taken; the shared overrides apply under a configured scenario too.
    expect((await call(`${s.url}${A}/scenarios/configured/overrides`, 'POST', { path: '/todos', delay: 1 })).status).toBe(409);
    expect((await call(`${s.url}${A}/scenarios/bad%20name/overrides`, 'POST', { path: '/todos', delay: 1 })).status).toBe(400);
    await call(`${s.url}${A}/overrides`, 'POST', { method: 'GET', path: '/todos/:id', status: 502, errorRate: 1 });
    expect((await call(`${s.url}/api/todos/1`, 'GET', undefined, { 'x-mockyard-scenario': 'configured' })).status).toBe(502);
    expect((await call(`${s.url}/api/todos`, 'GET', undefined, { 'x-mockyard-scenario': 'configured' })).status).toBe(418);
  });

  it('needs the token and the page origin for every new write', async () => {
    const token = 'a-long-enough-token';
    const s = await startServer({ mock: options(), devtools: { token } });
    const open = await startServer({ mock: options() });
    for (const [path, method, body] of [
      ['/overrides', 'POST', { path: '/todos', delay: 1 }],
      ['/overrides', 'DELETE', undefined],
      ['/overrides/0', 'DELETE', undefined],
      ['/scenarios/x/overrides', 'POST', { path: '/todos', delay: 1 }],
      ['/scenarios/x/overrides/0', 'DELETE', undefined],
      ['/scenarios/x', 'DELETE', undefined],
    ] as const) {
      expect((await call(`${s.url}${A}${path}`, method, body)).status, `${method} ${path}`).toBe(401);
      expect((await call(`${open.url}${A}${path}`, method, body, { origin: 'http://evil.example' })).status, `${method} ${path} from another origin`).toBe(403);
    }
    expect((await call(`${s.url}${A}/overrides`, 'GET', undefined, { authorization: `Bearer ${token}` })).json).toEqual({ overrides: [] });
  });
});

describe('admin API: a Prefer as an override (the OpenAPI backend picks the answer)', () => {
  const pet = { type: 'object', required: ['id', 'name'], properties: { id: { type: 'integer' }, name: { type: 'string' } } };
  const DOC = {
    openapi: '3.0.3',
    info: { title: 'pets', version: '1' },
    paths: {
      '/pets/{id}': {
        get: {
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
          responses: {
            '200': { description: 'a pet', content: { 'application/json': { schema: pet, examples: { rex: { value: { id: 1, name: 'Rex' } }, tom: { value: { id: 1, name: 'Tom' } } } } } },
            '404': { description: 'no such pet' },
            '503': { description: 'down', content: { 'application/json': { schema: { type: 'object', required: ['reason', 'retryAfter'], properties: { reason: { type: 'string' }, retryAfter: { type: 'integer', minimum: 1 } } } } } },
          },
        },
      },
    },
  };
  const get = async (url: string, session?: string, prefer?: string) => {
    const r = await fetch(url, { headers: { ...(session ? { 'x-mockyard-session': session } : {}), ...(prefer ? { prefer } : {}) } });
    const text = await r.text();
    return { status: r.status, body: (text ? JSON.parse(text) : null) as Record<string, unknown> };
  };

  it('code, example and a schema-only response, per session; the request\u2019s own Prefer is replaced; a bad one is a 400', async () => {
    const s = await startServer({ mock: { endpointPrefix: '/api', logLevel: 'silent', fs: memoryFs({}), openapi: { document: DOC } } });
    const base = await get(`${s.url}/api/pets/1`);
    expect(base.status).toBe(200);
    expect(base.body.name).not.toBe('Tom');

    await call(`${s.url}${A}/sessions/tom/overrides`, 'POST', { method: 'GET', path: '/pets/:id', prefer: 'example=tom' });
    expect(await get(`${s.url}/api/pets/1`, 'tom')).toEqual({ status: 200, body: { id: 1, name: 'Tom' } });
    expect(await get(`${s.url}/api/pets/1`, 'tom', 'example=rex')).toEqual({ status: 200, body: { id: 1, name: 'Tom' } }); // the override's Prefer wins

    await call(`${s.url}${A}/sessions/gone/overrides`, 'POST', { method: 'GET', path: '/pets/:id', prefer: 'code=404' });
    expect((await get(`${s.url}/api/pets/1`, 'gone')).status).toBe(404);

    await call(`${s.url}${A}/sessions/down/overrides`, 'POST', { method: 'GET', path: '/pets/:id', prefer: 'code=503, dynamic=true' });
    const down = await get(`${s.url}/api/pets/1`, 'down');
    expect(down.status).toBe(503);
    expect(typeof down.body.reason).toBe('string'); // drawn from the schema: no example to copy
    expect(down.body.retryAfter).toBeGreaterThanOrEqual(1);

    // Others are untouched; undo brings the document's default back.
    expect((await get(`${s.url}/api/pets/1`)).status).toBe(200);
    await call(`${s.url}${A}/sessions/down/overrides/0`, 'DELETE');
    expect((await get(`${s.url}/api/pets/1`, 'down')).status).toBe(200);

    // As a shared override too (the same mechanism).
    await call(`${s.url}${A}/overrides`, 'POST', { method: 'GET', path: '/pets/:id', prefer: 'code=404' });
    expect((await get(`${s.url}/api/pets/1`)).status).toBe(404);

    for (const bad of [{ path: '/pets/:id', prefer: 'nothing' }, { path: '/pets/:id', prefer: 'code=404', status: 404 }, { path: '/pets/:id', prefer: 7 }]) {
      const r = await call(`${s.url}${A}/sessions/x/overrides`, 'POST', bad);
      expect(r.status, JSON.stringify(bad)).toBe(400);
      expect(r.json.message).toMatch(/overrides\[0\]\.prefer/);
    }
  });
});
