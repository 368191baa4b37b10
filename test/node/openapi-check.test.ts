/**
 * One rule for `mockyard check` (recorded traffic against the document) and `--strict-responses`
 * (the mock's own answers): an answer is held to its exact code, else its range, else `default`;
 * mockyard's own error answers (its JSON error body) are never held to the document.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { runCli, stopClis } from '../helpers/cli-run.js';
import { makeTempDir, removeTempDirs } from '../helpers/temp-dir.js';

afterEach(async () => {
  await stopClis();
  await removeTempDirs();
});

const DOC = {
  openapi: '3.0.3',
  info: { title: 'Pets', version: '1' },
  paths: {
    '/pets/{id}': {
      get: {
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
        responses: {
          200: { description: 'a pet', content: { 'application/json': { schema: { type: 'object', required: ['id', 'name'], properties: { id: { type: 'integer' }, name: { type: 'string' } } } } } },
          default: { description: 'an error', content: { 'application/json': { schema: { type: 'object', required: ['code', 'message'], properties: { code: { type: 'integer' }, message: { type: 'string' } } } } } },
        },
      },
    },
  },
};

it("mockyard's own errors pass both --strict-responses and check; an upstream error is held to default", async () => {
  const dir = await makeTempDir();
  await writeFile(join(dir, 'pets.json'), JSON.stringify(DOC));
  const served = await runCli(['pets.json', '--strict-responses', '--port', '0', '--log-level', 'silent'], dir);
  const url = served.server!.url;
  const entries = [];
  for (const path of ['/pets/1', '/pets/abc', '/pets/99']) {
    const res = await fetch(`${url}${path}`);
    const text = await res.text();
    entries.push({ path, status: res.status, type: res.headers.get('content-type') ?? '', text });
  }
  // Strict mode keeps the mock's own 400 (a refused request) and 404 (an unknown id): no 500.
  expect(entries.map((e) => e.status)).toEqual([200, 400, 404]);

  const har = (list: { path: string; status: number; type: string; text: string }[]) => JSON.stringify({
    log: { entries: list.map((e) => ({ request: { method: 'GET', url: `https://api.example.com${e.path}`, headers: [] }, response: { status: e.status, headers: [{ name: 'content-type', value: e.type }], content: { mimeType: e.type, text: e.text } } })) },
  });
  await writeFile(join(dir, 'mock.har'), har(entries));
  const mine = await runCli(['check', 'pets.json', 'mock.har'], dir);
  // The refused request is the client's drift; the mock's answers (its 400 and 404 bodies) are not held to `default`.
  expect(mine.out).toBe('drift: GET /pets/abc → 400\n  request /path/id: must be integer\n3 exchange(s) checked against Pets: 1 drifted.');

  await writeFile(join(dir, 'upstream.har'), har([{ path: '/pets/5', status: 500, type: 'application/json', text: '{"oops":true}' }]));
  const upstream = await runCli(['check', 'pets.json', 'upstream.har'], dir);
  expect(upstream.code).toBe(1);
  expect(upstream.out).toContain('response /body/code: is required');
});
