/**
 * The playground in real Chromium, in-page mode: both engines behind the service worker, files
 * and events on IndexedDB. The tests run in order on one page (state carries over, as a user's
 * session would), then check that none of the mocked requests reached the network.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page, Request as PwRequest } from 'playwright-core';
import { readFileSync } from 'node:fs';
import type { Task } from '../../playground/shared/team-tasks.mjs';
import { screenshot } from './helpers/artifacts.js';
import { launchChromium, type Browser } from './helpers/chromium.js';
import { networkCounts, resetNetworkCounts } from './helpers/network.js';
import { gradientPng } from './helpers/png.js';

const url = inject('playgroundUrl');
// The seed is the node host's demo folder, bundled into the page (playground/src/seed.ts).
const seedTasks = JSON.parse(readFileSync(new URL('../../playground/mocks/tasks.json', import.meta.url), 'utf8')) as Task[];
const N = seedTasks.length;
const pages = Math.ceil(N / 8);
const newId = Math.max(...seedTasks.map((t) => t.id)) + 1;
let browser: Browser;
let page: Page;
const pageErrors: string[] = [];

async function ready(p: Page): Promise<void> {
  const state = await p.evaluate(() => (window as unknown as { playground: { ready: Promise<string> } }).playground.ready);
  expect(state).toBe('ready');
}

/** fetch inside the page (so it goes through the worker), returning status, headers and JSON. */
async function pageFetch(path: string, init?: { method?: string; body?: string; headers?: Record<string, string> }) {
  return page.evaluate(async ([p, i]) => {
    const res = await fetch(p, i);
    const text = await res.text();
    return { status: res.status, headers: Object.fromEntries(res.headers), body: text ? JSON.parse(text) : null };
  }, [path, init] as const);
}

const taskTitles = () => page.locator('#task-list .task .title').allTextContents();
const countText = () => page.locator('#tasks-count').textContent();

beforeAll(async () => {
  await resetNetworkCounts(url);
  browser = await launchChromium();
  page = await browser.context.newPage();
  page.on('pageerror', (e) => pageErrors.push(e.message));
  await page.goto(`${url}/?host=sw`);
  await ready(page);
});

afterAll(async () => {
  await browser?.close();
});

