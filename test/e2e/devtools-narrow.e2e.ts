/**
 * The devtools page on a narrow screen (420 px wide, a phone or a side panel), in real Chromium:
 * every tab of the tab bar is inside the viewport and can be chosen (the bar wraps, nothing is
 * cut off), and so is the close button of the overlay in browser mode. The node host is the
 * real CLI (`mockyard db.json --tracker`: Requests, Routes, Scenarios, GraphQL, Events).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { startCli, stopCliProcesses } from '../helpers/cli-process.js';
import { artifact } from './helpers/artifacts.js';
import { launchChromium, type Browser } from './helpers/chromium.js';

const cli = fileURLToPath(new URL('../../dist/node/cli.js', import.meta.url));
const WIDTH = 420;
let browser: Browser;
let dir: string;
let url: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mockyard-e2e-narrow-'));
  await writeFile(join(dir, 'db.json'), JSON.stringify({ posts: [{ id: 1, title: 'Lorem', user_id: 1 }], users: [{ id: 1, name: 'Ada' }] }));
  ({ url } = await startCli(cli, ['db.json', '--tracker', '--port', '0', '--log-level', 'warn'], dir));
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await stopCliProcesses();
  await rm(dir, { recursive: true, force: true });
});

/** Every tab (and `extra` selectors) lies inside the viewport, is the element hit at its centre, and selects its tab. */
async function everyTabReachable(page: Page, root: string, tabs: string[], extra: string[] = []) {
  const found = await page.locator(`${root} [role=tab]`).evaluateAll((els) => els.map((e) => e.getAttribute('data-tab')));
  expect(found).toEqual(tabs);
  for (const selector of [...tabs.map((t) => `${root} [data-tab=${t}]`), ...extra.map((e) => `${root} ${e}`)]) {
    const box = await page.locator(selector).boundingBox();
    expect(box, selector).not.toBeNull();
    expect(box!.x, selector).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width, selector).toBeLessThanOrEqual(WIDTH);
    expect(box!.y, selector).toBeGreaterThanOrEqual(0);
    expect(box!.width, selector).toBeGreaterThan(10);
  }
  for (const t of tabs) {
    // A real click at the button's centre (fails when another element covers it or it is off-screen).
    await page.locator(`${root} [data-tab=${t}]`).click({ trial: false });
    await page.locator(`${root} [data-tab=${t}][aria-selected=true]`).waitFor();
  }
  // No horizontal scroll of the page itself: nothing sticks out to the right.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(WIDTH);
}

it('node host: at 420 px every tab of /_mockyard/ is visible and can be chosen', async () => {
  const page = await browser.context.newPage();
  await page.setViewportSize({ width: WIDTH, height: 800 });
  await page.goto(`${url}/_mockyard/`);
  await page.locator('[data-tab=events]').waitFor();
  await page.locator('[data-tab=graphql]').waitFor();
  await everyTabReachable(page, '.devtools', ['requests', 'data', 'routes', 'sessions', 'scenarios', 'graphql', 'events']);
  await page.screenshot({ path: artifact('devtools-420px-node.png') });
  await page.close();
});

it('browser mode: at 420 px the overlay over the playground shows every tab and its close button', async () => {
  const page = await browser.context.newPage();
  await page.setViewportSize({ width: WIDTH, height: 800 });
  await page.goto(`${inject('playgroundUrl')}#_mockyard`);
  const root = '[data-mockyard-devtools]';
  await page.locator(`${root} [data-tab=events]`).waitFor();
  const tabs = await page.locator(`${root} [role=tab]`).evaluateAll((els) => els.map((e) => e.getAttribute('data-tab')!));
  expect(tabs).toEqual(expect.arrayContaining(['requests', 'routes', 'scenarios', 'events']));
  await everyTabReachable(page, root, tabs, ['button.close']);
  await page.screenshot({ path: artifact('devtools-420px-overlay.png') });
  await page.close();
});
