/**
 * The devtools page as the editor, in real Chromium on a node host (`serve()`: json-server preset
 * on a memory filesystem, so REST and GraphQL; `mock.webhooks` on the todos' changes; a
 * collector), for what devtools-editor.e2e.ts (the CLI on a disk folder) does not do:
 *   - a cell edited in the page is a change of the store: a GraphQL subscriber (graphql-ws over a
 *     real WebSocket) and a webhook receiver get it;
 *   - Export JSON downloads the collection, Import JSON replaces it, Reset collection returns it
 *     to its seed (shared) or to the shared data (a session), Reset everything;
 *   - a connection fault for a session, chosen in the Routes tab: that session's client loses
 *     the connection, others do not; undone;
 *   - live updates (the Requests journal, the Events pushes) move no toolbar, card or chart, and a
 *     focused row keeps its entry and its place (no layout shift);
 *   - a db.json's keys as collections, edited (REST and the file see it); a second tab's stale
 *     save refused (412) with its draft kept;
 *   - every control of every tab reached with Tab, each tab chosen with the arrow keys;
 *   - the tab strip as WAI-ARIA's tabs pattern (one Tab stop; Left/Right/Home/End);
 *   - a new route with a text body (a .txt mock file, answered as text/plain).
 * Effects are checked from outside the page: REST, GraphQL, the webhook receiver, another session.
 * With MOCKYARD_DOCS_SCREENSHOTS=1 it writes docs/devtools.png (the Events tab).
 */
import { createServer, type Server } from 'node:http';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { createClient, type Client } from 'graphql-ws';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { serve, type RunningServer } from '../../src/node/serve.js';
import { memoryFs } from '../../src/vfs/memory.js';
import { artifact } from './helpers/artifacts.js';
import { launchChromium, type Browser } from './helpers/chromium.js';

const docs = fileURLToPath(new URL('../../docs/', import.meta.url));
const TODOS = [
  { id: 1, title: 'buy milk', done: false },
  { id: 2, title: 'write tests', done: true },
];
let browser: Browser;
let server: RunningServer;
let receiver: Server;
const hooks: Array<{ url: string; body: any }> = [];

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let text = '';
    req.on('data', (c) => (text += c));
    req.on('end', () => {
      hooks.push({ url: req.url!, body: JSON.parse(text || 'null') });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const hookUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}`;
  server = await serve({
    port: 0,
    host: '127.0.0.1',
    logLevel: 'silent',
    mock: {
      endpointPrefix: '/api',
      preset: 'json-server',
      fs: memoryFs({ 'todos.json': TODOS }),
      webhooks: [{ on: 'todos.updated', url: `${hookUrl}/updated`, retry: false }],
    },
    tracker: { appId: 'e2e', logLevel: 'silent', storage: { fs: memoryFs() } },
  });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  await new Promise((resolve) => receiver?.close(resolve));
});

async function rest(path: string, init: RequestInit & { session?: string } = {}) {
  const headers = new Headers(init.headers);
  if (init.session) headers.set('X-Mockyard-Session', init.session);
  if (init.body) headers.set('Content-Type', 'application/json');
  const res = await fetch(`${server.url}${path}`, { ...init, headers });
  const text = await res.text();
  return { status: res.status, json: text ? (JSON.parse(text) as any) : undefined };
}
const titles = async (session?: string) => ((await rest('/api/todos', { session })).json as Array<{ title: string }>).map((t) => t.title);

async function openTab(tab: string): Promise<Page> {
  const page = await browser.context.newPage();
  await page.goto(`${server.url}/_mockyard/#${tab}`);
  await page.locator(`[data-tab=${tab}][aria-selected=true]`).waitFor();
  if (tab === 'data') await page.locator('[data-testid=data-table] tbody tr').first().waitFor({ timeout: 15_000 });
  return page;
}

/**
 * Sums the layout shifts the page reports from now on (CLS entries not caused by input); with
 * `outsideLists`, only those of elements outside the virtualised lists (toolbars, cards, chart).
 */
