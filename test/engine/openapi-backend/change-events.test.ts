/**
 * The OpenAPI backend's in-memory writes raise the collection store's change events (the one
 * change feed, store/change-feed.ts), through a real node:http server on the Swagger Petstore
 * document and a webhook receiver on 127.0.0.1: a `pet.updated` rule fires for a REST PUT and
 * for an edit made in the devtools' Data tab (which is a request to the same operation), a
 * `pet.created` for a POST and `pet.deleted` for a DELETE; with a mocks folder and without one
 * (file routing off: the store's feed then carries only what the backend announces).
 */
import { afterEach, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { createServer, type Server } from 'node:http';
import { memoryFs } from '../../../src/vfs/memory.js';
import { closeServers, startServer } from '../../helpers/server.js';

afterEach(closeServers);

const A = '/_mockyard/api';
const DOC = fileURLToPath(new URL('../../fixtures/openapi/swagger-petstore-3.0.yaml', import.meta.url));
const PET = encodeURIComponent('/pet');

async function call(url: string, method = 'GET', body?: unknown, headers: Record<string, string> = {}) {
  const r = await fetch(url, { method, headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await r.text();
  return { status: r.status, headers: r.headers, json: text ? JSON.parse(text) : undefined };
}

async function receiver(): Promise<{ url: string; received: Array<{ event: string | undefined; body: any }>; close: () => Promise<unknown> }> {
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
  return { url: `http://127.0.0.1:${(hooks.address() as { port: number }).port}/hooks`, received, close: () => new Promise((resolve) => hooks.close(resolve)) };
}

for (const folder of ['a mocks folder', 'no mocks folder'] as const) {
  it(`pet.updated fires for a REST PUT and for a Data tab edit; pet.created and pet.deleted for POST and DELETE (${folder})`, async () => {
    const hooks = await receiver();
    try {
      const files = folder === 'a mocks folder' ? { fs: memoryFs({}) } : { fs: memoryFs({}), fsDir: null };
      const s = await startServer({
        mock: {
          endpointPrefix: '/api',
          logLevel: 'silent',
          ...files,
          openapi: { document: DOC, count: { '*': 5 } },
          webhooks: [
            { on: 'pet.updated', url: hooks.url },
            { on: 'pet.created', url: hooks.url },
            { on: 'pet.deleted', url: hooks.url },
          ],
        },
      });
      const auth = { authorization: 'Bearer t' };
      const [first, second] = (await call(`${s.url}${A}/data/${PET}?limit=2`)).json.items;

      // REST: PUT /pet (the document's update by body).
      expect((await call(`${s.url}/api/pet`, 'PUT', { ...first, name: 'By REST' }, auth)).status).toBe(200);
      await expect.poll(() => hooks.received.length).toBe(1);
      expect(hooks.received[0]!.event).toBe('pet.updated');
      expect(hooks.received[0]!.body).toEqual({ ...first, name: 'By REST' }); // the item as stored now

      // The Data tab: the same operation, sent by the admin route.
      expect((await call(`${s.url}${A}/data/${PET}/${second.id}`, 'PATCH', { name: 'By the page' })).status).toBe(200);
      await expect.poll(() => hooks.received.length).toBe(2);
      expect(hooks.received[1]).toEqual({ event: 'pet.updated', body: { ...second, name: 'By the page' } });

      const created = await call(`${s.url}/api/pet`, 'POST', { name: 'New', photoUrls: [] }, auth);
      expect(created.status).toBe(201);
      await expect.poll(() => hooks.received.length).toBe(3);
      expect(hooks.received[2]).toMatchObject({ event: 'pet.created', body: { id: created.json.id, name: 'New' } });

      expect((await call(`${s.url}/api/pet/${created.json.id}`, 'DELETE', undefined, auth)).status).toBeLessThan(300);
      await expect.poll(() => hooks.received.length).toBe(4);
      expect(hooks.received[3]).toMatchObject({ event: 'pet.deleted', body: { id: created.json.id, name: 'New' } });
      // A refused write changes nothing and fires nothing.
      expect((await call(`${s.url}/api/pet`, 'PUT', { ...first, name: 42 }, auth)).status).toBe(400);
      await new Promise((r) => setTimeout(r, 200));
      expect(hooks.received).toHaveLength(4);
    } finally {
      await hooks.close();
    }
  });
}

it('an import and a reset from the Data tab raise the changes they made (pet.created, pet.updated, pet.deleted)', async () => {
  const hooks = await receiver();
  try {
    const s = await startServer({ mock: { endpointPrefix: '/api', logLevel: 'silent', fs: memoryFs({}), openapi: { document: DOC, count: { '*': 3 } }, webhooks: ['pet.created', 'pet.updated', 'pet.deleted'].map((on) => ({ on, url: hooks.url })) } });
    const seeded = (await call(`${s.url}${A}/data/${PET}?export=true`)).json;
    expect(seeded.map((p: any) => p.id)).toEqual([1, 2, 3]);
    const imported = await call(`${s.url}${A}/data/${PET}`, 'PUT', [{ ...seeded[0], name: 'changed' }, seeded[1], { id: 9, name: 'new', photoUrls: [] }]);
    expect(imported.status).toBe(200);
    await expect.poll(() => hooks.received.length).toBe(3);
    const seen = () => hooks.received.map((h) => `${h.event} ${h.body.id}`).sort();
    expect(seen()).toEqual(['pet.created 9', 'pet.deleted 3', 'pet.updated 1']);
    hooks.received.length = 0;
    expect((await call(`${s.url}${A}/data/${PET}/reset`, 'POST')).status).toBe(200);
    await expect.poll(() => hooks.received.length).toBe(3);
    expect(seen()).toEqual(['pet.created 3', 'pet.deleted 9', 'pet.updated 1']);
    expect(hooks.received.find((h) => h.event === 'pet.updated')!.body).toEqual(seeded[0]);
  } finally {
    await hooks.close();
  }
});
