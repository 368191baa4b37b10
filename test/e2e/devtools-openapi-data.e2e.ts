/**
 * The Data tab over the OpenAPI backend's in-memory state, in real Chromium on a node host
 * serving the Swagger Petstore document: `/pet` is listed (labelled as the OpenAPI backend's),
 * paged on the server; a cell edited from the keyboard is written through the document's own
 * `PUT /pet` (so REST `GET /api/pet/<id>` answers the edit), and an edit the document's schema
 * refuses is reported with the openapi layer's 400, nothing written.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { serve, type RunningServer } from '../../src/node/serve.js';
import { memoryFs } from '../../src/vfs/memory.js';
import { launchChromium, type Browser } from './helpers/chromium.js';

const DOC = fileURLToPath(new URL('../fixtures/openapi/swagger-petstore-3.0.yaml', import.meta.url));

let browser: Browser;
let server: RunningServer;
beforeAll(async () => {
  server = await serve({ port: 0, host: '127.0.0.1', logLevel: 'silent', mock: { endpointPrefix: '/api', fs: memoryFs({}), openapi: { document: DOC, count: { '*': 75 } } } });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

// GET /pet/{petId} of the document needs the api_key header (presence only).
const pet = async (id: number) => (await (await fetch(`${server.url}/api/pet/${id}`, { headers: { api_key: 'k' } })).json()) as { id: number; name: string; photoUrls: unknown };

it('lists /pet as the OpenAPI backend\'s, pages it, and a cell edited by keyboard is what REST GET /api/pet/<id> answers', async () => {
  const page = await browser.context.newPage();
  await page.goto(`${server.url}/_mockyard/#data`);
  await page.locator('[data-tab=data][aria-selected=true]').waitFor();
  const select = page.getByTestId('data-collection');
  await expect.poll(() => select.locator('option').allTextContents()).toContain('/pet (75) · OpenAPI backend');
  await select.selectOption('/pet');
  await expect.poll(() => page.getByTestId('data-scope-label').textContent()).toMatch(/^OpenAPI backend/);
  await expect.poll(() => page.getByTestId('data-range').textContent()).toBe('1–50 of 75');
  await expect.poll(() => page.locator('[data-testid=data-table] tbody tr').count()).toBe(50);
  const id = Number(await page.locator('[data-testid=data-table] tbody tr').nth(2).getAttribute('data-id'));
  const before = await pet(id);
  const cell = (field: string) => page.locator(`[data-testid=data-table] tr[data-id="${id}"] [data-field="${field}"]`);

  // Keyboard: focus the cell, Enter, type, Enter.
  await cell('name').focus();
  await page.keyboard.press('Enter');
  await page.getByLabel(`name of ${id}`).fill('Edited in the Data tab');
  await page.keyboard.press('Enter');
  await expect.poll(async () => (await pet(id)).name).toBe('Edited in the Data tab');
  expect(await pet(id)).toEqual({ ...before, name: 'Edited in the Data tab' });
  await expect.poll(() => cell('name').textContent()).toBe('Edited in the Data tab');

  // The document's schema wants photoUrls an array: 42 is refused (400), nothing written.
  await cell('photoUrls').focus();
  await page.keyboard.press('Enter');
  await page.getByLabel(`photoUrls of ${id}`).fill('42');
  await page.keyboard.press('Enter');
  await expect.poll(() => page.getByTestId('data-note').textContent()).toMatch(/^400/);
  expect((await pet(id)).photoUrls).toEqual(before.photoUrls);

  // Paged on the server: the second page.
  await page.getByRole('button', { name: 'Next' }).click();
  await expect.poll(() => page.getByTestId('data-range').textContent()).toBe('51–75 of 75');
  await page.close();
});
