/**
 * The journal linked to the OpenAPI document, in real Chromium on a node host (`mock.openapi`
 * with `validateResponses`): a request the page's app sends by fetch that the document refuses
 * (400 with `errors`) and an answer that breaks it show in the Requests tab with their
 * operation; from the keyboard, the entry's drawer opens that operation in the OpenAPI tab, and
 * "back" returns to the entry. The journal's `operation` is checked through the admin API too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type RunningServer } from '../../src/node/serve.js';
import { memoryFs } from '../../src/vfs/memory.js';
import { artifact } from './helpers/artifacts.js';
import { launchChromium, type Browser } from './helpers/chromium.js';

const pet = { type: 'object', required: ['id', 'name'], properties: { id: { type: 'integer' }, name: { type: 'string' } } };
const json = (schema: object) => ({ content: { 'application/json': { schema } } });
const DOC = {
  openapi: '3.0.3',
  info: { title: 'pets', version: '1' },
  paths: {
    '/pets': {
      post: { operationId: 'addPet', requestBody: { required: true, ...json(pet) }, responses: { '201': { description: 'created', ...json(pet) } } },
    },
    '/pets/{id}': {
      get: { operationId: 'getPet', parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }], responses: { '200': { description: 'a pet', ...json(pet) } } },
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

interface Entry {
  id: number;
  url: string;
  status: number;
  operation: { label: string; operationId: string | null } | null;
}

describe('devtools page: journal entries linked to their OpenAPI operation', () => {
  it('a refused request and a broken answer name their operation; the drawer opens it in the OpenAPI tab and comes back, by keyboard', async () => {
    const page = await browser.context.newPage();
    await page.goto(`${server.url}/_mockyard/`);
    await page.locator('.live-dot.live').waitFor();
    // The app (here: the page's own origin) sends a bad POST by fetch, then reads a pet whose file breaks the document.
    const refused = await page.evaluate(async () => {
      const res = await fetch('/api/pets', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: 'seven' }) });
      return { status: res.status, body: (await res.json()) as { errors: Array<{ in: string }> } };
    });
    expect(refused.status).toBe(400);
    expect(refused.body.errors.length).toBeGreaterThan(0);
    expect(await page.evaluate(async () => (await fetch('/api/pets/2')).status)).toBe(200);

    // The admin API says the same as the page will.
    const entries = ((await (await fetch(`${server.url}/_mockyard/api/requests?operation=addPet`)).json()) as { entries: Entry[] }).entries;
    expect(entries.map((e) => [e.url, e.status, e.operation])).toEqual([['/api/pets', 400, { label: 'POST /pets', operationId: 'addPet' }]]);
    const postId = entries[0]!.id;

    const rows = page.locator('.requests-rows [role=row]');
    await expect.poll(() => rows.count()).toBe(2);
    const post = page.locator(`.requests-rows [role=row][data-id="${postId}"]`);
    expect(await post.textContent()).toContain('openapi · invalid request · POST /pets');
    expect(await rows.filter({ hasText: '/api/pets/2' }).textContent()).toContain('GET /pets/{id}');

    // Keyboard: the row, Enter, Tab to the drawer's link, Enter.
    await post.focus();
    await page.keyboard.press('Enter');
    const drawer = page.locator('aside.drawer');
    expect(await drawer.getByTestId('entry-operation').textContent()).toBe('OpenAPI operation POST /pets (addPet) Open in the OpenAPI tab');
    expect(await drawer.locator('pre.body').last().textContent()).toContain('"errors"');
    const link = drawer.getByRole('button', { name: 'Open in the OpenAPI tab' });
    for (let i = 0; i < 10 && !(await link.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab');
    expect(await link.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('Enter');

    // The OpenAPI tab, that operation open and focused.
    await page.locator('[data-tab=openapi][aria-selected=true]').waitFor();
    const op = page.locator('details[data-op="POST /pets"]');
    await expect.poll(() => op.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(true);
    await expect.poll(() => page.evaluate(() => document.activeElement?.closest('details')?.getAttribute('data-op'))).toBe('POST /pets');
    expect(await op.locator('summary').textContent()).toBe('POST /pets · addPet');
    expect(await page.locator('details[data-op="GET /pets/{id}"]').evaluate((d) => (d as HTMLDetailsElement).open)).toBe(false);
    await page.screenshot({ path: artifact('devtools-journal-operation.png') });

    // Back (Tab from the summary goes down the list: the back button is reached with Shift+Tab).
    const back = page.getByTestId('openapi-back');
    expect(await back.textContent()).toBe(`← Back to request #${postId}`);
    for (let i = 0; i < 10 && !(await back.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Shift+Tab');
    expect(await back.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('Enter');
    await page.locator('[data-tab=requests][aria-selected=true]').waitFor();
    await expect.poll(() => page.locator('aside.drawer h2').textContent()).toBe('POST /api/pets');
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Open in the OpenAPI tab');

    // The violation's entry links the same way (by click).
    await rows.filter({ hasText: '/api/pets/2' }).click();
    expect(await drawer.getByTestId('entry-operation').textContent()).toContain('GET /pets/{id} (getPet)');
    await drawer.getByRole('button', { name: 'Open in the OpenAPI tab' }).click();
    await expect.poll(() => page.locator('details[data-op="GET /pets/{id}"]').evaluate((d) => (d as HTMLDetailsElement).open)).toBe(true);
    await page.close();
  });
});
