/**
 * `mockyard/storybook` in a real Storybook: examples/storybook (Storybook 10 + @storybook/react-vite,
 * its own package.json, installed here with `npm ci` when its node_modules is missing) is built
 * with `storybook build`, served statically on 127.0.0.1 and driven in Chromium through the
 * Storybook UI (the manager and its preview iframe), as a user clicks through it. The same
 * folder's app is built with `vite build` to check that none of mockyard reaches it.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { FrameLocator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { artifact } from './helpers/artifacts.js';
import { launchChromium, type Browser } from './helpers/chromium.js';
import { startStaticServer, type StaticServer } from './helpers/static-server.js';

const run = promisify(execFile);
/** A test's budget: several stories rendered one after another on a busy 2-core machine. */
const SLOW = 180_000;
const example = fileURLToPath(new URL('../../examples/storybook/', import.meta.url));
let server: StaticServer;
let browser: Browser;

beforeAll(async () => {
  const env = { ...process.env, STORYBOOK_DISABLE_TELEMETRY: '1', CI: 'true' };
  if (!existsSync(join(example, 'node_modules/.package-lock.json'))) {
    const t = Date.now();
    const { stdout, stderr } = await run('npm', ['ci', '--no-audit', '--no-fund'], { cwd: example, env });
    // As .ci/run asks of the root install: nothing in the example may warn about its engines on this Node.
    expect(stdout + stderr).not.toContain('EBADENGINE');
    console.log(`examples/storybook: npm ci took ${((Date.now() - t) / 1000).toFixed(1)} s`);
  }
  const t = Date.now();
  await run('npm', ['run', 'build-storybook', '--', '--quiet'], { cwd: example, env, maxBuffer: 64 * 1024 * 1024 });
  console.log(`examples/storybook: storybook build took ${((Date.now() - t) / 1000).toFixed(1)} s`);
  server = await startStaticServer(join(example, 'storybook-static'));
  browser = await launchChromium();
}, 600_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const preview = (page: Page): FrameLocator => page.frameLocator('#storybook-preview-iframe');

/** Opens Storybook's UI on a story (a new tab). */
async function openStory(id: string): Promise<Page> {
  const page = await browser.context.newPage();
  page.on('pageerror', (err) => console.error(`[storybook page] ${err.message}`));
  await page.goto(`${server.url}/?path=/story/${id}`);
  return page;
}

/** Goes to another story the way a user does: its link in the sidebar (the same preview page, no reload). */
async function select(page: Page, id: string): Promise<void> {
  await page.locator(`#${id}`).click();
}

const items = (page: Page) => preview(page).getByRole('list', { name: 'Items' }).getByRole('listitem');

/** Waits for what `fn` gives (a story renders in a second or more on a busy machine). */
const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 45_000 });

/** What the preview shows (for a failure's message). */
const shown = (page: Page) => preview(page).locator('body').innerText({ timeout: 2_000 }).catch((err: Error) => `(unreadable: ${err.message})`);

/** Waits until the story shows exactly these items; a failure says what it shows instead. */
async function expectItems(page: Page, titles: string[]): Promise<void> {
  try {
    await poll(() => items(page).allInnerTexts()).toEqual(titles);
  } catch (err) {
    const state = await Promise.resolve().then(() => phase(page)).catch(() => 'unknown');
    throw new Error(`${(err as Error).message}\nthe preview shows: ${JSON.stringify(await shown(page))} (render phase ${state})`, { cause: err });
  }
}

/**
 * The state of the current story's render, read in the preview page: `finished` once its play
 * function ran to its end (a failed expectation stops it at `errored`).
 */
const phase = (page: Page) =>
  page.frame({ url: /iframe\.html/ })!.evaluate(() => (window as unknown as { __STORYBOOK_PREVIEW__?: { currentRender?: { phase?: string } } }).__STORYBOOK_PREVIEW__?.currentRender?.phase);

