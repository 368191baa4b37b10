/**
 * The body of a Data tab write to the OpenAPI backend (`PATCH`/`PUT`/`POST data/%2Fkeys…`) is read
 * as every JSON body is: within the mock API's body limit while it arrives (a 413 from the admin
 * route, before the rest is buffered; it was read whole first, then refused by the backend under
 * its internal path), and `__proto__` or malformed JSON is a 400 of the admin route. A real server
 * on 127.0.0.1, real fetch.
 */
import { afterEach, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { memoryFs } from '../../src/vfs/memory.js';
import { closeServers, startServer } from '../helpers/server.js';

afterEach(closeServers);

const A = '/_mockyard/api';
const SECURED = fileURLToPath(new URL('../fixtures/openapi/secured-writes-3.0.yaml', import.meta.url));

it('an item body over the limit is a 413 of the admin route; a forbidden key or bad JSON a 400, nothing written', async () => {
  const s = await startServer({ mock: { endpointPrefix: '/api', logLevel: 'silent', bodyLimit: 64 * 1024, fs: memoryFs({}), openapi: { document: SECURED, count: { '*': 3 } } } });
  const keys = encodeURIComponent('/keys');
  const [key] = (await (await fetch(`${s.url}${A}/data/${keys}?limit=1`)).json()).items;
  const at = `${A}/data/${keys}/${key.id}`;
  const big = await fetch(`${s.url}${at}`, { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'x'.repeat(200 * 1024) }) });
  expect(big.status).toBe(413);
  expect((await big.json()).path).toBe(at);
  const proto = await fetch(`${s.url}${at}`, { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: '{"__proto__": {"name": "p"}}' });
  expect(proto.status).toBe(400);
  expect(await proto.json()).toMatchObject({ path: at, message: expect.stringContaining('__proto__') });
  const bad = await fetch(`${s.url}${at}`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{ nope' });
  expect(bad.status).toBe(400);
  expect((await bad.json()).path).toBe(at);
  expect((await (await fetch(`${s.url}${at}`)).json())).toEqual(key);
});
