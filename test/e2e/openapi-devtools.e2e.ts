/**
 * The devtools page in real Chromium on a node host serving an OpenAPI document with
 * `validateResponses`: a row whose answer broke the document is marked, the "Contract
 * violations" checkbox shows only such rows, and the drawer lists each violation's JSON pointer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type RunningServer } from '../../src/node/serve.js';
import { memoryFs } from '../../src/vfs/memory.js';
import { artifact } from './helpers/artifacts.js';
import { launchChromium, type Browser } from './helpers/chromium.js';

const pet = { type: 'object', required: ['id', 'name'], properties: { id: { type: 'integer' }, name: { type: 'string' } } };
const DOC = {
  openapi: '3.0.3',
  info: { title: 'contract', version: '1' },
  paths: {
    '/pets/{id}': {
      get: { parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }], responses: { '200': { description: 'a pet', content: { 'application/json': { schema: pet } } } } },
    },
  },
};

let browser: Browser;
let server: RunningServer;
beforeAll(async () => {
  server = await serve({
    port: 0,
    host: '127.0.0.1',
    logLevel: 'silent',
    mock: { endpointPrefix: '/api', fs: memoryFs({ 'pets/1.json': { id: 1, name: 'Rex' }, 'pets/2.json': { id: 2 } }), openapi: { document: DOC, validateResponses: true } },
  });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('devtools page: contract violations', () => {
  it('marks the rows whose answer broke the document and filters them with the checkbox', async () => {
    for (const id of [1, 2, 1]) expect((await fetch(`${server.url}/api/pets/${id}`)).status).toBe(200);
    const page = await browser.context.newPage();
    await page.goto(`${server.url}/_mockyard/`);
    const rows = page.locator('.requests-rows [role=row]');
    await expect.poll(() => rows.count()).toBe(3);
    expect(await page.locator('.requests-rows .violation').count()).toBe(1);
    await page.getByLabel('Contract violations only').check();
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().textContent()).toContain('/api/pets/2');
    await rows.first().click();
    const drawer = page.locator('aside.drawer');
    expect(await drawer.locator('h3', { hasText: 'Contract violations' }).textContent()).toBe('Contract violations (GET /pets/{id}, 200)');
    expect(await drawer.locator('ul.violations li').allTextContents()).toEqual(['/name is required']);
    await page.screenshot({ path: artifact('devtools-contract-violations.png') });
    await drawer.getByLabel('Close').click();
    await page.getByLabel('Contract violations only').uncheck();
    await expect.poll(() => rows.count()).toBe(3);
  });
});