async function watchShifts(page: Page, outsideLists = false): Promise<() => Promise<number>> {
  await page.evaluate((outside) => {
    const w = window as unknown as { __shift: number; __shifts?: PerformanceObserver };
    w.__shifts?.disconnect(); // one watch at a time: an earlier one never adds to this one's sum
    w.__shift = 0;
    w.__shifts = new PerformanceObserver((list) => {
      for (const e of list.getEntries() as unknown as Array<{ value: number; hadRecentInput: boolean; sources: Array<{ node: Node | null }> }>) {
        if (e.hadRecentInput) continue;
        if (outside && e.sources.every((x) => (x.node as Element | null)?.closest?.('.vrows'))) continue;
        w.__shift += e.value;
      }
    });
    w.__shifts.observe({ type: 'layout-shift', buffered: false });
  }, outsideLists);
  return () => page.evaluate(() => (window as unknown as { __shift: number }).__shift);
}

describe('Data tab: the store\u2019s change events', () => {
  it('a cell edited from the keyboard reaches a GraphQL subscriber and a webhook receiver', async () => {
    const client: Client = createClient({ url: `${server.url.replace('http', 'ws')}/api/graphql`, webSocketImpl: WebSocket });
    try {
      const updated = new Promise<{ id: string; title: string }>((resolve, reject) =>
        client.subscribe({ query: 'subscription { todoUpdated { id title } }' }, { next: ({ data }) => resolve((data as any).todoUpdated), error: reject, complete: () => {} }),
      );
      // A query on the same socket is answered after the subscription is set up.
      await new Promise((resolve, reject) => client.subscribe({ query: '{ _allTodosMeta { count } }' }, { next: () => {}, error: reject, complete: () => resolve(undefined) }));
      const page = await openTab('data');
      await page.locator('[data-testid=data-table] tr[data-id="2"] [data-field="title"]').focus();
      await page.keyboard.press('Enter');
      await page.getByLabel('title of 2').fill('tests written');
      await page.keyboard.press('Enter');
      expect(await updated).toEqual({ id: '2', title: 'tests written' });
      await expect.poll(() => hooks.filter((h) => h.url === '/updated').map((h) => h.body?.title)).toEqual(['tests written']);
      expect((await rest('/api/todos/2')).json.title).toBe('tests written');
      await page.close();
    } finally {
      await client.dispose();
    }
  });
});

