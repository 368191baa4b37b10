/**
 * The editor in browser mode: the devtools overlay over the playground (service worker), its
 * admin calls answered by the tab's own engines in-process. A cell edited from the keyboard in
 * the Data tab is what the app's next fetch gets; so is a shared route override added in the
 * Routes tab. The Sessions tab lists the session the app's requests made, with its changes and
 * requests, and its Reset and Delete are what the app's next fetch in that session sees. Over a
 * page serving an OpenAPI document, the OpenAPI tab's "Answer with this" answers the app's
 * fetches of that session only.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { launchChromium, type Browser } from './helpers/chromium.js';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

it('browser mode: the overlay\u2019s Data tab edits the tab\u2019s own data (the app sees it)', async () => {
  const app = await browser.context.newPage();
  await app.goto(`${inject('playgroundUrl')}/?host=sw#_mockyard`);
  expect(await app.evaluate(() => (window as unknown as { playground: { ready: Promise<string> } }).playground.ready)).toBe('ready');
  const root = app.locator('[data-mockyard-devtools=overlay]');
  await root.waitFor();
  await root.locator('[data-tab=data]').click();
  await root.getByTestId('data-collection').selectOption('tasks');
  const cell = root.locator('[data-testid=data-table] tr[data-id="1"] [data-field="title"]');
  await cell.waitFor({ timeout: 15_000 });
  await cell.focus();
  await app.keyboard.press('Enter');
  await root.getByLabel('title of 1').fill('Edited in the overlay');
  await app.keyboard.press('Enter');
  await expect.poll(() => root.getByTestId('data-note').textContent()).toBe('Saved title of 1.');
  const titleOf1 = () => app.evaluate(async () => ((await (await fetch('/api/tasks')).json()) as Array<{ id: number; title: string }>).find((t) => t.id === 1)?.title);
  await expect.poll(titleOf1).toBe('Edited in the overlay');
  await app.close();
});

it('browser mode: a shared route override chosen in the overlay\u2019s Routes tab answers the app\u2019s next fetch; undone', async () => {
  const app = await browser.context.newPage();
  await app.goto(`${inject('playgroundUrl')}/?host=sw#_mockyard`);
  expect(await app.evaluate(() => (window as unknown as { playground: { ready: Promise<string> } }).playground.ready)).toBe('ready');
  const root = app.locator('[data-mockyard-devtools=overlay]');
  await root.waitFor();
  await root.locator('[data-tab=routes]').click();
  await root.getByTestId('override-target').selectOption('shared');
  await root.getByTestId('override-path').fill('/tasks');
  await root.getByTestId('override-kind').selectOption('status');
  await root.getByTestId('override-value').fill('503');
  await root.getByRole('button', { name: 'Add override' }).click();
  const status = () => app.evaluate(async () => (await fetch('/api/tasks')).status);
  await expect.poll(status).toBe(503);
  await root.getByRole('button', { name: 'Undo GET /tasks → status 503' }).click();
  await expect.poll(status).toBe(200);
  await app.close();
});

/** The playground with the overlay open; its app's fetch, with a session or without. */
async function playground(): Promise<{ app: Page; root: ReturnType<Page['locator']>; tasks: (session?: string) => Promise<Array<{ id: number; title: string }>> }> {
  const app = await browser.context.newPage();
  await app.goto(`${inject('playgroundUrl')}/?host=sw#_mockyard`);
  expect(await app.evaluate(() => (window as unknown as { playground: { ready: Promise<string> } }).playground.ready)).toBe('ready');
  const root = app.locator('[data-mockyard-devtools=overlay]');
  await root.waitFor();
  const tasks = (session?: string) => app.evaluate(async (s) => (await (await fetch('/api/tasks', { headers: s ? { 'X-Mockyard-Session': s } : {} })).json()) as Array<{ id: number; title: string }>, session);
  return { app, root, tasks };
}

