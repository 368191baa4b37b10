/**
 * The admin guard holds for every write the devtools page makes (docs/devtools.md, "Admin API"),
 * through a real server on 127.0.0.1 with a mock API, a proxy target and a collector: each write
 * sent with a foreign `Origin` is refused (403, the guard's Origin rule), each sent without the
 * bearer token to a server that has one is refused (401), and the same write from the server's
 * own origin (or with the token) passes the guard and is done by its route (2xx).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { memoryFs } from '../../src/vfs/memory.js';
import { closeServers, startServer } from '../helpers/server.js';

afterEach(closeServers);

const A = '/_mockyard/api';
const now = Date.now();
/** A schema-first GraphQL type in the Data tab. */
const GQL = encodeURIComponent('graphql:Todo');
const range = `from=${new Date(now - 3_600_000).toISOString()}&to=${new Date(now).toISOString()}`;

/** Every write of the page, in an order where each finds what it needs (a session, a file…). */
const WRITES: Array<[method: string, path: string, body?: unknown, headers?: Record<string, string>]> = [
  ['DELETE', '/requests'],
  ['PUT', '/scenario', { name: null }],
  ['POST', '/overrides', { method: 'GET', path: '/todos', status: 503 }],
  ['DELETE', '/overrides/0'],
  ['DELETE', '/overrides'],
  ['POST', '/scenarios/slow/overrides', { method: 'GET', path: '/todos', delay: 5 }],
  ['DELETE', '/scenarios/slow/overrides/0'],
  ['DELETE', '/scenarios/slow'],
  ['POST', '/sessions', { id: 'ann' }],
  ['POST', '/sessions/ann/overrides', { method: 'GET', path: '/todos', status: 500 }],
  ['DELETE', '/sessions/ann/overrides/0'],
  ['DELETE', '/sessions/ann/overrides'],
  ['PUT', '/sessions/ann/scenario', { name: null }],
  ['POST', '/sessions/ann/reset'],
  ['DELETE', '/sessions/ann'],
  ['POST', '/data/todos', { id: 9, title: 'x' }],
  ['PATCH', '/data/todos/9', { title: 'y' }],
  ['POST', '/data/todos/9/duplicate'],
  ['DELETE', '/data/todos/9'],
  ['PUT', '/data/todos', [{ id: 1, title: 'a' }]],
  ['POST', '/data/todos/reset'],
  ['POST', `/data/${GQL}`, { title: 'x' }],
  ['PATCH', `/data/${GQL}/11`, { title: 'y' }],
  ['POST', `/data/${GQL}/11/duplicate`],
  ['DELETE', `/data/${GQL}/11`],
  ['PUT', `/data/${GQL}`, [{ id: '1', title: 'a' }]],
  ['POST', `/data/${GQL}/reset`],
  ['PUT', '/files/x.json', { a: 1 }, { 'if-none-match': '*' }],
  ['DELETE', '/files/x.json', undefined, { 'if-match': '*' }],
  ['PUT', '/files/x.json?session=zoe', { a: 1 }, { 'if-none-match': '*' }],
  ['POST', '/routes', { path: 'flags', body: { on: true } }],
  ['PUT', '/record', { recording: false }],
  ['PUT', '/webhooks/target', { url: null }],
  ['DELETE', `/events?${range}`],
  ['POST', '/reset'],
];