describe('Data tab: export, import, reset', () => {
  it('exports the collection, imports a replacement (REST and GraphQL read it), resets a session\u2019s copy, the collection and everything', async () => {
    const page = await openTab('data');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export JSON' }).click()]);
    expect(JSON.parse(await readFile((await download.path())!, 'utf8'))).toEqual((await rest('/api/todos')).json);

    await page.getByRole('button', { name: 'Import JSON' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('JSON').fill('[{ "id": 10, "title": "imported", "done": false }, { "id": 11, "title": "also imported", "done": true }]');
    await page.keyboard.press('Control+Enter');
    await expect.poll(() => dialog.count()).toBe(0);
    expect(await titles()).toEqual(['imported', 'also imported']);
    expect((await rest('/api/graphql', { method: 'POST', body: JSON.stringify({ query: '{ allTodos { id title } }' }) })).json.data.allTodos).toEqual([
      { id: '10', title: 'imported' },
      { id: '11', title: 'also imported' },
    ]);
    await expect.poll(() => page.getByTestId('data-range').textContent()).toBe('1–2 of 2');

    // A session's copy, changed, then reset to the shared data by Reset collection.
    await page.getByLabel('New session id').fill('zed');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('data-scope-label').textContent()).toMatch(/^Session zed/);
    await page.getByRole('button', { name: 'Delete 10' }).click();
    await expect.poll(() => titles('zed')).toEqual(['also imported']);
    await page.getByRole('button', { name: 'Reset collection' }).click();
    await expect.poll(() => titles('zed')).toEqual(['imported', 'also imported']);

    // The shared data: Reset collection returns the seed.
    await page.getByTestId('data-scope').selectOption('');
    await expect.poll(() => page.getByTestId('data-scope-label').textContent()).toMatch(/^Shared data/);
    await page.getByRole('button', { name: 'Reset collection' }).click();
    await expect.poll(() => titles()).toEqual(['buy milk', 'write tests']);
    // Reset everything: a REST write undone.
    expect((await rest('/api/todos/1', { method: 'PATCH', body: JSON.stringify({ title: 'changed by REST' }) })).status).toBe(200);
    await page.getByRole('button', { name: 'Reset everything' }).click();
    await expect.poll(() => page.getByTestId('data-note').textContent()).toBe('Everything reset to the seed.');
    expect(await titles()).toEqual(['buy milk', 'write tests']);
    await page.close();
  });
});

describe('Routes tab: a connection fault', () => {
  it('a session\u2019s connection-reset chosen in the page: that session\u2019s client loses the connection, others are answered; undone', async () => {
    const page = await openTab('routes');
    await page.getByTestId('override-session').fill('flaky');
    await page.getByTestId('override-path').fill('/todos');
    await page.getByTestId('override-kind').selectOption('fault');
    await page.getByLabel('Fault', { exact: true }).selectOption('connection-reset');
    await page.getByRole('button', { name: 'Add override' }).click();
    await expect.poll(() => page.getByTestId('override-list').textContent()).toContain('GET /todos → fault connection-reset');
    await expect(rest('/api/todos', { session: 'flaky' })).rejects.toThrow();
    expect((await rest('/api/todos')).status).toBe(200);
    expect((await rest('/api/todos', { session: 'steady' })).status).toBe(200);
    await page.getByRole('button', { name: 'Undo GET /todos → fault connection-reset' }).click();
    await expect.poll(async () => (await rest('/api/todos', { session: 'flaky' })).status).toBe(200);
    await page.close();
  });
});

describe('live updates', () => {
  const count = async (page: Page) => Number((await page.getByTestId('requests-count').textContent())!.split(' ')[0]);
  async function requests(n: number): Promise<void> {
    for (let i = 0; i < n; i++) {
      await rest(`/api/todos/${(i % 2) + 1}`);
      if (i % 10 === 9) await new Promise((r) => setTimeout(r, 50));
    }
  }

  it('Requests tab: a focused row keeps its entry and its place while 60 requests arrive (no layout shift); at the top the newest come in above, the toolbar never moves', async () => {
    const page = await openTab('requests');
    await page.locator('.live-dot.live').waitFor();
    await requests(30);
    await expect.poll(() => count(page)).toBeGreaterThanOrEqual(30);
    const row = page.locator('.requests-rows [role=row]').nth(3);
    await row.focus();
    const id = await row.getAttribute('data-id');
    const y = (await row.boundingBox())!.y;
    const shifts = await watchShifts(page);
    const before = await count(page);
    await requests(60);
    await expect.poll(() => count(page)).toBeGreaterThanOrEqual(before + 60);
    expect(await shifts()).toBeLessThan(0.01);
    const focused = page.locator('.requests-rows [role=row]:focus');
    expect(await focused.getAttribute('data-id')).toBe(id);
    expect(Math.abs((await focused.boundingBox())!.y - y)).toBeLessThan(1);
    await page.keyboard.press('Enter'); // the drawer opens on that same entry
    expect(await page.locator('.requests-rows [role=row].sel').getAttribute('data-id')).toBe(id);
    await page.locator('aside.drawer').getByLabel('Close').click();

    // A burst: 60 arriving within one frame (as when the page is starved under load) keep the focused row too,
    // from the top of the list (a row near the top focused, the list not scrolled).
    await page.locator('.requests-rows').evaluate((el) => ((el as HTMLElement).scrollTop = 0));
    // Drawn from the top again: the first row drawn is the newest entry.
    await expect
      .poll(() => page.locator('.requests-rows').evaluate((el) => Number(el.querySelector('[role=row]')?.getAttribute('data-id')) === Math.max(...[...el.querySelectorAll('[role=row]')].map((r) => Number(r.getAttribute('data-id'))))))
      .toBe(true);
    const burstRow = page.locator('.requests-rows [role=row]').nth(3);
    await burstRow.focus();
    const burstId = await burstRow.getAttribute('data-id');
    const y2 = (await burstRow.boundingBox())!.y;
    const burstShifts = await watchShifts(page);
    const beforeBurst = await count(page);
    // The page's main thread is kept busy while the 60 requests are answered: their entries are drawn in one frame.
    await page.evaluate(() => void setTimeout(() => { const t = performance.now(); while (performance.now() - t < 1000); }, 0));
    await Promise.all(Array.from({ length: 60 }, (_, i) => rest(`/api/todos/${(i % 2) + 1}`)));
    await expect.poll(() => count(page)).toBeGreaterThanOrEqual(beforeBurst + 60);
    expect(await burstShifts()).toBeLessThan(0.01);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-id'))).toBe(burstId);
    expect(Math.abs((await page.locator('.requests-rows [role=row]:focus').boundingBox())!.y - y2)).toBeLessThan(1);

    // Back at the top, nothing focused: new entries come in at the top; toolbars never move.
    await page.locator('.requests-rows').evaluate((el) => ((el as HTMLElement).scrollTop = 0));
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    const bars = async () => Promise.all(['.requests .toolbar', '.requests .grid-head'].map(async (sel) => (await page.locator(sel).boundingBox())!.y));
    const barsBefore = await bars();
    const outside = await watchShifts(page, true);
    const newest = await count(page);
    await requests(10);
    await expect.poll(() => count(page)).toBeGreaterThanOrEqual(newest + 10);
    expect(await outside()).toBeLessThan(0.01);
    expect(await bars()).toEqual(barsBefore);
    const top = Number(await page.locator('.requests-rows [role=row]').first().getAttribute('data-id'));
    expect(top).toBe(Math.max(...(await page.locator('.requests-rows [role=row]').evaluateAll((rows) => rows.map((r) => Number(r.getAttribute('data-id')))))));
    await page.close();
  });

  it('Events tab: pushes move neither the cards, the chart nor the toolbars, and a focused event row keeps its place', async () => {
    const page = await openTab('events');
    await page.locator('.events[data-state=ready]').waitFor();
    await page.locator('.presets button', { hasText: '1 h' }).click();
    await page.locator('.events .live-dot.live').waitFor();
    // Each push newer than the one before (a late event, older than rows in view, is sorted in
    // among them: rows below it then move, as the list is ordered by time).
    const t0 = Date.now() - 10_000;
    const push = async (b: number) => {
      const events = Array.from({ length: 20 }, (_, i) => ({ id: '', type: i % 7 ? 'page.view' : 'error', level: i % 7 ? 'info' : 'error', timestamp: new Date(t0 + b * 1000 + i * 10).toISOString(), route: `/r${i % 4}`, b }));
      await fetch(`${server.url}/_tracker/events`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ type: 'ingest', events }) });
    };
    const total = async () => Number((await page.getByTestId('events-count').textContent())!.split(' ')[0]!.replace(/,/g, ''));
    const start = await total();
    // A list longer than its box (a row can keep its place only when the list goes on below it).
    const older = Array.from({ length: 200 }, (_, i) => ({ id: '', type: 'page.view', level: 'info', timestamp: new Date(Date.now() - 60_000 - i * 100).toISOString(), route: '/older' }));
    await fetch(`${server.url}/_tracker/events`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ type: 'ingest', events: older }) });
    await push(0);
    await expect.poll(total).toBe(start + 220);
    const row = page.locator('.events-rows [role=row]').nth(2);
    await row.focus();
    const id = await row.getAttribute('data-id');
    const y = (await row.boundingBox())!.y;
    const boxes = async () => Promise.all(['.events .kpis', '.events .events-top', '.events .filters'].map(async (sel) => (await page.locator(sel).boundingBox())!.y));
    const boxesBefore = await boxes();
    const shifts = await watchShifts(page);
    for (let b = 1; b <= 5; b++) {
      await push(b);
      await expect.poll(total).toBe(start + 200 + 20 * (b + 1));
    }
    expect(await shifts()).toBeLessThan(0.01);
    expect(await boxes()).toEqual(boxesBefore);
    const focused = page.locator('.events-rows [role=row]:focus');
    expect(await focused.getAttribute('data-id')).toBe(id);
    expect(Math.abs((await focused.boundingBox())!.y - y)).toBeLessThan(1);
    await page.close();
  });
});