it('browser mode: the overlay\u2019s Sessions tab lists the app\u2019s session with its changes and requests; Reset and Delete are what the app\u2019s next fetch sees', async () => {
  const { app, root, tasks } = await playground();
  const shared = (await tasks()).find((t) => t.id === 2)!.title;
  // The app works in a session of its own: its edit stays there.
  const patched = await app.evaluate(async () => (await fetch('/api/tasks/2', { method: 'PATCH', headers: { 'Content-Type': 'application/json', 'X-Mockyard-Session': 'pw-overlay' }, body: JSON.stringify({ title: 'Only in pw-overlay' }) })).status);
  expect(patched).toBe(200);
  expect((await tasks('pw-overlay')).find((t) => t.id === 2)!.title).toBe('Only in pw-overlay');
  expect((await tasks()).find((t) => t.id === 2)!.title).toBe(shared);

  // Chosen from the tab strip by keyboard (inside the overlay's shadow root): Right three times from Requests.
  await root.locator('[data-tab=requests]').focus();
  for (let i = 0; i < 3; i++) await app.keyboard.press('ArrowRight');
  await root.locator('[data-tab=sessions][aria-selected=true]').waitFor();
  expect(await root.locator('[data-tab=sessions]').evaluate((el) => (el.getRootNode() as ShadowRoot).activeElement === el)).toBe(true);
  const row = root.locator('[data-testid=sessions-table] tr[data-id="pw-overlay"]');
  await row.waitFor({ timeout: 15_000 });
  expect(Number(await row.locator('td.num').nth(1).textContent())).toBeGreaterThanOrEqual(1); // its data changes
  await row.getByRole('button', { name: 'pw-overlay', exact: true }).click();
  await expect.poll(() => root.getByTestId('session-detail').textContent()).toContain('PATCH /api/tasks/2');

  // Reset: the session's data dropped, the app's next fetch in it reads the shared title.
  await row.getByRole('button', { name: 'Reset pw-overlay' }).click();
  await expect.poll(() => root.getByTestId('sessions-note').textContent()).toBe('Session pw-overlay reset: its data, overrides and scenario dropped.');
  expect((await tasks('pw-overlay')).find((t) => t.id === 2)!.title).toBe(shared);

  // Delete: gone from the list (the app's next request in it would make a new one).
  await root.locator('[data-testid=sessions-table] tr[data-id="pw-overlay"]').getByRole('button', { name: 'Delete pw-overlay' }).click();
  await expect.poll(() => root.getByTestId('sessions-note').textContent()).toBe('Session pw-overlay deleted.');
  await expect.poll(() => root.locator('tr[data-id="pw-overlay"]').count()).toBe(0);
  await app.close();
});

it('browser mode: the overlay\u2019s OpenAPI tab: "Answer with this" answers the app\u2019s fetches of that session only', async () => {
  const app = await browser.context.newPage();
  await app.goto(`${inject('siteUrl')}/devtools-openapi.html#_mockyard`);
  expect(await app.evaluate(() => (window as unknown as { mockyard: { started: Promise<string> } }).mockyard.started)).toBe('ok');
  const root = app.locator('[data-mockyard-devtools=overlay]');
  await root.waitFor();
  const pet = (session?: string) => app.evaluate(async (s) => { const r = await fetch('/api/pets/1', { headers: s ? { 'X-Mockyard-Session': s } : {} }); return { status: r.status, name: r.ok ? ((await r.json()) as { name: string }).name : null }; }, session);
  expect((await pet()).status).toBe(200);

  await root.locator('[data-tab=openapi]').click();
  const op = root.locator('details[data-op="GET /pets/{id}"]');
  await op.locator('summary').click();
  await expect.poll(() => op.textContent()).toContain('"Tom"');
  await root.getByTestId('openapi-session').fill('pw-tom');
  await op.getByRole('button', { name: 'Answer GET /pets/{id} with 200 tom' }).click();
  await expect.poll(() => root.getByTestId('openapi-note').textContent()).toMatch(/Session pw-tom: GET \/pets\/\{id\} answers 200 \(example tom\)/);
  expect(await pet('pw-tom')).toEqual({ status: 200, name: 'Tom' });
  expect((await pet()).name).not.toBe('Tom');
  // A documented error for another session: its status there only.
  await root.getByTestId('openapi-session').fill('pw-404');
  await op.getByRole('button', { name: 'Answer GET /pets/{id} with 404' }).click();
  await expect.poll(async () => (await pet('pw-404')).status).toBe(404);
  expect(await pet('pw-tom')).toEqual({ status: 200, name: 'Tom' });
  expect((await pet()).status).toBe(200);
  await app.close();
});
