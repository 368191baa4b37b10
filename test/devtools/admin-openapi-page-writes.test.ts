/**
 * The devtools page's writes to the OpenAPI backend's resources, through a real node:http server:
 *   - credentials: the page's write is marked in process (engine/page-write.ts), so an operation
 *     secured only by an apiKey or only by HTTP Basic takes it, while a client without
 *     credentials, or one forging what the page's write looks like from outside (its headers, the
 *     page's origin), is still refused 401;
 *   - If-Match is checked inside the write: two concurrent edits from the same view (same tag),
 *     held on their way to the backend by a route delay so that both are in flight together,
 *     exactly one passes and the other is 412, and the item holds the one that passed.
 */
import { afterEach, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { memoryFs } from '../../src/vfs/memory.js';
import { closeServers, startServer } from '../helpers/server.js';

afterEach(closeServers);

const A = '/_mockyard/api';
const SECURED = fileURLToPath(new URL('../fixtures/openapi/secured-writes-3.0.yaml', import.meta.url));
const PETSTORE = fileURLToPath(new URL('../fixtures/openapi/swagger-petstore-3.0.yaml', import.meta.url));
const BASIC = { authorization: `Basic ${btoa('ann:secret')}` };
const KEY = { 'x-api-key': 'k' };

async function call(url: string, method = 'GET', body?: unknown, headers: Record<string, string> = {}) {
  const r = await fetch(url, { method, headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await r.text();
  return { status: r.status, headers: r.headers, json: text ? JSON.parse(text) : undefined };
}

it('an apiKey-only and a Basic-only operation take the page\u2019s write; a client without credentials or forging the page\u2019s is refused 401', async () => {
  const s = await startServer({ mock: { endpointPrefix: '/api', logLevel: 'silent', fs: memoryFs({}), openapi: { document: SECURED, count: { '*': 3 } } } });
  const keys = encodeURIComponent('/keys');
  const vaults = encodeURIComponent('/vaults');
  const [key] = (await call(`${s.url}${A}/data/${keys}?limit=1`)).json.items;
  const [vault] = (await call(`${s.url}${A}/data/${vaults}?limit=1`)).json.items;

  // The page: PUT /keys/{keyId} (apiKey only) and PATCH /vaults/{vaultId} (Basic only) take it.
  const editedKey = await call(`${s.url}${A}/data/${keys}/${key.id}`, 'PATCH', { name: 'by the page' });
  expect(editedKey.status, JSON.stringify(editedKey.json)).toBe(200);
  expect((await call(`${s.url}/api/keys/${key.id}`, 'GET', undefined, KEY)).json.name).toBe('by the page');
  const editedVault = await call(`${s.url}${A}/data/${vaults}/${vault.id}`, 'PATCH', { level: 3 });
  expect(editedVault.status, JSON.stringify(editedVault.json)).toBe(200);
  expect((await call(`${s.url}/api/vaults/${vault.id}`, 'GET', undefined, BASIC)).json.level).toBe(3);
  const added = await call(`${s.url}${A}/data/${keys}`, 'POST', { name: 'added' });
  expect(added.status, JSON.stringify(added.json)).toBe(201);
  expect((await call(`${s.url}${A}/data/${keys}/${added.json.id}`, 'DELETE')).status).toBe(204);
  // Everything else of the contract still applies to the page: the schema (level ≤ 9).
  const bad = await call(`${s.url}${A}/data/${vaults}/${vault.id}`, 'PATCH', { level: 12 });
  expect(bad.status).toBe(400);
  expect(JSON.stringify(bad.json)).toMatch(/level/);

  // A real client: without credentials 401, and so when it sends what the page's write looks like from outside.
  const forged: Array<Record<string, string>> = [
    {},
    { authorization: 'Bearer mockyard-devtools' },
    { origin: s.url, 'x-mockyard-session': 'x', 'mockyard.pageWrite': '1', 'x-mockyard-page-write': '1', 'x-mockyard-devtools': '1' },
  ];
  for (const headers of forged) {
    expect((await call(`${s.url}/api/keys/${key.id}`, 'PUT', { id: key.id, name: 'forged' }, headers)).status, JSON.stringify(headers)).toBe(401);
    expect((await call(`${s.url}/api/vaults/${vault.id}`, 'PATCH', { name: 'forged' }, headers)).status, JSON.stringify(headers)).toBe(401);
    expect((await call(`${s.url}/api/keys`, 'POST', { name: 'forged' }, headers)).status).toBe(401);
  }
  // With its credentials a client is answered.
  expect((await call(`${s.url}/api/keys/${key.id}`, 'PUT', { id: key.id, name: 'client' }, KEY)).status).toBe(200);
  expect((await call(`${s.url}/api/vaults/${vault.id}`, 'GET', undefined, BASIC)).json.name).not.toBe('forged');
});

it('If-Match is checked inside the write: two concurrent edits from the same view, exactly one 412', async () => {
  const s = await startServer({ mock: { endpointPrefix: '/api', logLevel: 'silent', fs: memoryFs({}), openapi: { document: PETSTORE, count: { '*': 5 } } } });
  const pet = encodeURIComponent('/pet');
  // The edit's request to the document's operation (PUT /pet) is held 300 ms before the backend
  // answers it: both edits are past the route's early look at the tag before either is written.
  expect((await call(`${s.url}${A}/overrides`, 'POST', { method: 'PUT', path: '/pet', delay: 300 })).status).toBe(200);
  for (let round = 0; round < 3; round++) {
    const [first] = (await call(`${s.url}${A}/data/${pet}?limit=1`)).json.items;
    const tag = (await call(`${s.url}${A}/data/${pet}/${first.id}`)).headers.get('etag')!;
    const names = [`a${round}`, `b${round}`];
    const answers = await Promise.all(names.map((name) => call(`${s.url}${A}/data/${pet}/${first.id}`, 'PATCH', { name }, { 'If-Match': tag })));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 412]);
    const won = names[answers.findIndex((a) => a.status === 200)];
    const lost = answers.find((a) => a.status === 412)!;
    expect(lost.json.message).toMatch(/changed since you read it/);
    const now = await call(`${s.url}${A}/data/${pet}/${first.id}`);
    expect(now.json.name).toBe(won);
    expect(lost.json.etag).toBe(now.headers.get('etag'));
  }
});