describe('screenshot for the guide', () => {
  it('the Events tab with an hour of events (docs/devtools.png)', async () => {
    const users = Array.from({ length: 37 }, (_, i) => `user-${i}`);
    const routes = ['/login', '/reports', '/settings', '/tasks', '/tasks/42'];
    const types = ['page.view', 'form.submit', 'ui.click', 'api.call'];
    const errors = ['ChunkLoadError: reports.js failed', 'Failed to fetch /api/reports', 'TypeError: tasks is undefined'];
    // The window cleared first (the earlier tests' events), through the admin API.
    expect((await fetch(`${server.url}/_mockyard/api/events?from=2000-01-01T00:00:00Z&to=${new Date(Date.now() + 3_600_000).toISOString()}`, { method: 'DELETE' })).status).toBe(200);
    const now = Date.now();
    // Busier and quieter minutes (a steady pseudo-random spread), newest first.
    const offsets = Array.from({ length: 2400 }, (_, i) => Math.floor(3_500_000 * (i / 2400 + 0.012 * Math.sin(i * 0.37) * Math.sin(i / 97))));
    const events = Array.from({ length: 2400 }, (_, i) => {
      const error = i % 25 === 0;
      return {
        id: '',
        type: error ? 'error' : types[i % 4],
        level: error ? 'error' : 'info',
        timestamp: new Date(now - Math.max(1000, offsets[i]!)).toISOString(),
        userId: users[(i * 7) % users.length],
        sessionId: `s${i % 90}`,
        route: routes[i % routes.length],
        ...(error ? { message: errors[i % 3] } : {}),
      };
    });
    for (let i = 0; i < events.length; i += 500) {
      const res = await fetch(`${server.url}/_tracker/events`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ type: 'ingest', events: events.slice(i, i + 500) }) });
      expect(res.status).toBeLessThan(300);
    }
    const page = await browser.context.newPage();
    await page.setViewportSize({ width: 1180, height: 660 });
    await page.goto(`${server.url}/_mockyard/#events`);
    await page.locator('.events[data-state=ready]').waitFor();
    await page.locator('.presets button', { hasText: '1 h' }).click();
    await expect.poll(() => page.getByTestId('kpi-events').textContent()).toMatch(/^2,400/);
    await page.locator('.events[aria-busy=false]').waitFor();
    await page.screenshot({ path: artifact('devtools-events.png') });
    if (process.env.MOCKYARD_DOCS_SCREENSHOTS === '1') await page.screenshot({ path: join(docs, 'devtools.png') });
    await page.close();
  });
});

