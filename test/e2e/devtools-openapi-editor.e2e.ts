/**
 * The devtools page's OpenAPI tab in real Chromium on a node host serving an OpenAPI document:
 * the operations with their documented responses and examples; "Answer with this" keeps a
 * `Prefer` (code, example, dynamic) as an override of the session named, so the OpenAPI backend's
 * own Prefer rule picks that session's answer — a named example, a documented error, or a
 * response documented by its schema only (generated) — and the other sessions keep the default.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { serve, type RunningServer } from '../../src/node/serve.js';
import { memoryFs } from '../../src/vfs/memory.js';
import { artifact } from './helpers/artifacts.js';
import { launchChromium, type Browser } from './helpers/chromium.js';

const pet = { type: 'object', required: ['id', 'name'], properties: { id: { type: 'integer' }, name: { type: 'string' } } };
const DOC = {
  openapi: '3.0.3',
  info: { title: 'pets', version: '1' },
  paths: {
    '/pets/{id}': {
      get: {
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
        responses: {
          '200': { description: 'a pet', content: { 'application/json': { schema: pet, examples: { rex: { value: { id: 1, name: 'Rex' } }, tom: { value: { id: 1, name: 'Tom' } } } } } },
          '404': { description: 'no such pet' },
          '503': { description: 'down', content: { 'application/json': { schema: { type: 'object', required: ['reason'], properties: { reason: { type: 'string', minLength: 1 } } } } } },
        },
      },
    },
  },
};

let browser: Browser;
let server: RunningServer;
beforeAll(async () => {
  server = await serve({ port: 0, host: '127.0.0.1', logLevel: 'silent', mock: { endpointPrefix: '/api', fs: memoryFs({}), openapi: { document: DOC } } });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const get = async (path: string, session?: string) => {
  const res = await fetch(`${server.url}${path}`, { headers: session ? { 'X-Mockyard-Session': session } : {} });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : {}) as { name?: string; reason?: string } };
};

it('lists the operations with their examples; "Answer with this" answers that session only', async () => {
  const page = await browser.context.newPage();
  await page.goto(`${server.url}/_mockyard/#openapi`);
  await page.locator('[data-tab=openapi][aria-selected=true]').waitFor();
  const op = page.locator('details[data-op="GET /pets/{id}"]');
  await op.locator('summary').click();
  await expect.poll(() => op.textContent()).toContain('"Tom"');
  await page.getByTestId('openapi-session').fill('pw-1');
  await op.getByRole('button', { name: 'Answer GET /pets/{id} with 200 tom' }).click();
  await expect.poll(() => page.getByTestId('openapi-note').textContent()).toMatch(/Session pw-1: GET \/pets\/\{id\} answers 200 \(example tom\)/);
  expect(await get('/api/pets/1', 'pw-1')).toEqual({ status: 200, body: { id: 1, name: 'Tom' } });
  expect((await get('/api/pets/1')).body.name).not.toBe('Tom');
  // A documented error without an example: its status, the JSON error body.
  await page.getByTestId('openapi-session').fill('pw-2');
  await op.getByRole('button', { name: 'Answer GET /pets/{id} with 404' }).click();
  await expect.poll(async () => (await get('/api/pets/1', 'pw-2')).status).toBe(404);
  expect((await get('/api/pets/1', 'pw-1')).status).toBe(200);
  // A response documented by its schema only: generated, chosen through the Prefer rule, fresh each time.
  await page.getByTestId('openapi-session').fill('pw-3');
  await page.getByTestId('openapi-dynamic').check();
  await op.getByRole('button', { name: 'Answer GET /pets/{id} with 503' }).click();
  await expect.poll(() => page.getByTestId('openapi-note').textContent()).toContain('Prefer: code=503, dynamic=true');
  const down = await get('/api/pets/1', 'pw-3');
  expect(down.status).toBe(503);
  expect(typeof down.body.reason).toBe('string');
  expect((await get('/api/pets/1')).status).toBe(200);
  await page.screenshot({ path: artifact('devtools-editor-openapi.png') });
  await page.close();
});