it('a list story shows the seeded items, the empty scenario none, the 500 fault its error state; the story’s own data; an msw handler', async () => {
  const page = await openStory('itemlist--list');
  await expectItems(page, ['Write the stories', 'Mock the API']);
  await select(page, 'itemlist--empty');
  await preview(page).getByText('No items yet').waitFor();
  await select(page, 'itemlist--server-error');
  await expect(preview(page).getByRole('alert').innerText()).resolves.toBe('Could not load the items (HTTP 500)');
  await select(page, 'itemlist--own-data');
  await expectItems(page, ['Only in this story']);
  await select(page, 'itemlist--from-msw');
  await expectItems(page, ['From an msw handler']);
  await select(page, 'itemlist--list');
  await expectItems(page, ['Write the stories', 'Mock the API']); // the msw handler went with its story
  // None of it reached the network: the worker answered every /api request in the page.
  const counts = (await (await fetch(`${server.url}/__requests`)).json()) as Record<string, number>;
  expect(Object.keys(counts).filter((p) => p.startsWith('/api') || p.startsWith('/_tracker'))).toEqual([]);
  await page.close();
}, SLOW);

it('the interaction test adds an item and asserts the request it sent; going back to the list shows the seed again', async () => {
  const page = await openStory('itemlist--add-item');
  await expectItems(page, ['Write the stories', 'Mock the API', 'Ship it']);
  // The play function's own expectations (the POST in the story's journal, the tracker event) passed.
  await poll(() => phase(page)).toBe('finished');
  await select(page, 'itemlist--list');
  await expectItems(page, ['Write the stories', 'Mock the API']);
  // And the add story again starts from the seed: its play function passes a second time.
  await select(page, 'itemlist--add-item');
  await expectItems(page, ['Write the stories', 'Mock the API', 'Ship it']);
  await poll(() => phase(page)).toBe('finished');
  await page.close();
}, SLOW);

it('two stories open in two tabs at once keep their own data', async () => {
  const [a, b] = await Promise.all([openStory('itemlist--add-item'), openStory('itemlist--list')]);
  await expectItems(a, ['Write the stories', 'Mock the API', 'Ship it']);
  await poll(() => phase(a)).toBe('finished');
  await expectItems(b, ['Write the stories', 'Mock the API']);
  // Tab B renders its story again, after tab A's write: still the seed.
  await select(b, 'itemlist--empty');
  await preview(b).getByText('No items yet').waitFor();
  await select(b, 'itemlist--list');
  await expectItems(b, ['Write the stories', 'Mock the API']);
  // And tab A, back on the list, the seed too (its story's session was dropped).
  await select(a, 'itemlist--list');
  await expectItems(a, ['Write the stories', 'Mock the API']);
  await Promise.all([a.close(), b.close()]);
}, SLOW);

it('the toolbar item opens the devtools overlay over the story, with the requests of that story only', async () => {
  const page = await openStory('itemlist--add-item');
  await poll(() => phase(page)).toBe('finished');
  await select(page, 'itemlist--empty');
  await preview(page).getByText('No items yet').waitFor();
  await page.getByRole('button', { name: /mockyard/i }).click();
  await page.getByText('Devtools open').click();
  const overlay = preview(page).locator('[data-mockyard-devtools="overlay"]');
  await overlay.waitFor();
  // The empty story's one GET (in its session), none of the add story's requests.
  await poll(() => overlay.locator('.requests-rows [role=row]').allTextContents()).toEqual([expect.stringMatching(/GET\s*200\s*\/api\/items/)]);
  await page.screenshot({ path: artifact('storybook-devtools.png') });
  await page.getByRole('button', { name: /mockyard/i }).click();
  await page.getByText('Devtools closed').click();
  await overlay.waitFor({ state: 'detached' });
  await page.close();
}, SLOW);

it('the app’s production build (vite build in the same folder) holds no mockyard code and no worker script', async () => {
  const out = join(example, 'dist');
  await rm(out, { recursive: true, force: true });
  await run('npx', ['vite', 'build', '--logLevel', 'warn'], { cwd: example, env: { ...process.env, CI: 'true' } });
  const files = await readdir(out, { recursive: true });
  expect(files).not.toContain('mockServiceWorker.js');
  const js = (await Promise.all(files.filter((f) => f.endsWith('.js')).map((f) => readFile(join(out, f), 'utf8')))).join('\n');
  expect(js).toContain('Could not load the items'); // the app is there
  for (const marker of ['mockyard', 'x-mockyard-session', 'setupWorker', 'INTEGRITY_CHECKSUM', 'json-server']) expect(js.toLowerCase()).not.toContain(marker.toLowerCase());
  await rm(out, { recursive: true, force: true });
}, SLOW);