describe('Data tab: a db.json, and two tabs', () => {
  it('lists a db.json\u2019s keys as collections and edits one (REST and the db.json read it); a save from a stale second tab is refused, its draft kept; its object saved, named as db.json\u2019s key', async () => {
    const fs = memoryFs({ 'db.json': { posts: [{ id: 1, title: 'hello' }, { id: 2, title: 'world' }], comments: [{ id: 1, postId: 1, body: 'nice' }], profile: { name: 'typicode' } } });
    const db = await serve({ port: 0, host: '127.0.0.1', logLevel: 'silent', mock: { endpointPrefix: '/api', preset: 'json-server', fs, db: 'db.json' } });
    try {
      const open = async () => {
        const page = await browser.context.newPage();
        await page.goto(`${db.url}/_mockyard/#data`);
        await page.locator('[data-testid=data-table] tbody tr').first().waitFor({ timeout: 15_000 });
        return page;
      };
      const a = await open();
      const names = await a.getByTestId('data-collection').locator('option').evaluateAll((o) => o.map((x) => (x as HTMLOptionElement).value));
      expect(names).toEqual(expect.arrayContaining(['posts', 'comments']));
      await a.getByTestId('data-collection').selectOption('posts');
      await expect.poll(() => a.getByTestId('data-range').textContent()).toBe('1–2 of 2');
      const b = await open();
      await b.getByTestId('data-collection').selectOption('posts');
      await expect.poll(() => b.getByTestId('data-range').textContent()).toBe('1–2 of 2');

      // Tab A edits post 1 from the keyboard: REST and the db.json file have it.
      await a.locator('[data-testid=data-table] tr[data-id="1"] [data-field="title"]').focus();
      await a.keyboard.press('Enter');
      await a.getByLabel('title of 1').fill('hello from tab A');
      await a.keyboard.press('Enter');
      await expect.poll(async () => ((await (await fetch(`${db.url}/api/posts/1`)).json()) as { title: string }).title).toBe('hello from tab A');
      await expect.poll(async () => (JSON.parse(new TextDecoder().decode(await fs.read('db.json'))) as { posts: Array<{ title: string }> }).posts[0]!.title).toBe('hello from tab A');

      // Tab B still shows the old post 1: its whole-item save is refused (412), its draft kept.
      await b.getByRole('button', { name: 'Edit 1 as JSON' }).click();
      const dialog = b.getByRole('dialog');
      await dialog.getByLabel('JSON').fill('{ "id": 1, "title": "tab B draft" }');
      await b.keyboard.press('Control+Enter');
      await expect.poll(() => b.getByTestId('dialog-error').textContent()).toMatch(/Not saved: .*changed since you read it/);
      expect(await dialog.getByLabel('JSON').inputValue()).toContain('tab B draft');
      expect(((await (await fetch(`${db.url}/api/posts/1`)).json()) as { title: string }).title).toBe('hello from tab A');

      // db.json's `profile` object as a form: the note names what was saved truthfully (a key of
      // db.json: there is no profile.json), and db.json and REST hold it.
      await a.getByTestId('data-collection').selectOption('object:profile');
      const form = a.getByTestId('object-form');
      await form.getByLabel('name').fill('mockyard');
      await form.getByRole('button', { name: 'Save' }).click();
      await expect.poll(() => a.getByTestId('object-note').textContent()).toBe('Saved profile in db.json.');
      expect((JSON.parse(new TextDecoder().decode(await fs.read('db.json'))) as { profile: unknown }).profile).toEqual({ name: 'mockyard' });
      expect(await (await fetch(`${db.url}/api/profile`)).json()).toEqual({ name: 'mockyard' });
      await a.close();
      await b.close();
    } finally {
      await db.close();
    }
  });
});

