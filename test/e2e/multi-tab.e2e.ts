/**
 * Two tabs of the playground on one origin: each runs its own engines over the same IndexedDB
 * files. A write in one tab reaches the other tab's file cache through indexedDbFs's
 * BroadcastChannel, so the second tab never serves a stale copy.
 */
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { launchChromium, type Browser } from './helpers/chromium.js';

const url = inject('playgroundUrl');
let browser: Browser;

async function open(): Promise<Page> {
  const page = await browser.context.newPage();
  await page.goto(`${url}/?host=sw`);
  expect(await page.evaluate(() => (window as any).playground.ready)).toBe('ready');
  return page;
}

const titles = (page: Page) =>
  page.evaluate(async () => ((await (await fetch('/api/tasks?_limit=500')).json()) as Array<{ title: string }>).map((t) => t.title));

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

it('a task created in one tab is served by the other tab at once (no stale cache)', async () => {
  const a = await open();
  const b = await open();
  const before = await titles(b); // warms tab B's file cache
  expect(before).not.toContain('From tab A');
  const created = await a.evaluate(async () => {
    const res = await fetch('/api/tasks', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ title: 'From tab A' }) });
    return res.status;
  });
  expect(created).toBe(201);
  await expect.poll(() => titles(b)).toContain('From tab A');
  expect((await titles(b)).length).toBe(before.length + 1);
});
