/**
 * The admin data routes over the OpenAPI backend's in-memory resources, through a real node:http
 * server:
 *   - a collection under a path parameter (`/users/{userId}/orders`) is listed once per parent
 *     (`/users/1/orders`, one for each user, and any other scope a request used), read from that
 *     scope, and written through the document's operations with the parent filled in;
 *   - import (`PUT data/<name>`): checked against the resource's item schema, a bad item is a 400
 *     naming the item and the field and nothing is imported; ids kept, missing ones assigned;
 *   - reset (`POST data/<name>/reset`): the seeded data again, the same the backend starts from;
 *   - export (`GET ?export=true`): the whole scope, which imports back as it was.
 */
import { afterEach, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { memoryFs } from '../../src/vfs/memory.js';
import { closeServers, startServer } from '../helpers/server.js';

afterEach(closeServers);

const A = '/_mockyard/api';
const SECURED = fileURLToPath(new URL('../fixtures/openapi/secured-writes-3.0.yaml', import.meta.url));
const PETSTORE = fileURLToPath(new URL('../fixtures/openapi/swagger-petstore-3.0.yaml', import.meta.url));
const enc = encodeURIComponent;

async function call(url: string, method = 'GET', body?: unknown, headers: Record<string, string> = {}) {
  const r = await fetch(url, { method, headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await r.text();
  return { status: r.status, headers: r.headers, json: text ? JSON.parse(text) : undefined };
}

it('lists a collection under a path parameter per parent, reads it from that scope and writes it through the operations with the parent filled in', async () => {
  const s = await startServer({ mock: { endpointPrefix: '/api', logLevel: 'silent', fs: memoryFs({}), openapi: { document: SECURED, count: { '*': 3 } } } });
  // A scope a request used, under a user the users collection does not hold.
  expect((await call(`${s.url}/api/users/77/orders`)).status).toBe(200);
  const names = (await call(`${s.url}${A}/data`)).json.collections.filter((c: any) => c.backend === 'openapi').map((c: any) => `${c.name} (${c.count})`);
  expect(names).toEqual(['/keys (3)', '/users (3)', '/users/1/orders (3)', '/users/2/orders (3)', '/users/3/orders (3)', '/users/77/orders (3)', '/vaults (3)']);

  const orders = enc('/users/2/orders');
  const page = await call(`${s.url}${A}/data/${orders}`);
  expect(page.json).toMatchObject({ name: '/users/2/orders', total: 3, idField: 'id' });
  expect(page.json.items).toEqual((await call(`${s.url}/api/users/2/orders`)).json);
  const [first] = page.json.items;

  // Edit: PUT /users/{userId}/orders/{orderId} with userId 2.
  const edited = await call(`${s.url}${A}/data/${orders}/${first.id}`, 'PATCH', { quantity: 5 });
  expect(edited.status, JSON.stringify(edited.json)).toBe(200);
  expect((await call(`${s.url}/api/users/2/orders/${first.id}`)).json.quantity).toBe(5);
  expect((await call(`${s.url}/api/users/1/orders/${first.id}`)).json.quantity).not.toBe(5);
  expect((await call(`${s.url}${A}/requests`)).json.entries.map((e: any) => `${e.method} ${e.url} ${e.status}`)).toContain(`PUT /api/users/2/orders/${first.id} 200`);
  // The document's schema applies (quantity ≥ 1).
  expect((await call(`${s.url}${A}/data/${orders}/${first.id}`, 'PATCH', { quantity: 0 })).status).toBe(400);
  // Add (POST /users/2/orders) and delete.
  const added = await call(`${s.url}${A}/data/${orders}`, 'POST', { item: 'lamp', quantity: 1 });
  expect(added.status, JSON.stringify(added.json)).toBe(201);
  expect((await call(`${s.url}/api/users/2/orders/${added.json.id}`)).json.item).toBe('lamp');
  expect((await call(`${s.url}${A}/data/${orders}/${added.json.id}`, 'DELETE')).status).toBe(204);
  expect((await call(`${s.url}/api/users/2/orders/${added.json.id}`)).status).toBe(404);
  // Any parent's scope opens by its path, listed or not.
  expect((await call(`${s.url}${A}/data/${enc('/users/500/orders')}`)).json.total).toBe(3);
  expect((await call(`${s.url}${A}/data/${enc('/users//orders')}`)).status).toBe(404);
});

it('imports a JSON array checked against the item schema (a bad item: 400 naming it, nothing imported), resets to the seed, exports', async () => {
  const s = await startServer({ mock: { endpointPrefix: '/api', logLevel: 'silent', fs: memoryFs({}), openapi: { document: PETSTORE, count: { '*': 4 } } } });
  const pet = enc('/pet');
  const auth = { authorization: 'Bearer t', api_key: 'k' };
  const seeded = (await call(`${s.url}${A}/data/${pet}?export=true`)).json;
  expect(seeded).toHaveLength(4);

  // A bad item: the second one's name is a number, and the third lacks photoUrls.
  const bad = await call(`${s.url}${A}/data/${pet}`, 'PUT', [{ id: 1, name: 'ok', photoUrls: [] }, { id: 2, name: 7, photoUrls: [] }]);
  expect(bad.status).toBe(400);
  expect(bad.json.message).toMatch(/^Item 1 of \/pet does not match the document's schema: .*\/name/);
  expect(bad.json.message).toMatch(/nothing was imported/);
  const missing = await call(`${s.url}${A}/data/${pet}`, 'PUT', [{ id: 1, name: 'ok', photoUrls: [] }, { id: 2, name: 'b', photoUrls: [] }, { id: 3, name: 'c' }]);
  expect(missing.status).toBe(400);
  expect(missing.json.message).toMatch(/^Item 2 of \/pet .*photoUrls is required/);
  expect((await call(`${s.url}${A}/data/${pet}`, 'PUT', [{ id: 1, name: 'a', photoUrls: [] }, { id: 1, name: 'b', photoUrls: [] }])).status).toBe(400);
  expect((await call(`${s.url}${A}/data/${pet}`, 'PUT', { id: 1 })).status).toBe(400);
  expect((await call(`${s.url}${A}/data/${pet}?export=true`)).json).toEqual(seeded); // nothing half-imported

  // A good import: ids kept, a missing one assigned past them; REST reads it.
  const imported = await call(`${s.url}${A}/data/${pet}`, 'PUT', [{ id: 10, name: 'ten', photoUrls: [] }, { name: 'no id', photoUrls: ['x'] }]);
  expect(imported.status, JSON.stringify(imported.json)).toBe(200);
  expect(imported.json).toMatchObject({ name: '/pet', count: 2 });
  expect((await call(`${s.url}/api/pet/10`, 'GET', undefined, auth)).json).toEqual({ id: 10, name: 'ten', photoUrls: [] });
  expect((await call(`${s.url}/api/pet/11`, 'GET', undefined, auth)).json).toEqual({ id: 11, name: 'no id', photoUrls: ['x'] });
  expect((await call(`${s.url}/api/pet/1`, 'GET', undefined, auth)).status).toBe(404);
  const created = await call(`${s.url}/api/pet`, 'POST', { name: 'after', photoUrls: [] }, auth);
  expect(created.json.id).toBe(12);

  // Export → import gives the same data back.
  const exported = await call(`${s.url}${A}/data/${pet}?export=true`);
  expect(exported.headers.get('content-disposition')).toMatch(/attachment; filename="pet.json"/);
  expect(exported.json.map((p: any) => p.id)).toEqual([10, 11, 12]);

  // Reset: the seeded data again, as the backend started.
  const reset = await call(`${s.url}${A}/data/${pet}/reset`, 'POST');
  expect(reset.status).toBe(200);
  expect(reset.json).toMatchObject({ name: '/pet', count: 4 });
  expect((await call(`${s.url}${A}/data/${pet}?export=true`)).json).toEqual(seeded);
  expect((await call(`${s.url}/api/pet/${seeded[0].id}`, 'GET', undefined, auth)).json).toEqual(seeded[0]);
  expect((await call(`${s.url}${A}/data/${pet}`, 'PUT', exported.json)).json.count).toBe(3);
  expect((await call(`${s.url}${A}/data/${pet}?export=true`)).json).toEqual(exported.json);

  // A second server on the same seed starts from the same data (the reset is that seed).
  const t = await startServer({ mock: { endpointPrefix: '/api', logLevel: 'silent', fs: memoryFs({}), openapi: { document: PETSTORE, count: { '*': 4 } } } });
  expect((await call(`${t.url}${A}/data/${pet}?export=true`)).json).toEqual(seeded);
});

it('Reset everything (POST reset) brings the backend\u2019s resources back to their seed too, those under a path parameter included', async () => {
  const s = await startServer({ mock: { endpointPrefix: '/api', logLevel: 'silent', fs: memoryFs({}), openapi: { document: SECURED, count: { '*': 3 } } } });
  const key = { 'x-api-key': 'k' };
  const keys = (await call(`${s.url}/api/keys`, 'GET', undefined, key)).json;
  const orders = (await call(`${s.url}/api/users/2/orders`)).json;
  expect((await call(`${s.url}${A}/data/${enc('/keys')}/${keys[0].id}`, 'PATCH', { name: 'changed' })).status).toBe(200);
  expect((await call(`${s.url}${A}/data/${enc('/users/2/orders')}/${orders[0].id}`, 'DELETE')).status).toBe(204);
  expect((await call(`${s.url}/api/users/2/orders`)).json).toHaveLength(2);
  expect((await call(`${s.url}${A}/reset`, 'POST')).status).toBe(200);
  expect((await call(`${s.url}/api/keys`, 'GET', undefined, key)).json).toEqual(keys);
  expect((await call(`${s.url}/api/users/2/orders`)).json).toEqual(orders);
});

it('a session\u2019s copy imports and resets on its own: the shared state and other sessions keep theirs', async () => {
  const s = await startServer({ mock: { endpointPrefix: '/api', logLevel: 'silent', fs: memoryFs({}), openapi: { document: SECURED, count: { '*': 3 } } } });
  const orders = enc('/users/1/orders');
  const shared = (await call(`${s.url}/api/users/1/orders`)).json;
  const imported = await call(`${s.url}${A}/data/${orders}?session=s1`, 'PUT', [{ id: 5, item: 'only s1', quantity: 2 }]);
  expect(imported.status, JSON.stringify(imported.json)).toBe(200);
  expect(imported.json.scope).toEqual({ session: 's1', backend: 'openapi' });
  expect((await call(`${s.url}/api/users/1/orders`, 'GET', undefined, { 'x-mockyard-session': 's1' })).json).toEqual([{ id: 5, item: 'only s1', quantity: 2, userId: 1 }]); // the parent's field filled in, as a create does
  expect((await call(`${s.url}/api/users/1/orders`)).json).toEqual(shared);
  expect((await call(`${s.url}/api/users/1/orders`, 'GET', undefined, { 'x-mockyard-session': 's2' })).json).toEqual(shared);
  expect((await call(`${s.url}${A}/data/${orders}/reset?session=s1`, 'POST')).json).toMatchObject({ scope: { session: 's1' }, count: 3 });
  expect((await call(`${s.url}/api/users/1/orders`, 'GET', undefined, { 'x-mockyard-session': 's1' })).json).toEqual(shared);
});
