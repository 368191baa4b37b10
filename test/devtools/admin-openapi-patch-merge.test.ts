/**
 * A Data tab PATCH without If-Match (a script's) to an OpenAPI resource whose document writes an
 * item only whole (`PUT /keys/{keyId}`): the admin route merges the changes onto the item and the
 * backend stores that whole item. When the item changes between the route's read and the
 * backend's write, the merge is made again on the item as it then is, so that change is kept.
 * Before, the merge made on the older item was stored, and the change in between was lost (here:
 * an import made while the page's write was held by a route delay). A real server on 127.0.0.1,
 * real fetch.
 */
import { afterEach, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { memoryFs } from '../../src/vfs/memory.js';
import { closeServers, startServer } from '../helpers/server.js';

afterEach(closeServers);

const A = '/_mockyard/api';
const SECURED = fileURLToPath(new URL('../fixtures/openapi/secured-writes-3.0.yaml', import.meta.url));

async function call(url: string, method = 'GET', body?: unknown, headers: Record<string, string> = {}) {
  const r = await fetch(url, { method, headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await r.text();
  return { status: r.status, json: text ? JSON.parse(text) : undefined };
}

it('a PATCH without If-Match keeps a change made to the item while it was on its way', async () => {
  const s = await startServer({ mock: { endpointPrefix: '/api', logLevel: 'silent', fs: memoryFs({}), openapi: { document: SECURED, count: { '*': 2 } } } });
  const keys = encodeURIComponent('/keys');
  const items = (await call(`${s.url}${A}/data/${keys}`)).json.items as Array<{ id: number; name: string; level: number }>;
  const [key] = items;
  // The page's write (PUT /keys/{keyId}) is held 300 ms before the backend takes it.
  expect((await call(`${s.url}${A}/overrides`, 'POST', { method: 'PUT', path: '/keys/:id', delay: 300 })).status).toBe(200);
  const patch = call(`${s.url}${A}/data/${keys}/${key!.id}`, 'PATCH', { name: 'patched' });
  await new Promise((r) => setTimeout(r, 100));
  // Meanwhile the item changes: its level (an import, which no delay holds).
  const moved = items.map((k) => (k.id === key!.id ? { ...k, level: key!.level + 7 } : k));
  expect((await call(`${s.url}${A}/data/${keys}`, 'PUT', moved)).status).toBe(200);
  const done = await patch;
  expect(done.status, JSON.stringify(done.json)).toBe(200);
  expect(done.json).toEqual({ ...key, name: 'patched', level: key!.level + 7 });
  expect((await call(`${s.url}/api/keys/${key!.id}`, 'GET', undefined, { 'x-api-key': 'k' })).json).toEqual({ ...key, name: 'patched', level: key!.level + 7 });
});
