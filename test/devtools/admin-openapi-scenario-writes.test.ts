/**
 * The Data tab's shared scope is the base's data (`api.app.store`: the OpenAPI backend's state of
 * the base pipeline, read, imported and reset there). With a configured scenario current, a
 * request that names no scenario walks that scenario's pipeline, which has its own backend
 * state; the page's write (a request to the document's operation, marked as the page's) walks
 * the base pipeline, so it changes the state the page reads. Before, it landed in the current
 * scenario's state while the page read the base's: the edit answered 200 with the item
 * unchanged. A real server on 127.0.0.1, real fetch.
 */
import { fileURLToPath } from 'node:url';
import { afterEach, expect, it } from 'vitest';
import { memoryFs } from '../../src/vfs/memory.js';
import { closeServers, startServer } from '../helpers/server.js';

afterEach(closeServers);

const A = '/_mockyard/api';
const SECURED = fileURLToPath(new URL('../fixtures/openapi/secured-writes-3.0.yaml', import.meta.url));
const KEY = { 'x-api-key': 'k' };

async function call(url: string, method = 'GET', body?: unknown, headers: Record<string, string> = {}) {
  const r = await fetch(url, { method, headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await r.text();
  return { status: r.status, json: text ? JSON.parse(text) : undefined };
}

it('with a scenario current, the page edits, adds and deletes in the state it reads (the base\u2019s)', async () => {
  const s = await startServer({ mock: { endpointPrefix: '/api', logLevel: 'silent', fs: memoryFs({ 'mocks/a.json': [], 'scen/b.json': [] }), fsDir: 'mocks', openapi: { document: SECURED, count: { '*': 3 } }, scenarios: { other: { fsDir: 'scen' } } } });
  const keys = encodeURIComponent('/keys');
  expect((await call(`${s.url}${A}/scenario`, 'PUT', { name: 'other' })).status).toBe(200);
  const [key] = (await call(`${s.url}${A}/data/${keys}?limit=1`)).json.items;

  const edited = await call(`${s.url}${A}/data/${keys}/${key.id}`, 'PATCH', { name: 'by the page' });
  expect(edited.status, JSON.stringify(edited.json)).toBe(200);
  expect(edited.json.name).toBe('by the page');
  expect((await call(`${s.url}${A}/data/${keys}/${key.id}`)).json.name).toBe('by the page');
  // The base's state: what the page reads, and what a request sees once the base is current again.
  expect((await call(`${s.url}${A}/scenario`, 'PUT', { name: null })).status).toBe(200);
  expect((await call(`${s.url}/api/keys/${key.id}`, 'GET', undefined, KEY)).json.name).toBe('by the page');
  expect((await call(`${s.url}${A}/scenario`, 'PUT', { name: 'other' })).status).toBe(200);

  const added = await call(`${s.url}${A}/data/${keys}`, 'POST', { name: 'added', level: 2 });
  expect(added.status, JSON.stringify(added.json)).toBe(201);
  expect((await call(`${s.url}${A}/data/${keys}`)).json.total).toBe(4);
  expect((await call(`${s.url}${A}/data/${keys}/${added.json.id}`, 'DELETE')).status).toBe(204);
  expect((await call(`${s.url}${A}/data/${keys}`)).json.total).toBe(3);
  // A request in the scenario still has the scenario's own state (untouched by the page).
  expect((await call(`${s.url}/api/keys/${key.id}`, 'GET', undefined, KEY)).json.name).toBe(key.name);
});
