/**
 * The Data tab in browser mode: the devtools overlay over the playground (service worker), its
 * admin calls answered by the tab's own engines in-process. A cell edited from the keyboard is
 * what the app's next fetch gets; so is a shared route override added in the Routes tab.
 */
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
