/**
 * The journal ties what the openapi layer refused or found broken to the document's operation
 * (`operation: { label, operationId }`), through a real server on 127.0.0.1: a query refused in
 * `peek` (the hosts' fast path), a JSON body refused in `handle`, a contract refusal (415), an
 * answer that broke the document (`validateResponses`); `GET requests?operation=` by label or
 * operationId; `GET openapi` lists each operation's operationId for the page to match.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { memoryFs } from '../../src/vfs/memory.js';
import { closeServers, startServer } from '../helpers/server.js';

afterEach(closeServers);

const pet = { type: 'object', required: ['id', 'name'], properties: { id: { type: 'integer' }, name: { type: 'string' } } };
const json = (schema: object) => ({ content: { 'application/json': { schema } } });
const DOC = {
  openapi: '3.0.3',
  info: { title: 'pets', version: '1' },
  paths: {
    '/pets': {
      get: { operationId: 'listPets', parameters: [{ name: 'limit', in: 'query', schema: { type: 'integer', maximum: 100 } }], responses: { '200': { description: 'pets', ...json({ type: 'array', items: pet }) } } },
      post: { requestBody: { required: true, ...json(pet) }, responses: { '201': { description: 'created', ...json(pet) } } },
    },
    '/pets/{id}': {
      get: { operationId: 'getPet', parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }], responses: { '200': { description: 'a pet', ...json(pet) } } },
    },
  },
};

interface Entry {
  method: string;
  url: string;
  status: number;
  operation: { label: string; operationId: string | null } | null;
  violations: { operation: string } | null;
}

describe('journal: the OpenAPI operation of a refusal or a violation', () => {
  it('marks each entry with its operation; GET requests?operation= finds them by label or operationId', async () => {
    const server = await startServer({
      mock: { endpointPrefix: '/api', fs: memoryFs({ 'pets/1.json': { id: 1, name: 'Rex' }, 'pets/2.json': { id: 2 } }), openapi: { document: DOC, validateResponses: true } },
    });
    const journal = async (q = '') => ((await (await fetch(`${server.url}/_mockyard/api/requests${q}`)).json()) as { entries: Entry[] }).entries;

    const badQuery = await fetch(`${server.url}/api/pets?limit=500`); // refused in peek
    expect(badQuery.status).toBe(400);
    expect(((await badQuery.json()) as { errors: unknown[] }).errors.length).toBeGreaterThan(0);
    const badBody = await fetch(`${server.url}/api/pets`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: 'x' }) });
    expect(badBody.status).toBe(400);
    const badType = await fetch(`${server.url}/api/pets`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'hello' });
    expect(badType.status).toBe(415);
    expect((await fetch(`${server.url}/api/pets/2`)).status).toBe(200); // { id: 2 } lacks name: a violation
    expect((await fetch(`${server.url}/api/pets/1`)).status).toBe(200); // fine: no operation
    expect((await fetch(`${server.url}/api/nowhere`)).status).toBe(404); // no operation at all

    const entries = await journal();
    const byUrl = (method: string, url: string) => entries.find((e) => e.method === method && e.url === url)!;
    expect(byUrl('GET', '/api/pets?limit=500').operation).toEqual({ label: 'GET /pets', operationId: 'listPets' });
    const posts = entries.filter((e) => e.method === 'POST');
    expect(posts.map((e) => [e.status, e.operation])).toEqual([
      [415, { label: 'POST /pets', operationId: null }],
      [400, { label: 'POST /pets', operationId: null }],
    ]);
    expect(byUrl('GET', '/api/pets/2').operation).toEqual({ label: 'GET /pets/{id}', operationId: 'getPet' });
    expect(byUrl('GET', '/api/pets/2').violations!.operation).toBe('GET /pets/{id}');
    expect(byUrl('GET', '/api/pets/1').operation).toBeNull();
    expect(byUrl('GET', '/api/nowhere').operation).toBeNull();

    expect((await journal('?operation=getPet')).map((e) => e.url)).toEqual(['/api/pets/2']);
    expect((await journal(`?operation=${encodeURIComponent('POST /pets')}`)).map((e) => e.status)).toEqual([415, 400]);
    expect((await journal('?operation=listPets')).map((e) => e.url)).toEqual(['/api/pets?limit=500']);
    expect(await journal('?operation=nothing')).toEqual([]);

    const ops = ((await (await fetch(`${server.url}/_mockyard/api/openapi`)).json()) as { operations: Array<{ label: string; operationId: string | null }> }).operations;
    expect(ops.map((o) => [o.label, o.operationId])).toEqual([
      ['GET /pets', 'listPets'],
      ['POST /pets', null],
      ['GET /pets/{id}', 'getPet'],
    ]);
  });
});