describe('keyboard', () => {
  it('every control of every tab is reached with Tab from the tab strip (lists and tables are tabbed through)', async () => {
    const page = await openTab('requests');
    await rest('/api/todos'); // a row in the journal
    const tabs = await page.locator('[role=tab]').evaluateAll((t) => t.map((x) => x.getAttribute('data-tab')!));
    expect(tabs.length).toBeGreaterThanOrEqual(6);
    const missed: Record<string, string[]> = {};
    for (const [n, tab] of tabs.entries()) {
      // Chosen from the keyboard: the strip is one Tab stop (the chosen tab); Right moves to the next tab and chooses it.
      await page.locator(`[data-tab=${tabs[Math.max(0, n - 1)]}]`).focus();
      if (n > 0) await page.keyboard.press('ArrowRight');
      await page.locator(`[data-tab=${tab}][aria-selected=true]`).waitFor();
      expect(await page.evaluate(() => document.activeElement?.getAttribute('data-tab'))).toBe(tab);
      await page.waitForTimeout(300); // the tab's first load
      const wanted = await page.evaluate(() => {
        const section = document.querySelector('main > section:not([hidden])')!;
        const controls = [...section.querySelectorAll<HTMLElement>('button, input, select, textarea, summary, a[href]')].filter(
          (el) => el.getClientRects().length > 0 && !(el as HTMLButtonElement).disabled && !el.closest('.vrows, table, details:not([open]) > :not(summary)'),
        );
        controls.forEach((el, i) => (el.dataset.kb = String(i)));
        return controls.map((el) => `${el.tagName.toLowerCase()} ${el.getAttribute('aria-label') ?? el.textContent?.trim().slice(0, 30) ?? ''}`);
      });
      expect(wanted.length, tab).toBeGreaterThan(0);
      const seen = new Set<string>();
      await page.locator(`[data-tab=${tab}]`).focus();
      for (let i = 0; i < 400 && seen.size < wanted.length; i++) {
        await page.keyboard.press('Tab');
        const kb = await page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.kb);
        if (kb !== undefined) seen.add(kb);
      }
      const left = wanted.filter((_, i) => !seen.has(String(i)));
      if (left.length) missed[tab] = left;
      await page.evaluate(() => document.querySelectorAll<HTMLElement>('[data-kb]').forEach((el) => delete el.dataset.kb));
    }
    expect(missed).toEqual({});
    await page.close();
  });
});

