/**
 * A scope of a collection under a path parameter whose value is `.` or `..`
 * (`data/%2Fusers%2F..%2Forders`) is no collection: a URL path takes such a segment as a step
 * (`/users/../orders/1` is `/orders/1`), so no client can reach that scope, and the page's write
 * to it went to another path of the document. 404 naming it, nothing drawn or written. A real
 * server on 127.0.0.1, real fetch.
 */
import { afterEach, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { memoryFs } from '../../src/vfs/memory.js';
import { closeServers, startServer } from '../helpers/server.js';

afterEach(closeServers);

const A = '/_mockyard/api';
const SECURED = fileURLToPath(new URL('../fixtures/openapi/secured-writes-3.0.yaml', import.meta.url));

it('a scope named by a dot segment is a 404; the list does not grow', async () => {
  const s = await startServer({ mock: { endpointPrefix: '/api', logLevel: 'silent', fs: memoryFs({}), openapi: { document: SECURED, count: { '*': 3 } } } });
  const before = (await (await fetch(`${s.url}${A}/data`)).json()).collections.map((c: { name: string }) => c.name);
  for (const dots of ['..', '.']) {
    const name = encodeURIComponent(`/users/${dots}/orders`);
    const read = await fetch(`${s.url}${A}/data/${name}`);
    expect(read.status).toBe(404);
    expect((await read.json()).message).toBe(`No collection ${JSON.stringify(`/users/${dots}/orders`)} in the OpenAPI backend`);
    const write = await fetch(`${s.url}${A}/data/${name}/1`, { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ quantity: 2 }) });
    expect(write.status).toBe(404);
  }
  expect((await (await fetch(`${s.url}${A}/data`)).json()).collections.map((c: { name: string }) => c.name)).toEqual(before);
});