async function send(base: string, [method, path, body, headers]: (typeof WRITES)[number], more: Record<string, string>): Promise<number> {
  const res = await fetch(`${base}${A}${path}`, {
    method,
    headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers, ...more },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  await res.arrayBuffer();
  return res.status;
}

const mock = () => ({ endpointPrefix: '/api', fs: memoryFs({ 'todos.json': [{ id: 1, title: 'a' }], 'schema.graphql': 'type Todo { id: ID!  title: String! }  type Query { todos: [Todo!]! }' }), graphql: { schema: 'schema.graphql' }, proxy: { target: 'http://127.0.0.1:9' } });
const tracker = () => ({ appId: 'guard', logLevel: 'silent' as const, storage: { fs: memoryFs() } });

/** The page's writes to the OpenAPI backend's resources (`/keys` of an apiKey-only document; an order of user 1). */
const SECURED = fileURLToPath(new URL('../fixtures/openapi/secured-writes-3.0.yaml', import.meta.url));
const KEYS = encodeURIComponent('/keys');
const ORDERS = encodeURIComponent('/users/1/orders');
const OPENAPI_WRITES: typeof WRITES = [
  ['POST', `/data/${KEYS}`, { id: 9, name: 'x' }],
  ['PATCH', `/data/${KEYS}/1`, { name: 'y' }],
  ['PUT', `/data/${KEYS}/1`, { id: 1, name: 'z' }],
  ['POST', `/data/${KEYS}/1/duplicate`],
  ['DELETE', `/data/${KEYS}/2`],
  ['PUT', `/data/${KEYS}`, [{ id: 1, name: 'a' }]],
  ['POST', `/data/${KEYS}/reset`],
  ['PATCH', `/data/${ORDERS}/1`, { quantity: 2 }],
  ['PUT', `/data/${ORDERS}`, [{ id: 1, item: 'a', quantity: 1 }]],
  ['POST', `/data/${ORDERS}/reset`],
];
const openapiMock = () => ({ endpointPrefix: '/api', logLevel: 'silent' as const, fs: memoryFs({}), openapi: { document: SECURED, count: { '*': 3 } } });

describe('admin guard: every write of the page', () => {
  it('the OpenAPI backend\u2019s resources: each write refused from another origin (403) and without the token (401), done from the page\u2019s origin or with it', async () => {
    const token = 'a-token-of-16-chars+';
    const open = await startServer({ mock: openapiMock() });
    for (const w of OPENAPI_WRITES) expect(await send(open.url, w, { origin: 'http://evil.example' }), `${w[0]} ${w[1]} from another origin`).toBe(403);
    expect((await (await fetch(`${open.url}/api/keys/1`, { headers: { 'x-api-key': 'k' } })).json()).name).not.toBe('y');
    for (const w of OPENAPI_WRITES) expect(await send(open.url, w, { origin: open.url }), `${w[0]} ${w[1]} from the page's origin`).toBeLessThan(300);
    const guarded = await startServer({ mock: openapiMock(), devtools: { token } });
    for (const w of OPENAPI_WRITES) expect(await send(guarded.url, w, {}), `${w[0]} ${w[1]} without the token`).toBe(401);
    for (const w of OPENAPI_WRITES) expect(await send(guarded.url, w, { authorization: `Bearer ${token}` }), `${w[0]} ${w[1]} with the token`).toBeLessThan(300);
  });

  it('refuses each from another origin (403) and lets each through from the server\u2019s own origin', async () => {
    const s = await startServer({ mock: mock(), tracker: tracker() });
    for (const w of WRITES) expect(await send(s.url, w, { origin: 'http://evil.example' }), `${w[0]} ${w[1]} from another origin`).toBe(403);
    expect(await (await fetch(`${s.url}/api/todos`)).json()).toEqual([{ id: 1, title: 'a' }]);
    for (const w of WRITES) expect(await send(s.url, w, { origin: s.url }), `${w[0]} ${w[1]} from the page's origin`).toBeLessThan(300);
  });

  it('with a token: refuses each without it (401) and lets each through with it', async () => {
    const token = 'a-token-of-16-chars+';
    const s = await startServer({ mock: mock(), tracker: tracker(), devtools: { token } });
    for (const w of WRITES) expect(await send(s.url, w, {}), `${w[0]} ${w[1]} without the token`).toBe(401);
    for (const w of WRITES) expect(await send(s.url, w, { authorization: `Bearer ${token}` }), `${w[0]} ${w[1]} with the token`).toBeLessThan(300);
  });
});