describe('tab strip', () => {
  it('follows the WAI-ARIA tabs pattern: one Tab stop, Left/Right/Home/End move and choose, each tab controls its panel', async () => {
    const page = await openTab('requests');
    const tabs = await page.locator('[role=tablist] [role=tab]').evaluateAll((t) => t.map((x) => x.getAttribute('data-tab')!));
    expect(tabs.length).toBeGreaterThanOrEqual(6);
    const state = () =>
      page.evaluate(() => ({
        focused: document.activeElement?.getAttribute('data-tab') ?? null,
        selected: [...document.querySelectorAll('[role=tab][aria-selected=true]')].map((t) => t.getAttribute('data-tab')),
        tabbable: [...document.querySelectorAll('[role=tab]')].filter((t) => (t as HTMLElement).tabIndex === 0).map((t) => t.getAttribute('data-tab')),
        panel: document.querySelector('main > [role=tabpanel]:not([hidden])')?.id ?? null,
        hash: location.hash,
      }));
    const at = (tab: string) => ({ focused: tab, selected: [tab], tabbable: [tab], panel: `panel-${tab}`, hash: `#${tab}` });
    // The first Tab of the page lands on the chosen tab.
    await page.keyboard.press('Tab');
    expect(await state()).toEqual(at('requests'));
    await page.keyboard.press('ArrowRight');
    expect(await state()).toEqual(at(tabs[1]!));
    await page.keyboard.press('ArrowLeft');
    expect(await state()).toEqual(at('requests'));
    await page.keyboard.press('ArrowLeft'); // wraps to the last
    expect(await state()).toEqual(at(tabs.at(-1)!));
    await page.keyboard.press('ArrowRight'); // and back to the first
    expect(await state()).toEqual(at('requests'));
    await page.keyboard.press('End');
    expect(await state()).toEqual(at(tabs.at(-1)!));
    await page.keyboard.press('Home');
    expect(await state()).toEqual(at('requests'));
    // Tab leaves the strip for the panel (no other tab is a Tab stop).
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.closest('[role=tabpanel]')?.id)).toBe(`panel-${tabs[1]}`);
    // Each tab names the panel it controls, and the panel is labelled by its tab.
    for (const tab of tabs) {
      expect(await page.locator(`[data-tab=${tab}]`).getAttribute('aria-controls')).toBe(`panel-${tab}`);
      expect(await page.locator(`#panel-${tab}`).getAttribute('aria-labelledby')).toBe(`tab-${tab}`);
      expect(await page.locator(`#panel-${tab}`).getAttribute('role')).toBe('tabpanel');
    }
    await page.close();
  });
});

describe('Routes tab: a text route', () => {
  it('a new route with a text body is a .txt mock file, answered as text', async () => {
    const page = await openTab('routes');
    await page.getByTestId('new-route-path').fill('motd');
    await page.locator('label', { hasText: 'Body' }).locator('select').selectOption('txt');
    await page.getByTestId('new-route-body').fill('Welcome back.');
    await page.getByRole('button', { name: 'Create route' }).click();
    await expect.poll(() => page.getByTestId('new-route-note').textContent()).toMatch(/^Created motd\.txt/);
    const res = await fetch(`${server.url}/api/motd`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await res.text()).toBe('Welcome back.');
    expect(await (await fetch(`${server.url}/_mockyard/api/files/motd.txt`)).text()).toBe('Welcome back.');
    await page.close();
  });
});
