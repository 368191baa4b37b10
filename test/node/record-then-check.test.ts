/**
 * Two commands as a user chains them: `mockyard record --har` in front of the real API, then
 * `mockyard check` on the log it wrote. The log withholds credential values (`[redacted]`), so
 * `check` must read a withheld `Authorization` or `Cookie` as sent; a request that carried none
 * still drifts.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { runCli, stopCli, stopClis } from '../helpers/cli-run.js';
import { makeTempDir, removeTempDirs } from '../helpers/temp-dir.js';

afterEach(async () => {
  await stopClis();
  await removeTempDirs();
});

const pet = { type: 'object', required: ['name'], properties: { id: { type: 'integer', readOnly: true }, name: { type: 'string' } } };
const DOC = {
  openapi: '3.0.3',
  info: { title: 'Pets', version: '1' },
  servers: [{ url: '/v1' }],
  paths: {
    '/pets': {
      post: {
        security: [{ token: [] }, { session: [] }],
        requestBody: { required: true, content: { 'application/json': { schema: pet } } },
        responses: { 201: { description: 'made', content: { 'application/json': { schema: pet } } } },
      },
    },
    '/pets/{id}': {
      delete: {
        security: [{ basic: [] }],
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
        responses: { 204: { description: 'gone' } },
      },
    },
  },
  components: {
    securitySchemes: {
      token: { type: 'http', scheme: 'bearer' },
      session: { type: 'apiKey', in: 'cookie', name: 'sid' },
      basic: { type: 'http', scheme: 'basic' },
    },
  },
};

it('a log written by `mockyard record --har` passes `mockyard check` when the requests carried their credentials', async () => {
  const dir = await makeTempDir();
  await writeFile(join(dir, 'pets.json'), JSON.stringify(DOC));
  const api = await runCli(['pets.json', '--port', '0', '--log-level', 'silent'], dir); // the "real" API
  const rec = await runCli(['record', '--target', api.server!.url, '--prefix', '/v1', '--fs-dir', 'rec', '--har', 'traffic.har', '--port', '0', '--log-level', 'silent'], dir);
  const send = (method: string, path: string, headers: Record<string, string>, body?: unknown) =>
    fetch(`${rec.server!.url}/v1${path}`, { method, headers: { 'content-type': 'application/json', ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
  expect((await send('POST', '/pets', { authorization: 'Bearer secret-token' }, { name: 'Rex' })).status).toBe(201);
  expect((await send('POST', '/pets', { cookie: 'sid=secret-session' }, { name: 'Tom' })).status).toBe(201);
  expect((await send('DELETE', '/pets/1', { authorization: `Basic ${btoa('ada:secret-pass')}` })).status).toBe(204);
  expect((await send('POST', '/pets', {}, { name: 'Nobody' })).status).toBe(401);
  await stopCli(rec);

  const har = await readFile(join(dir, 'traffic.har'), 'utf8');
  expect(har).not.toMatch(/secret-(token|session)|YWRhOnNlY3JldC1wYXNz/);
  const check = await runCli(['check', 'pets.json', 'traffic.har'], dir);
  // Only the request that sent no credentials drifts.
  expect(check.out).toBe('drift: POST /v1/pets → 401\n  request: POST /pets needs credentials: an Authorization: Bearer header, or the cookie parameter sid (401)\n4 exchange(s) checked against Pets: 1 drifted.');
  expect(check.code).toBe(1);
});

it('a log recorded under another path than the document\'s server path is never "all match": check names the --prefix it needs', async () => {
  const dir = await makeTempDir();
  await writeFile(join(dir, 'pets.json'), JSON.stringify(DOC));
  // The document says /v1; the team serves it (and records it) under /api, as a Vite proxy would.
  const api = await runCli(['pets.json', '--prefix', '/api', '--port', '0', '--log-level', 'silent'], dir);
  const rec = await runCli(['record', '--target', api.server!.url, '--prefix', '/api', '--fs-dir', 'rec', '--har', 'traffic.har', '--port', '0', '--log-level', 'silent'], dir);
  const post = (name: string, headers: Record<string, string>) =>
    fetch(`${rec.server!.url}/api/pets`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ name }) });
  expect((await post('Rex', { authorization: 'Bearer t' })).status).toBe(201);
  expect((await post('Nobody', {})).status).toBe(401);
  await stopCli(rec);

  const unread = await runCli(['check', 'pets.json', 'traffic.har'], dir);
  expect(unread.out).toBe(
    "nothing checked against Pets: none of the log's 2 exchange(s) is under /v1 (the document's server path); 2 match its operations under /api: run again with --prefix /api.",
  );
  expect(unread.code).toBe(1);

  const read = await runCli(['check', 'pets.json', 'traffic.har', '--prefix', '/api'], dir);
  expect(read.out).toBe('drift: POST /api/pets → 401\n  request: POST /pets needs credentials: an Authorization: Bearer header, or the cookie parameter sid (401)\n2 exchange(s) checked against Pets: 1 drifted.');

  // A browser's log also holds the page's own files: counted, not checked.
  const har = JSON.parse(await readFile(join(dir, 'traffic.har'), 'utf8'));
  har.log.entries = [har.log.entries[0], { ...har.log.entries[0], request: { ...har.log.entries[0].request, method: 'GET', url: `${api.server!.url}/assets/app.js`, postData: undefined } }];
  await writeFile(join(dir, 'page.har'), JSON.stringify(har));
  const page = await runCli(['check', 'pets.json', 'page.har', '--prefix', '/api'], dir);
  expect(page.out).toBe('1 exchange(s) checked against Pets: all match the document (1 exchange(s) outside /api not checked).');
  expect(page.code).toBe(0);

  await writeFile(join(dir, 'empty.har'), JSON.stringify({ log: { version: '1.2', entries: [] } }));
  const empty = await runCli(['check', 'pets.json', 'empty.har'], dir);
  expect(empty.out).toBe('nothing checked against Pets: the log holds no exchanges.');
  expect(empty.code).toBe(1);
});
