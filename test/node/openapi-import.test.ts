/**
 * `mockyard import`: the public Petstore documents (test/fixtures/openapi: OpenAPI 3.0, 3.1,
 * Swagger 2.0) become mock files that the CLI then serves.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { listFiles as files, runCli, stopClis } from '../helpers/cli-run.js';
import { makeTempDir, removeTempDirs } from '../helpers/temp-dir.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/openapi/', import.meta.url));
const run = runCli;
afterEach(async () => {
  await stopClis();
  await removeTempDirs();
});

const readJson = async (p: string) => JSON.parse(await readFile(p, 'utf8')) as unknown;

describe('mockyard import', () => {
  it('OpenAPI 3.0 Petstore: a collection is one list file holding the population `mockyard openapi.yaml` serves (examples first); the CLI serves it', async () => {
    const root = await makeTempDir();
    const r = await run(['import', join(FIXTURES, 'petstore-3.0.yaml'), '--fs-dir', 'mocks'], root);
    expect(r.code).toBe(0);
    expect(await files(join(root, 'mocks'))).toEqual(['pets.json']);
    const pets = (await readJson(join(root, 'mocks', 'pets.json'))) as { id: number; name: string }[];
    expect(pets).toHaveLength(20);
    expect(pets.slice(0, 2)).toEqual([{ id: 1, name: 'Rex', tag: 'dog' }, { id: 2, name: 'Tom', tag: 'cat' }]); // the document's example items
    expect(pets.map((p) => p.id)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(await readFile(join(root, 'mocks', 'pets.json'), 'utf8')).toMatch(/^\[\n {2}\{\n {4}"id": 1,/); // pretty-printed
    expect(r.out).toContain('wrote pets.json  ← GET /pets + GET /pets/{petId} (a collection: 20 items, as `mockyard petstore-3.0.yaml` serves them)');
    expect(r.out).toContain('skipped POST /pets: only GET operations become files');
    expect(r.out).toContain('1 written, 0 kept, 1 skipped.');
    // The same state as serving the document directly.
    const direct = await run([join(FIXTURES, 'petstore-3.0.yaml'), '--port', '0', '--log-level', 'silent'], root);
    expect(await (await fetch(`${direct.server!.url}/v1/pets/7`)).json()).toEqual(pets[6]);
    expect(r.out).toContain('--prefix /v1');

    expect(r.out).toContain('serve with --preset json-server');

    const serve = await run(['--fs-dir', 'mocks', '--prefix', '/v1', '--port', '0', '--log-level', 'silent'], root);
    expect((await (await fetch(`${serve.server!.url}/v1/pets`)).json() as unknown[]).length).toBe(20);
    // What the summary advises: with the json-server preset the lists take POSTs and answer their items by id.
    const preset = await run(['--fs-dir', 'mocks', '--prefix', '/v1', '--preset', 'json-server', '--port', '0', '--log-level', 'silent'], root);
    const url = preset.server!.url;
    expect(await (await fetch(`${url}/v1/pets/1`)).json()).toEqual({ id: 1, name: 'Rex', tag: 'dog' });
    const created = await fetch(`${url}/v1/pets`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: 99, name: 'Rax' }) });
    expect(created.status).toBe(201);
    expect(await (await fetch(`${url}/v1/pets/99`)).json()).toMatchObject({ id: 99, name: 'Rax' });
    expect(await (await fetch(`${url}/v1/pets/7`)).json()).toEqual(pets[6]);
    // Validation on: the start-up output says so.
    await writeFile(join(root, 'mockyard.config.mjs'), `export default { mock: { endpointPrefix: '/v1', fsDir: 'mocks', openapi: ${JSON.stringify(join(FIXTURES, 'petstore-3.0.yaml'))} } };\n`);
    const validated = await run(['--port', '0', '--quiet'], root);
    expect(validated.out).toContain(`Requests validated against the OpenAPI document ${join(FIXTURES, 'petstore-3.0.yaml')}`);
    expect((await fetch(`${validated.server!.url}/v1/pets?limit=500`)).status).toBe(400);
  });

  it("the list schema's own example, else the item read's example, is the collection's first items (import and serve alike)", async () => {
    const root = await makeTempDir();
    const pet = { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } } };
    const item = (example?: unknown) => ({ get: { parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }], responses: { 200: { description: 'ok', content: { 'application/json': { schema: pet, ...(example ? { example } : {}) } } } } } });
    await writeFile(join(root, 'api.json'), JSON.stringify({
      openapi: '3.0.3',
      info: { title: 'Examples', version: '1' },
      paths: {
        '/pets': { get: { responses: { 200: { description: 'ok', content: { 'application/json': { schema: { type: 'array', items: pet, example: [{ id: 7, name: 'Rex' }, { id: 8, name: 'Tom' }] } } } } } } },
        '/pets/{id}': item(),
        '/owners/{id}': item({ id: 3, name: 'Ann' }),
      },
    }));
    expect((await run(['import', 'api.json', '--fs-dir', 'mocks'], root)).code).toBe(0);
    const pets = (await readJson(join(root, 'mocks', 'pets.json'))) as unknown[];
    expect(pets.slice(0, 2)).toEqual([{ id: 7, name: 'Rex' }, { id: 8, name: 'Tom' }]);
    const owners = (await readJson(join(root, 'mocks', 'owners.json'))) as unknown[];
    expect(owners[0]).toEqual({ id: 3, name: 'Ann' });
    const served = await run(['api.json', '--port', '0', '--log-level', 'silent'], root);
    expect(await (await fetch(`${served.server!.url}/pets/7`)).json()).toEqual({ id: 7, name: 'Rex' });
    expect(await (await fetch(`${served.server!.url}/owners/3`)).json()).toEqual({ id: 3, name: 'Ann' });
  });

  it('OpenAPI 3.1 (named examples, nested templates, non-JSON skipped) and Swagger 2.0', async () => {
    const root = await makeTempDir();
    const r31 = await run(['import', join(FIXTURES, 'petstore-3.1.yaml'), '--fs-dir', 'a'], root);
    expect(r31.code).toBe(0);
    expect(await files(join(root, 'a'))).toEqual(['owners/3/pets/1.json', 'pets.json']);
    expect(((await readJson(join(root, 'a', 'pets.json'))) as unknown[]).slice(0, 2)).toEqual([{ id: 10, name: 'Luna', tag: null }, { id: 11, name: 'Milo', tag: 'cat' }]);
    expect(r31.out).toContain('skipped GET /health: no JSON media type (text/plain)');

    const r2 = await run(['import', join(FIXTURES, 'petstore-swagger-2.0.json'), '--fs-dir', 'b'], root);
    expect(r2.code).toBe(0);
    const b = (await readJson(join(root, 'b', 'pets.json'))) as { id: number }[];
    expect(b[0]).toEqual({ id: 5, name: 'Bella' });
    expect(b).toHaveLength(20);
  });

  it('is deterministic; keeps existing files unless --overwrite', async () => {
    const root = await makeTempDir();
    await run(['import', join(FIXTURES, 'petstore-3.1.yaml'), '--fs-dir', 'one'], root);
    await run(['import', join(FIXTURES, 'petstore-3.1.yaml'), '--fs-dir', 'two'], root);
    for (const f of await files(join(root, 'one'))) expect(await readFile(join(root, 'two', f), 'utf8')).toBe(await readFile(join(root, 'one', f), 'utf8'));
    await writeFile(join(root, 'one', 'pets.json'), '[]');
    const again = await run(['import', join(FIXTURES, 'petstore-3.1.yaml'), '--fs-dir', 'one'], root);
    expect(again.out).toContain('kept  pets.json');
    expect(await readJson(join(root, 'one', 'pets.json'))).toEqual([]);
    await run(['import', join(FIXTURES, 'petstore-3.1.yaml'), '--fs-dir', 'one', '--overwrite'], root);
    expect((await readJson(join(root, 'one', 'pets.json')) as unknown[]).length).toBe(20);
  });

  it('an invalid document exits 1 with the parser\'s message; no file argument exits 2', async () => {
    const root = await makeTempDir();
    await writeFile(join(root, 'bad.yaml'), 'openapi: 3.0.0\ninfo: {}\npaths: {}\n');
    const bad = await run(['import', 'bad.yaml'], root);
    expect(bad.code).toBe(1);
    expect(bad.err).toMatch(/not a valid OpenAPI document/);
    expect((await run(['import'], root)).code).toBe(2);
  });
});
