/**
 * The Data tab over the OpenAPI backend's in-memory state, in real Chromium on a node host
 * serving the Swagger Petstore document: `/pet` is listed (labelled as the OpenAPI backend's),
 * paged on the server; a cell edited from the keyboard is written through the document's own
 * `PUT /pet` (so REST `GET /api/pet/<id>` answers the edit), and an edit the document's schema
 * refuses is reported with the openapi layer's 400, nothing written. A collection under a path
 * parameter (`/users/{userId}/orders`) is listed per parent and edited through its own operation;
 * Import JSON replaces a resource (a bad item refused in the dialog, naming it), Reset collection
 * brings the seed back, and REST agrees each time. Cells of an apiKey-only and a Basic-only
 * resource take the page's edit (a client without credentials is still refused), and a
 * `pet.updated` webhook receiver on 127.0.0.1 gets the page's edit.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { createServer, type Server } from 'node:http';
import { serve, type RunningServer } from '../../src/node/serve.js';
import { memoryFs } from '../../src/vfs/memory.js';
import { launchChromium, type Browser } from './helpers/chromium.js';

const DOC = fileURLToPath(new URL('../fixtures/openapi/swagger-petstore-3.0.yaml', import.meta.url));
const SECURED = fileURLToPath(new URL('../fixtures/openapi/secured-writes-3.0.yaml', import.meta.url));

let browser: Browser;
let server: RunningServer;
let secured: RunningServer;
let hooked: RunningServer;
let receiver: Server;
const received: Array<{ event: string | undefined; body: any }> = [];
beforeAll(async () => {
  receiver = createServer((req, res) => {
    let text = '';
    req.on('data', (c) => (text += c));
    req.on('end', () => {
      received.push({ event: req.headers['x-mockyard-event'] as string | undefined, body: JSON.parse(text) });
      res.end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const hookUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hooks`;
  hooked = await serve({ port: 0, host: '127.0.0.1', logLevel: 'silent', mock: { endpointPrefix: '/api', fs: memoryFs({}), openapi: { document: DOC, count: { '*': 5 } }, webhooks: [{ on: 'pet.updated', url: hookUrl }] } });
  server = await serve({ port: 0, host: '127.0.0.1', logLevel: 'silent', mock: { endpointPrefix: '/api', fs: memoryFs({}), openapi: { document: DOC, count: { '*': 75 } } } });
  secured = await serve({ port: 0, host: '127.0.0.1', logLevel: 'silent', mock: { endpointPrefix: '/api', fs: memoryFs({}), openapi: { document: SECURED, count: { '*': 3 } } } });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  await secured?.close();
  await hooked?.close();
  await new Promise((resolve) => receiver?.close(resolve));
});

// GET /pet/{petId} of the document needs the api_key header (presence only).
const pet = async (id: number, session?: string) => (await (await fetch(`${server.url}/api/pet/${id}`, { headers: { api_key: 'k', ...(session ? { 'X-Mockyard-Session': session } : {}) } })).json()) as { id: number; name: string; photoUrls: unknown };

it('lists /pet as the OpenAPI backend\'s, pages it, and a cell edited by keyboard is what REST GET /api/pet/<id> answers', async () => {
  const page = await browser.context.newPage();
  await page.goto(`${server.url}/_mockyard/#data`);
  await page.locator('[data-tab=data][aria-selected=true]').waitFor();
  const select = page.getByTestId('data-collection');
  await expect.poll(() => select.locator('option').allTextContents()).toContain('/pet (75) · OpenAPI backend');
  await select.selectOption('/pet');
  await expect.poll(() => page.getByTestId('data-scope-label').textContent()).toMatch(/^OpenAPI backend, shared/);
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

it('edits a session\'s own copy of the backend\'s state, labelled; only that session sees it', async () => {
  const page = await browser.context.newPage();
  await page.goto(`${server.url}/_mockyard/#data`);
  await page.locator('[data-tab=data][aria-selected=true]').waitFor();
  await page.getByLabel('New session id').fill('pw-pets');
  await page.keyboard.press('Enter');
  await expect.poll(() => page.getByTestId('data-collection').locator('option').allTextContents()).toContain('/pet (75) · OpenAPI backend');
  await page.getByTestId('data-collection').selectOption('/pet');
  await expect.poll(() => page.getByTestId('data-scope-label').textContent()).toMatch(/^OpenAPI backend, session pw-pets’s copy/);
  await expect.poll(() => page.locator('[data-testid=data-table] tbody tr').count()).toBe(50);
  const id = Number(await page.locator('[data-testid=data-table] tbody tr').nth(4).getAttribute('data-id'));
  const shared = (await pet(id)).name;
  await page.locator(`[data-testid=data-table] tr[data-id="${id}"] [data-field="name"]`).focus();
  await page.keyboard.press('Enter');
  await page.getByLabel(`name of ${id}`).fill('Only in pw-pets');
  await page.keyboard.press('Enter');
  await expect.poll(async () => (await pet(id, 'pw-pets')).name).toBe('Only in pw-pets');
  expect((await pet(id)).name).toBe(shared);
  await page.close();
});

const rest = async (base: string, path: string, headers: Record<string, string> = {}) => {
  const r = await fetch(`${base}${path}`, { headers });
  return { status: r.status, json: r.status === 200 ? await r.json() : undefined };
};

it('lists a collection under a path parameter per parent; an order of user 2 edited by keyboard is what REST answers under that user only', async () => {
  const page = await browser.context.newPage();
  await page.goto(`${secured.url}/_mockyard/#data`);
  await page.locator('[data-tab=data][aria-selected=true]').waitFor();
  const select = page.getByTestId('data-collection');
  await expect.poll(() => select.locator('option').allTextContents()).toEqual(expect.arrayContaining(['/users/1/orders (3) · OpenAPI backend', '/users/2/orders (3) · OpenAPI backend', '/users/3/orders (3) · OpenAPI backend']));
  await select.selectOption('/users/2/orders');
  await expect.poll(() => page.getByTestId('data-range').textContent()).toBe('1–3 of 3');
  const row = page.locator('[data-testid=data-table] tbody tr').first();
  const id = Number(await row.getAttribute('data-id'));
  const before = (await rest(secured.url, `/api/users/2/orders/${id}`)).json;
  await row.locator('[data-field="item"]').focus();
  await page.keyboard.press('Enter');
  await page.getByLabel(`item of ${id}`).fill('edited for user 2');
  await page.keyboard.press('Enter');
  await expect.poll(async () => (await rest(secured.url, `/api/users/2/orders/${id}`)).json.item).toBe('edited for user 2');
  expect((await rest(secured.url, `/api/users/2/orders/${id}`)).json).toEqual({ ...before, item: 'edited for user 2' });
  expect((await rest(secured.url, `/api/users/1/orders/${id}`)).json.item).not.toBe('edited for user 2');
  // The document's schema holds (quantity ≥ 1): 0 is refused, nothing written.
  await row.locator('[data-field="quantity"]').focus();
  await page.keyboard.press('Enter');
  await page.getByLabel(`quantity of ${id}`).fill('0');
  await page.keyboard.press('Enter');
  await expect.poll(() => page.getByTestId('data-note').textContent()).toMatch(/^400/);
  expect((await rest(secured.url, `/api/users/2/orders/${id}`)).json.quantity).toBe(before.quantity);
  await page.close();
});

it('imports JSON into an apiKey-only resource (a bad item refused, naming it), and Reset collection brings the seed back', async () => {
  const key = { 'x-api-key': 'k' };
  const seeded = (await rest(secured.url, '/api/keys', key)).json;
  const page = await browser.context.newPage();
  await page.goto(`${secured.url}/_mockyard/#data`);
  await page.locator('[data-tab=data][aria-selected=true]').waitFor();
  const select = page.getByTestId('data-collection');
  await expect.poll(() => select.locator('option').allTextContents()).toContain('/keys (3) · OpenAPI backend');
  await select.selectOption('/keys');
  await expect.poll(() => page.getByTestId('data-range').textContent()).toBe('1–3 of 3');

  await page.getByRole('button', { name: 'Import JSON' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('JSON').fill('[{ "id": 20, "name": "twenty", "level": 2 }, { "id": 21, "name": "too high", "level": 12 }]');
  await page.keyboard.press('Control+Enter');
  await expect.poll(() => page.getByTestId('dialog-error').textContent()).toMatch(/Item 1 of \/keys does not match the document's schema: \/level/);
  expect((await rest(secured.url, '/api/keys', key)).json).toEqual(seeded);
  await dialog.getByLabel('JSON').fill('[{ "id": 20, "name": "twenty", "level": 2 }, { "name": "no id" }]');
  await page.keyboard.press('Control+Enter');
  await expect.poll(() => dialog.count()).toBe(0);
  await expect.poll(() => page.getByTestId('data-range').textContent()).toBe('1–2 of 2');
  expect((await rest(secured.url, '/api/keys', key)).json).toEqual([{ id: 20, name: 'twenty', level: 2 }, { id: 21, name: 'no id' }]);

  await page.getByRole('button', { name: 'Reset collection' }).click();
  await expect.poll(() => page.getByTestId('data-range').textContent()).toBe('1–3 of 3');
  expect((await rest(secured.url, '/api/keys', key)).json).toEqual(seeded);
  await page.close();
});

it('cells of an apiKey-only and a Basic-only resource take the page\u2019s edit; a client without credentials is still refused', async () => {
  const page = await browser.context.newPage();
  await page.goto(`${secured.url}/_mockyard/#data`);
  await page.locator('[data-tab=data][aria-selected=true]').waitFor();
  const select = page.getByTestId('data-collection');
  for (const [resource, field, value, headers] of [
    ['/keys', 'name', 'key edited in the page', { 'x-api-key': 'k' }],
    ['/vaults', 'name', 'vault edited in the page', { authorization: `Basic ${btoa('ann:pw')}` }],
  ] as const) {
    await expect.poll(() => select.locator('option').allTextContents()).toContain(`${resource} (3) · OpenAPI backend`);
    await select.selectOption(resource);
    await expect.poll(() => page.getByTestId('data-range').textContent()).toBe('1–3 of 3');
    const row = page.locator('[data-testid=data-table] tbody tr').nth(1);
    const id = await row.getAttribute('data-id');
    await row.locator(`[data-field="${field}"]`).focus();
    await page.keyboard.press('Enter');
    await page.getByLabel(`${field} of ${id}`).fill(value);
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await rest(secured.url, `/api${resource}/${id}`, headers)).json?.[field]).toBe(value);
    expect((await rest(secured.url, `/api${resource}/${id}`)).status).toBe(401);
  }
  await page.close();
});

it('a pet edited in the page fires the pet.updated webhook, as a REST PUT does', async () => {
  received.length = 0;
  const page = await browser.context.newPage();
  await page.goto(`${hooked.url}/_mockyard/#data`);
  await page.locator('[data-tab=data][aria-selected=true]').waitFor();
  const select = page.getByTestId('data-collection');
  await expect.poll(() => select.locator('option').allTextContents()).toContain('/pet (5) · OpenAPI backend');
  await select.selectOption('/pet');
  const row = page.locator('[data-testid=data-table] tbody tr').first();
  const id = Number(await row.getAttribute('data-id'));
  await row.locator('[data-field="name"]').focus();
  await page.keyboard.press('Enter');
  await page.getByLabel(`name of ${id}`).fill('renamed in the page');
  await page.keyboard.press('Enter');
  await expect.poll(() => received.length).toBe(1);
  expect(received[0]).toMatchObject({ event: 'pet.updated', body: { id, name: 'renamed in the page' } });
  const current = received[0]!.body;
  const put = await fetch(`${hooked.url}/api/pet`, { method: 'PUT', headers: { 'content-type': 'application/json', authorization: 'Bearer t' }, body: JSON.stringify({ ...current, name: 'renamed by REST' }) });
  expect(put.status).toBe(200);
  await expect.poll(() => received.length).toBe(2);
  expect(received[1]).toMatchObject({ event: 'pet.updated', body: { id, name: 'renamed by REST' } });
  await page.close();
});
