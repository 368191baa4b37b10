/**
 * One engine, two hosts: the same playground build, switched to "Node host", talks to the real
 * `mockyard` CLI running playground/mockyard.config.mjs (through a dev-server-style proxy on the
 * same paths). Requests now DO reach the network, and writes land in the CLI's mocks folder.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Task } from '../../playground/shared/team-tasks.mjs';
import { screenshot } from './helpers/artifacts.js';
import { launchChromium, type Browser } from './helpers/chromium.js';
import { networkCounts, resetNetworkCounts } from './helpers/network.js';

const url = inject('proxiedPlaygroundUrl');
const dir = inject('nodeHostDir');
const seedTasks = JSON.parse(readFileSync(new URL('../../playground/mocks/tasks.json', import.meta.url), 'utf8')) as Task[];
let browser: Browser;
let page: Page;

const state = (p: Page) => p.evaluate(() => (window as unknown as { playground: { ready: Promise<string> } }).playground.ready);

beforeAll(async () => {
  await resetNetworkCounts(url);
  browser = await launchChromium();
  page = await browser.context.newPage();
  await page.goto(`${url}/?host=sw`);
  expect(await state(page)).toBe('ready');
});
afterAll(async () => {
  await browser?.close();
});

describe('playground switched to the node host (mockyard CLI)', () => {
  it('switches from the in-page worker to the node host with the header control', async () => {
    await page.click('#host-node');
    await page.waitForURL((u) => !u.search.includes('host='));
    expect(await state(page)).toBe('ready');
    expect(await page.locator('#host-status').textContent()).toMatch(/node host · mockyard \d/);
    expect(await page.locator('#host-node').getAttribute('aria-checked')).toBe('true');
    expect(await page.locator('#tasks-count').textContent()).toBe(`${seedTasks.length} tasks`);
    expect(await page.locator('#task-list .task .title').allTextContents()).toEqual(seedTasks.slice(0, 8).map((t) => t.title));
    const counts = await networkCounts(url);
    expect(counts['/api/tasks']).toBeGreaterThan(0); // served by the CLI this time
  });

  it('creates a task through the UI; the CLI writes it to its mocks folder', async () => {
    await page.fill('#create input[name=title]', 'Created on the node host');
    await page.click('#create button[type=submit]');
    await expect.poll(() => page.locator('#tasks-count').textContent()).toBe(`${seedTasks.length + 1} tasks`);
    const onDisk = JSON.parse(readFileSync(`${dir}mocks/tasks.json`, 'utf8')) as Task[];
    expect(onDisk.at(-1)!.title).toBe('Created on the node host');
  });

  it('chats over the node host WebSocket', async () => {
    await expect.poll(() => page.locator('.pane header .muted').allTextContents()).toEqual(['online', 'online']);
    await page.fill('[aria-label="Message as Ada"]', 'hello from node');
    await page.press('[aria-label="Message as Ada"]', 'Enter');
    await expect.poll(() => page.locator('[data-testid=chat-grace] li:not(.notice)').allTextContents()).toEqual(['Adahello from node']);
  });

  it('sends events to the node collector and reads them back', async () => {
    await page.click('#send-gzip');
    await page.click('#send-plain');
    await expect.poll(() => page.locator('#event-list li .via').allTextContents()).toEqual(['plain', 'gzip']);
    await screenshot(page, 'playground-node-host.png');
    const counts = await networkCounts(url);
    expect(counts['/_tracker/events']).toBe(2);
  });

  it('switches back to the in-page worker', async () => {
    await page.click('#host-sw');
    await page.waitForURL((u) => !u.search.includes('host='));
    expect(await state(page)).toBe('ready');
    expect(await page.locator('#host-status').textContent()).toContain('service worker');
    // The page's own IndexedDB data, untouched by what the node host stored.
    expect(await page.locator('#tasks-count').textContent()).toBe(`${seedTasks.length} tasks`);
  });
});
