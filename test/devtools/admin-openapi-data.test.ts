/**
 * The admin data routes over the OpenAPI backend's in-memory resources, through a real node:http
 * server on the Swagger Petstore document: `/pet` listed with the store's collections (labelled
 * as the backend's), paged on the server, and written through the document's own operations
 * (`PUT /pet` for an edit, `POST /pet` for an add, `DELETE /pet/{petId}`): REST reads the edit, a
 * write the document's schema refuses is refused with the openapi layer's 400 and nothing changes,
 * and a stale If-Match is 412. A session's copy is its own.
 */
import { afterEach, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { createServer, type Server } from 'node:http';
import { memoryFs } from '../../src/vfs/memory.js';
import { closeServers, startServer } from '../helpers/server.js';

afterEach(closeServers);

const A = '/_mockyard/api';
const DOC = fileURLToPath(new URL('../fixtures/openapi/swagger-petstore-3.0.yaml', import.meta.url));
const PET = encodeURIComponent('/pet');
const KEY = { api_key: 'k' }; // GET /pet/{petId} needs the api_key header

async function call(url: string, method = 'GET', body?: unknown, headers: Record<string, string> = {}) {
  const r = await fetch(url, { method, headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await r.text();
  return { status: r.status, headers: r.headers, json: text ? JSON.parse(text) : undefined };
}

it('lists /pet, pages it on the server and writes through the document\'s operations', async () => {
  const s = await startServer({ mock: { endpointPrefix: '/api', logLevel: 'silent', fs: memoryFs({}), openapi: { document: DOC, count: { '*': 120 } } } });
  const list = await call(`${s.url}${A}/data`);
  expect(list.status).toBe(200);
  expect(list.json.collections).toContainEqual({ name: '/pet', count: 120, backend: 'openapi' });
  const page = await call(`${s.url}${A}/data/${PET}?offset=100&limit=10`);
  expect(page.json).toMatchObject({ scope: { session: null, backend: 'openapi' }, total: 120, offset: 100, limit: 10, idField: 'id' });
  expect(page.json.items).toHaveLength(10);
  const pet = page.json.items[0];
  expect((await call(`${s.url}/api/pet/${pet.id}`, 'GET', undefined, KEY)).json).toEqual(pet);

  // An edit: PUT /pet of the document (validated against Pet), then REST reads it.
  const one = await call(`${s.url}${A}/data/${PET}/${pet.id}`);
  const edited = await call(`${s.url}${A}/data/${PET}/${pet.id}`, 'PATCH', { name: 'Edited' }, { 'If-Match': one.headers.get('etag')! });
  expect(edited.status).toBe(200);
  expect(edited.json).toEqual({ ...pet, name: 'Edited' });
  expect((await call(`${s.url}/api/pet/${pet.id}`, 'GET', undefined, KEY)).json.name).toBe('Edited');
  // It is a request like any client's: the journal lists it.
  expect((await call(`${s.url}${A}/requests`)).json.entries.map((e: any) => `${e.method} ${e.url} ${e.status}`)).toContain('PUT /api/pet 200');
  // A stale tag: 412, nothing written.
  expect((await call(`${s.url}${A}/data/${PET}/${pet.id}`, 'PATCH', { name: 'Lost' }, { 'If-Match': one.headers.get('etag')! })).status).toBe(412);
  // The document's schema refuses a name that is not a string: the openapi layer's 400, nothing changed.
  const bad = await call(`${s.url}${A}/data/${PET}/${pet.id}`, 'PATCH', { name: 42 });
  expect(bad.status).toBe(400);
  expect(JSON.stringify(bad.json)).toMatch(/name/);
  expect((await call(`${s.url}/api/pet/${pet.id}`, 'GET', undefined, KEY)).json.name).toBe('Edited');

  // An add: POST /pet, the backend's next id; a delete: DELETE /pet/{petId}.
  const added = await call(`${s.url}${A}/data/${PET}`, 'POST', { name: 'New', photoUrls: [] });
  expect(added.status).toBe(201);
  expect(added.json).toMatchObject({ id: 121, name: 'New', photoUrls: [] });
  expect((await call(`${s.url}/api/pet/121`, 'GET', undefined, KEY)).json.name).toBe('New');
  expect((await call(`${s.url}${A}/data/${PET}/121`, 'DELETE')).status).toBe(204);
  expect((await call(`${s.url}/api/pet/121`, 'GET', undefined, KEY)).status).toBe(404);
  expect((await call(`${s.url}${A}/data/${PET}/121`)).status).toBe(404);
  // An import must be an array of items.
  expect((await call(`${s.url}${A}/data/${PET}`, 'PUT', { id: 1 })).status).toBe(400);

  // A session's own copy: listed in its scope, edited there, seen only by that session's requests.
  const inSession = await call(`${s.url}${A}/data?session=s1`);
  expect(inSession.json.collections).toContainEqual({ name: '/pet', count: 120, backend: 'openapi' });
  const sessionPage = await call(`${s.url}${A}/data/${PET}?session=s1&limit=1`);
  expect(sessionPage.json.scope).toEqual({ session: 's1', backend: 'openapi' });
  const sp = sessionPage.json.items[0];
  expect((await call(`${s.url}${A}/data/${PET}/${sp.id}?session=s1`, 'PATCH', { name: 'Only s1' })).status).toBe(200);
  expect((await call(`${s.url}/api/pet/${sp.id}`, 'GET', undefined, { ...KEY, 'X-Mockyard-Session': 's1' })).json.name).toBe('Only s1');
  expect((await call(`${s.url}/api/pet/${sp.id}`, 'GET', undefined, KEY)).json.name).not.toBe('Only s1');
  expect((await call(`${s.url}${A}/data/${PET}/${sp.id}`)).json.name).not.toBe('Only s1');
});

it('an edit made in the Data tab is a request to the document\'s operation: a webhook on that operation fires', async () => {
  const received: Array<{ event: string | undefined; body: any }> = [];
  const hooks: Server = createServer((req, res) => {
    let text = '';
    req.on('data', (c) => (text += c));
    req.on('end', () => {
      received.push({ event: req.headers['x-mockyard-event'] as string | undefined, body: JSON.parse(text) });
      res.end();
    });
  });
  await new Promise<void>((resolve) => hooks.listen(0, '127.0.0.1', resolve));
  try {
    const url = `http://127.0.0.1:${(hooks.address() as { port: number }).port}/hooks`;
    const s = await startServer({ mock: { endpointPrefix: '/api', logLevel: 'silent', fs: memoryFs({}), openapi: { document: DOC, count: { '*': 5 } }, webhooks: [{ on: 'PUT /api/pet', url }] } });
    const [first] = (await call(`${s.url}${A}/data/${PET}?limit=1`)).json.items;
    expect((await call(`${s.url}${A}/data/${PET}/${first.id}`, 'PATCH', { name: 'Hooked' })).status).toBe(200);
    await expect.poll(() => received.length).toBe(1);
    expect(received[0]).toMatchObject({ event: 'PUT /api/pet', body: { id: first.id, name: 'Hooked' } });
  } finally {
    await new Promise((resolve) => hooks.close(resolve));
  }
});