describe('playground in the page (service worker + IndexedDB)', () => {
  it('registers the worker, which controls the page', async () => {
    const state = await page.evaluate(async () => ({
      controlled: navigator.serviceWorker.controller !== null,
      script: (await navigator.serviceWorker.getRegistration())?.active?.scriptURL,
    }));
    expect(state).toEqual({ controlled: true, script: `${url}/mockServiceWorker.js` });
    await expect.poll(() => page.locator('#host-status').textContent()).toContain('service worker');
  });

  it('serves the seeded data, stored in IndexedDB', async () => {
    expect(await countText()).toBe(`${N} tasks`);
    expect(await taskTitles()).toEqual(seedTasks.slice(0, 8).map((t) => t.title));
    const stored = await page.evaluate(async () => {
      const names = (await indexedDB.databases()).map((d) => d.name);
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const req = indexedDB.open('mockyard-playground');
        req.onsuccess = () => resolve(req.result);
        req.onerror = () => reject(req.error);
      });
      const entry = await new Promise<{ data: Uint8Array }>((resolve, reject) => {
        const req = db.transaction('entries').objectStore('entries').get('tasks.json');
        req.onsuccess = () => resolve(req.result);
        req.onerror = () => reject(req.error);
      });
      db.close();
      return { names, tasks: JSON.parse(new TextDecoder().decode(entry.data)) as unknown[] };
    });
    expect(stored.names).toContain('mockyard-playground');
    expect(stored.tasks).toEqual(seedTasks);
    // Binary seed files too: the demo logo, byte for byte.
    const logo = readFileSync(new URL('../../playground/mocks/uploads/logo.png', import.meta.url));
    const served = await page.evaluate(async () => Array.from(new Uint8Array(await (await fetch('/api/uploads/logo.png')).arrayBuffer())));
    expect(Buffer.from(served).equals(logo)).toBe(true);
    await screenshot(page, 'playground-seeded.png');
  });

  it('filters and paginates with X-Total-Count', async () => {
    const done = seedTasks.filter((t) => t.status === 'done');
    const res = await pageFetch('/api/tasks?status=done&_limit=5&_skip=5');
    expect(res.status).toBe(200);
    expect(res.headers['x-total-count']).toBe(String(done.length));
    expect(res.body).toEqual(done.slice(5, 10));

    const releases = seedTasks.filter((t) => t.title.toLowerCase().includes('release'));
    const who = releases[0]!.assignee;
    const search = await pageFetch(`/api/tasks?q=RELEASE&assignee=${who}`);
    const expected = releases.filter((t) => t.assignee === who);
    expect(expected.length).toBeGreaterThan(0);
    expect(search.body).toEqual(expected);
    expect(search.headers['x-total-count']).toBe(String(expected.length));

    // The same through the UI: the pager is driven by the header.
    await page.selectOption('#filters select[name=status]', 'done');
    await expect.poll(() => page.locator('#page-info').textContent()).toBe(`1–8 of ${done.length} · page 1 of ${Math.ceil(done.length / 8)}`);
    expect(await taskTitles()).toEqual(done.slice(0, 8).map((t) => t.title));
    await page.click('#next');
    await expect.poll(() => page.locator('#page-info').textContent()).toBe(`9–${Math.min(16, done.length)} of ${done.length} · page 2 of ${Math.ceil(done.length / 8)}`);
    expect(await taskTitles()).toEqual(done.slice(8, 16).map((t) => t.title));
    await screenshot(page, 'playground-filtered.png');
    await page.selectOption('#filters select[name=status]', '');
    await expect.poll(() => page.locator('#page-info').textContent()).toBe(`1–8 of ${N} · page 1 of ${pages}`);
  });

  it('creates, edits (PATCH) and deletes tasks through the UI', async () => {
    await page.fill('#create input[name=title]', 'Ship the e2e suite');
    await page.selectOption('#create select[name=assignee]', 'margaret');
    await page.selectOption('#create select[name=priority]', 'high');
    await page.click('#create button[type=submit]');
    await expect.poll(countText).toBe(`${N + 1} tasks`);

    await page.selectOption('#filters select[name=sort]', 'id:desc');
    await expect.poll(async () => (await taskTitles())[0]).toBe('Ship the e2e suite');
    const row = page.locator('#task-list .task').first();
    expect(await row.getAttribute('data-id')).toBe(String(newId));

    await row.locator('[data-action=edit]').click();
    await page.fill('#edit-form input[name=title]', 'Ship the e2e suite (edited)');
    await page.selectOption('#edit-form select[name=status]', 'doing');
    await page.click('#edit-save');
    await expect.poll(async () => (await taskTitles())[0]).toBe('Ship the e2e suite (edited)');
    const stored = await pageFetch('/api/tasks?q=e2e suite');
    expect(stored.body).toEqual([{ id: newId, title: 'Ship the e2e suite (edited)', status: 'doing', assignee: 'margaret', priority: 'high', due: null, attachment: null }]);

    await page.selectOption('#filters select[name=sort]', 'id:asc');
    await expect.poll(async () => (await taskTitles())[1]).toBe(seedTasks[1]!.title);
    await page.locator('#task-list .task[data-id="2"] [data-action=delete]').click();
    await expect.poll(countText).toBe(`${N} tasks`);
    expect(await taskTitles()).not.toContain(seedTasks[1]!.title);
    const gone = await pageFetch('/api/tasks/2', { method: 'PATCH', body: '{}', headers: { 'content-type': 'application/json' } });
    expect(gone.status).toBe(404);
  });

  it('uploads a file and reads the same bytes back, with a preview', async () => {
    const png = gradientPng();
    await page.selectOption('#filters select[name=sort]', 'id:desc');
    await expect.poll(async () => (await taskTitles())[0]).toBe('Ship the e2e suite (edited)');
    await page.locator('#task-list .task').first().locator('[data-action=edit]').click();
    await page.setInputFiles('#edit-form input[name=file]', { name: 'pixel art.png', mimeType: 'image/png', buffer: png });
    await expect.poll(() => page.locator('#edit-preview img').count()).toBe(1);
    await page.click('#edit-save');
    const thumb = page.locator(`#task-list .task[data-id="${newId}"] img.thumb`);
    await expect.poll(() => thumb.count()).toBe(1);
    await expect.poll(() => thumb.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(16);

    const back = await page.evaluate(async (id) => {
      const res = await fetch(`/api/uploads/task-${id}-pixel_art.png`);
      const bytes = new Uint8Array(await res.arrayBuffer());
      return { type: res.headers.get('content-type'), hex: Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('') };
    }, newId);
    expect(back.type).toMatch(/^image\/png/);
    expect(createHash('sha256').update(Buffer.from(back.hex, 'hex')).digest('hex')).toBe(createHash('sha256').update(png).digest('hex'));
    expect(back.hex.length).toBe(png.length * 2);
    await screenshot(page, 'playground-upload.png');
  });

  it('sends chat messages over the WebSocket handler to the second client', async () => {
    await expect.poll(() => page.locator('.pane header .muted').allTextContents()).toEqual(['online', 'online']);
    await page.fill('[aria-label="Message as Ada"]', 'Hello Grace, the build is green');
    await page.press('[aria-label="Message as Ada"]', 'Enter');
    await expect.poll(() => page.locator('[data-testid=chat-grace] li:not(.notice)').allTextContents()).toEqual(['AdaHello Grace, the build is green']);
    await page.fill('[aria-label="Message as Grace"]', 'Nice!');
    await page.press('[aria-label="Message as Grace"]', 'Enter');
    await expect.poll(() => page.locator('[data-testid=chat-ada] li:not(.notice)').allTextContents()).toEqual(['Hello Grace, the build is green', 'GraceNice!']);
  });

  it('sends gzip, plain and beacon events and reads them back newest first', async () => {
    const ingests: PwRequest[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/_tracker/events') ingests.push(r);
    });
    await page.click('#send-gzip');
    await expect.poll(() => page.locator('#event-list li .via').count()).toBe(1);
    await page.click('#send-plain');
    await expect.poll(() => page.locator('#event-list li .via').count()).toBe(2);
    await page.click('#send-beacon');
    await expect.poll(() => page.locator('#event-list li .via').allTextContents()).toEqual(['beacon', 'plain', 'gzip']);

    const since = new Date(Date.now() - 3600_000).toISOString();
    const until = new Date(Date.now() + 60_000).toISOString();
    const read = await pageFetch(`/_tracker?since=${since}&until=${until}`);
    expect(read.status).toBe(200);
    expect(read.headers['content-encoding']).toBeUndefined(); // decoded by the host for the page
    expect(read.body.total).toBe(3);
    expect(read.body.events.map((e: { via: string }) => e.via)).toEqual(['beacon', 'plain', 'gzip']);
    const ids = read.body.events.map((e: { id: string }) => e.id);
    expect(new Set(ids).size).toBe(3);
    expect(ids.every((id: string) => id.length > 0)).toBe(true);
    const times = read.body.events.map((e: { timestamp: string }) => Date.parse(e.timestamp));
    expect([...times].sort((a, b) => b - a)).toEqual(times);

    // What the page actually sent: gzip with Content-Encoding, plain without, the beacon as a blob.
    const sent = await Promise.all(ingests.map(async (r) => ({ encoding: (await r.allHeaders())['content-encoding'], key: new URL(r.url()).search })));
    expect(sent.map((s) => s.encoding)).toEqual(['gzip', undefined, undefined]);
    await screenshot(page, 'playground-events-chat.png');
  });

  it('keeps every change across a reload (files and events on IndexedDB)', async () => {
    await page.reload();
    await ready(page);
    expect(await countText()).toBe(`${N} tasks`);
    const all = await pageFetch('/api/tasks?_limit=100');
    const titles = all.body.map((t: Task) => t.title);
    expect(titles).toContain('Ship the e2e suite (edited)');
    expect(titles).not.toContain(seedTasks[1]!.title);
    expect(all.body.find((t: Task) => t.id === newId).attachment).toBe(`task-${newId}-pixel_art.png`);
    await expect.poll(() => page.locator('#event-list li .via').allTextContents()).toEqual(['beacon', 'plain', 'gzip']);
  });

  it('restores the seed with the reset button', async () => {
    await page.click('#reset');
    await expect.poll(countText).toBe(`${N} tasks`);
    await expect.poll(async () => (await pageFetch('/api/tasks?_limit=100')).body).toEqual(seedTasks);
    expect((await pageFetch(`/api/uploads/task-${newId}-pixel_art.png`)).status).toBe(404);
    await page.reload();
    await ready(page);
    expect(await taskTitles()).toEqual(seedTasks.slice(0, 8).map((t) => t.title));
  });

  it('answered every mocked request in the page: none reached the network', async () => {
    const counts = await networkCounts(url);
    const leaked = Object.keys(counts).filter((p) => p.startsWith('/api') || p.startsWith('/_tracker'));
    expect(leaked).toEqual([]);
    expect(counts['/mockServiceWorker.js']).toBeGreaterThan(0); // the server did see the page's own files
    expect(pageErrors).toEqual([]);
  });
});
