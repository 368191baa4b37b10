/**
 * `mockyard openapi.yaml --state DIR` / `openapi: { document, state }`: the generated backend's
 * collections live in a folder of ordinary collection files (engine/openapi-backend/
 * state-folder.ts), through the real CLI, HTTP and files on disk: written with the population on
 * first use, changed by writes, an edit behind the server's back served by the next request,
 * kept across a restart. Memory stays the default.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { createNodeMockApi } from '../../../src/node/engines.js';
import { memoryFs } from '../../../src/vfs/memory.js';
import { runCli, stopCli, stopClis } from '../../helpers/cli-run.js';
import { makeTempDir, removeTempDirs } from '../../helpers/temp-dir.js';

const PETSTORE = fileURLToPath(new URL('../../fixtures/openapi/swagger-petstore-3.0.yaml', import.meta.url));
const AUTH = { api_key: 'k', authorization: 'Bearer t' };

afterEach(async () => {
  await stopClis();
  await removeTempDirs();
});

type Pet = { id: number; name: string; photoUrls: string[] };

async function serve(dir: string, more: string[] = []) {
  const r = await runCli([PETSTORE, '--state', 'state', '--port', '0', '--log-level', 'warn', ...more], dir);
  expect(r.err).toBe('');
  return { ...r, url: `${r.server!.url}/v2` };
}

const get = async (url: string) => {
  const res = await fetch(url, { headers: AUTH });
  return { status: res.status, body: res.status === 200 ? ((await res.json()) as Pet) : undefined };
};
const stateFile = async (dir: string, name: string) => JSON.parse(await readFile(join(dir, 'state', name), 'utf8')) as Pet[];

describe('the generated backend with its state in a folder', () => {
  it('writes a collection file with the population on first use; writes change it; an outside edit is served by the next request; a restart keeps it', async () => {
    const dir = await makeTempDir();
    const a = await serve(dir);
    expect(a.out).toContain(`collections kept in ${join(dir, 'state')}`);
    expect(existsSync(join(dir, 'state', 'pet.json'))).toBe(false); // nothing written before it is used
    const pet2 = (await get(`${a.url}/pet/2`)).body!;
    const file = await stateFile(dir, 'pet.json');
    expect(file).toHaveLength(20);
    expect(file[1]).toEqual(pet2); // the same seeded item, now in the file

    const created = await fetch(`${a.url}/pet`, { method: 'POST', headers: { ...AUTH, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Kit', photoUrls: [] }) });
    expect(created.status).toBe(201);
    expect(((await created.json()) as Pet).id).toBe(21);
    expect((await fetch(`${a.url}/pet/3`, { method: 'DELETE', headers: AUTH })).status).toBeLessThan(300);
    const afterWrites = await stateFile(dir, 'pet.json');
    expect(afterWrites.map((p) => p.id)).toEqual([1, 2, ...Array.from({ length: 17 }, (_, i) => i + 4), 21]);
    expect(afterWrites.at(-1)).toEqual({ name: 'Kit', photoUrls: [], id: 21 });

    // Behind the server's back, as an editor would: the next GET sees it.
    afterWrites[1] = { ...afterWrites[1]!, name: 'Edited by hand' };
    await writeFile(join(dir, 'state', 'pet.json'), JSON.stringify(afterWrites, null, 2));
    expect((await get(`${a.url}/pet/2`)).body!.name).toBe('Edited by hand');
    await stopCli(a);

    const b = await serve(dir);
    expect((await get(`${b.url}/pet/2`)).body!.name).toBe('Edited by hand');
    expect((await get(`${b.url}/pet/21`)).body!.name).toBe('Kit');
    expect((await get(`${b.url}/pet/3`)).status).toBe(404);
    expect((await stateFile(dir, 'pet.json')).map((p) => p.id)).toEqual(afterWrites.map((p) => p.id)); // not populated again
  });

  it('a nested collection has a file per parent (/users/{userId}/orders of user 7 → users/7/orders.json)', async () => {
    const dir = await makeTempDir();
    const order = { type: 'object', properties: { id: { type: 'integer', readOnly: true }, item: { type: 'string' } } };
    const json = (schema: object) => ({ content: { 'application/json': { schema } } });
    const user = { name: 'userId', in: 'path', required: true, schema: { type: 'integer' } };
    await writeFile(join(dir, 'shop.json'), JSON.stringify({
      openapi: '3.0.3',
      info: { title: 'shop', version: '1' },
      paths: {
        '/users/{userId}/orders': { parameters: [user], get: { responses: { 200: { description: 'orders', ...json({ type: 'array', items: order }) } } }, post: { requestBody: json(order), responses: { 201: { description: 'created', ...json(order) } } } },
        '/users/{userId}/orders/{orderId}': { parameters: [user, { name: 'orderId', in: 'path', required: true, schema: { type: 'integer' } }], get: { responses: { 200: { description: 'an order', ...json(order) } } } },
      },
    }));
    const r = await runCli(['shop.json', '--state', 'state', '--port', '0', '--log-level', 'warn', '--prefix', '/'], dir);
    const url = r.server!.url;
    const created = await fetch(`${url}/users/7/orders`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ item: 'tea' }) });
    expect(created.status).toBe(201);
    const seven = JSON.parse(await readFile(join(dir, 'state', 'users', '7', 'orders.json'), 'utf8')) as Array<{ id: number; item: string }>;
    expect(seven).toHaveLength(21);
    expect(seven.at(-1)).toEqual({ item: 'tea', id: 21 });
    expect(existsSync(join(dir, 'state', 'users', '8'))).toBe(false); // another parent: not used yet
    expect((await (await fetch(`${url}/users/8/orders`)).json() as unknown[]).length).toBe(20);
    expect(existsSync(join(dir, 'state', 'users', '8', 'orders.json'))).toBe(true);
    expect(await (await fetch(`${url}/users/7/orders/21`)).json()).toEqual({ item: 'tea', id: 21 });
  });

  it('memory stays the default: nothing is written and a restart starts from the population again', async () => {
    const dir = await makeTempDir();
    const a = await runCli([PETSTORE, '--port', '0', '--log-level', 'silent'], dir);
    const url = `${a.server!.url}/v2`;
    expect((await fetch(`${url}/pet/3`, { method: 'DELETE', headers: AUTH })).status).toBeLessThan(300);
    expect((await get(`${url}/pet/3`)).status).toBe(404);
    await stopCli(a);
    const b = await runCli([PETSTORE, '--port', '0', '--log-level', 'silent'], dir);
    expect((await get(`${b.server!.url}/v2/pet/3`)).status).toBe(200);
    expect(existsSync(join(dir, 'state'))).toBe(false);
  });

  it('--state without a document is a usage error; a state option that is neither a path nor a Vfs is an OptionsError', async () => {
    const r = await runCli(['--state', 'state', '--port', '0'], await makeTempDir());
    expect(r.code).toBe(2);
    expect(r.err).toContain("--state keeps an OpenAPI document's generated collections in a folder: give the document");
    expect(() => createNodeMockApi({ endpointPrefix: '/v2', fsDir: null, openapi: { document: PETSTORE, state: 42 as never } })).toThrow(/mock\.openapi\.state/);
  });

  it('a Vfs as the state (any host): the collection files are written there', async () => {
    const state = memoryFs({});
    const api = createNodeMockApi({ endpointPrefix: '/v2', fsDir: null, logLevel: 'silent', openapi: { document: PETSTORE, state } });
    await api.ready();
    const r = await api.handle(new Request('http://x/v2/pet/2', { headers: AUTH }));
    expect(r!.status).toBe(200);
    const file = JSON.parse(new TextDecoder().decode(await state.read('pet.json'))) as Pet[];
    expect(file[1]).toEqual(await r!.json());
    await api.close();
  });
});
