/**
 * The devtools page as the editor, in real Chromium against the real CLI (`mockyard` on a mocks
 * folder, json-server preset: REST collections and GraphQL): a user clicks and types in the Data
 * and Routes tabs, and every effect is checked from outside the page — the REST API, GraphQL,
 * the files on disk, another session. Keyboard only where a user would use it (cells, dialogs,
 * the file editor), focus kept after a save, conflicts (another writer, an edit on disk) reported
 * with the draft kept; usable at 420 px; light and dark; no layout shift while saving.
 * Screenshots: test-artifacts/devtools-editor-*.png, and with MOCKYARD_DOCS_SCREENSHOTS=1 the
 * ones docs/devtools.md shows (docs/devtools-data.png, docs/devtools-routes.png).
 */
import { mkdtemp, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCli, stopCliProcesses } from '../helpers/cli-process.js';
import { artifact } from './helpers/artifacts.js';
import { launchChromium, type Browser } from './helpers/chromium.js';

const cli = fileURLToPath(new URL('../../dist/node/cli.js', import.meta.url));
const docs = fileURLToPath(new URL('../../docs/', import.meta.url));
const TODOS = [
  { id: 1, title: 'buy milk', done: false },
  { id: 2, title: 'write tests', done: true },
  { id: 3, title: 'ship it', done: false },
];
let browser: Browser;
let dir: string;
let url: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mockyard-e2e-editor-'));
  await mkdir(join(dir, 'mocks'));
  await writeFile(join(dir, 'mocks', 'todos.json'), JSON.stringify(TODOS, null, 2));
  await writeFile(join(dir, 'mocks', 'config.json'), JSON.stringify({ theme: 'dark', beta: false, limit: 10 }, null, 2));
  await writeFile(join(dir, 'mocks', 'visits.json'), JSON.stringify(Array.from({ length: 100_000 }, (_, i) => ({ id: i + 1, page: `/p/${i % 500}`, ms: (i * 37) % 1000 }))));
  ({ url } = await startCli(cli, ['--tracker', '--port', '0', '--log-level', 'warn'], dir));
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await stopCliProcesses();
  await rm(dir, { recursive: true, force: true });
});

async function rest(path: string, init: RequestInit & { session?: string } = {}) {
  const headers = new Headers(init.headers);
  if (init.session) headers.set('X-Mockyard-Session', init.session);
  if (init.body) headers.set('Content-Type', 'application/json');
  const res = await fetch(`${url}${path}`, { ...init, headers });
  const text = await res.text();
  return { status: res.status, json: text ? (JSON.parse(text) as any) : undefined };
}
async function gql(query: string) {
  return (await rest('/api/graphql', { method: 'POST', body: JSON.stringify({ query }) })).json;
}
const onDisk = async (file: string) => readFile(join(dir, 'mocks', file), 'utf8');

async function shot(page: Page, name: string, docsName?: string) {
  await page.screenshot({ path: artifact(`devtools-editor-${name}.png`) });
  if (docsName && process.env.MOCKYARD_DOCS_SCREENSHOTS === '1') await page.screenshot({ path: join(docs, docsName) });
}

async function openTab(tab: string, width = 1280, scheme: 'light' | 'dark' = 'light'): Promise<Page> {
  const page = await browser.context.newPage();
  await page.setViewportSize({ width, height: 860 });
  await page.emulateMedia({ colorScheme: scheme });
  await page.goto(`${url}/_mockyard/#${tab}`);
  await page.locator(`[data-tab=${tab}][aria-selected=true]`).waitFor();
  if (tab === 'data') await page.locator('[data-testid=data-table] tbody tr').first().waitFor({ timeout: 15_000 });
  return page;
}

/** Sums the layout shifts the page reports from now on (CLS entries not caused by input). */
async function watchShifts(page: Page): Promise<() => Promise<number>> {
  await page.evaluate(() => {
    const w = window as unknown as { __shift: number };
    w.__shift = 0;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries() as unknown as Array<{ value: number; hadRecentInput: boolean }>) if (!e.hadRecentInput) w.__shift += e.value;
    }).observe({ type: 'layout-shift', buffered: false });
  });
  return () => page.evaluate(() => (window as unknown as { __shift: number }).__shift);
}

const cell = (page: Page, id: number | string, field: string) => page.locator(`[data-testid=data-table] tr[data-id="${id}"] [data-field="${field}"]`);

describe('Data tab', () => {
  it('shows a collection as a table, sorts and filters on the server, edits a cell from the keyboard (REST, GraphQL and the file see it)', async () => {
    const page = await openTab('data');
    await expect.poll(() => page.locator('[data-testid=data-table] tbody tr').count()).toBe(3);
    expect(await page.getByTestId('data-scope-label').textContent()).toMatch(/^Shared data/);
    expect(await page.getByTestId('data-range').textContent()).toBe('1–3 of 3');
    // Sort by title, descending on the second click.
    await page.locator('th button', { hasText: 'title' }).click();
    await page.locator('th button', { hasText: 'title' }).click();
    await expect.poll(() => page.locator('[data-testid=data-table] tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-id')))).toEqual(['2', '3', '1']);
    // Filter.
    await page.getByLabel('Filter items').fill('milk');
    await expect.poll(() => page.locator('[data-testid=data-table] tbody tr').count()).toBe(1);
    await page.getByLabel('Filter items').fill('');
    await expect.poll(() => page.locator('[data-testid=data-table] tbody tr').count()).toBe(3);

    // Keyboard: focus the cell, Enter, type, Enter.
    const shifts = await watchShifts(page);
    await cell(page, 1, 'title').focus();
    await page.keyboard.press('Enter');
    const input = page.getByLabel('title of 1');
    await input.fill('buy oat milk');
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await rest('/api/todos/1')).json.title).toBe('buy oat milk');
    // Focus is back on the cell that was edited.
    await expect.poll(() => page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.focusKey)).toMatch(/:title$/);
    expect((await gql('{ Todo(id: 1) { title } }')).data.Todo.title).toBe('buy oat milk');
    await expect.poll(async () => JSON.parse(await onDisk('todos.json'))[0].title).toBe('buy oat milk');
    // Escape cancels.
    await cell(page, 2, 'title').focus();
    await page.keyboard.press('Enter');
    await page.getByLabel('title of 2').fill('never saved');
    await page.keyboard.press('Escape');
    expect((await rest('/api/todos/2')).json.title).toBe('write tests');
    // A boolean cell keeps its type.
    await cell(page, 1, 'done').dblclick();
    await page.getByLabel('done of 1').fill('true');
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await rest('/api/todos/1')).json.done).toBe(true);
    expect(await shifts()).toBeLessThan(0.01);
    await page.close();
  });

  it('adds, duplicates and deletes items, edits one as JSON; a concurrent change is reported and the draft kept', async () => {
    const page = await openTab('data');
    await expect.poll(() => page.locator('[data-testid=data-table] tbody tr').count()).toBeGreaterThan(0);
    // Add through the JSON dialog, saved with Ctrl+Enter.
    await page.getByRole('button', { name: 'Add item' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('JSON').fill('{ "title": "from the page", "done": false }');
    await page.keyboard.press('Control+Enter');
    await expect.poll(() => dialog.count()).toBe(0);
    const all = (await rest('/api/todos')).json as Array<{ id: number; title: string }>;
    const added = all.find((t) => t.title === 'from the page')!;
    expect(added).toBeDefined();
    // Focus went back to the button that opened the dialog.
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Add item');
    // Duplicate and delete.
    await page.getByRole('button', { name: `Duplicate ${added.id}` }).click();
    await expect.poll(async () => ((await rest('/api/todos')).json as unknown[]).filter((t: any) => t.title === 'from the page').length).toBe(2);
    await page.getByRole('button', { name: `Delete ${added.id}` }).click();
    await expect.poll(async () => (await rest(`/api/todos/${added.id}`)).status).toBe(404);

    // Whole-item JSON edit, while another writer changes the item: 412, reported, draft kept.
    await page.getByRole('button', { name: 'Edit 3 as JSON' }).click();
    await dialog.getByLabel('JSON').fill('{ "id": 3, "title": "my draft", "done": true }');
    expect((await rest('/api/todos/3', { method: 'PATCH', body: JSON.stringify({ title: 'changed by someone else' }) })).status).toBe(200);
    await dialog.getByRole('button', { name: /Save/ }).click();
    await expect.poll(() => page.getByTestId('dialog-error').textContent()).toMatch(/Not saved: .*changed since you read it/);
    expect(await dialog.getByLabel('JSON').inputValue()).toContain('my draft');
    expect((await rest('/api/todos/3')).json.title).toBe('changed by someone else');
    await shot(page, 'conflict');
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
    // Invalid JSON never leaves the page.
    await page.getByRole('button', { name: 'Add item' }).click();
    await dialog.getByLabel('JSON').fill('{ "title": ');
    await page.keyboard.press('Control+Enter');
    await expect.poll(() => page.getByTestId('dialog-error').textContent()).toMatch(/^Not JSON/);
    await page.keyboard.press('Escape');
    await page.close();
  });

  it('edits a session\u2019s copy, labelled, that only that session sees; resets it', async () => {
    const page = await openTab('data');
    await page.getByLabel('New session id').fill('alice');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('data-scope-label').textContent()).toMatch(/^Session alice/);
    await page.getByRole('button', { name: 'Add item' }).click();
    await page.getByRole('dialog').getByLabel('JSON').fill('{ "id": 77, "title": "alice only" }');
    await page.keyboard.press('Control+Enter');
    await expect.poll(async () => (await rest('/api/todos/77', { session: 'alice' })).json?.title).toBe('alice only');
    expect((await rest('/api/todos/77')).status).toBe(404);
    expect((await rest('/api/todos/77', { session: 'bob' })).status).toBe(404);
    expect(await onDisk('todos.json')).not.toContain('alice only');
    await shot(page, 'data-session');
    await page.getByRole('button', { name: 'Reset session' }).click();
    await expect.poll(async () => (await rest('/api/todos/77', { session: 'alice' })).status).toBe(404);
    await page.close();
  });

  it('stays usable at 420 px, in dark mode: the table scrolls in its box, the page never scrolls sideways', async () => {
    const page = await openTab('data', 420, 'dark');
    await expect.poll(() => page.locator('[data-testid=data-table] tbody tr').count()).toBeGreaterThan(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(420);
    for (const name of ['Add item', 'Export JSON', 'Reset collection']) {
      const box = await page.getByRole('button', { name }).boundingBox();
      expect(box!.x + box!.width, name).toBeLessThanOrEqual(420);
    }
    const bg = await page.locator('.devtools').evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(bg).toBe('rgb(21, 23, 27)');
    await shot(page, 'data-narrow-dark');
    await page.close();
  });
});

describe('Data tab, more', () => {
  it('edits a singular object as a form (types kept), saved to the file', async () => {
    const page = await openTab('data');
    await page.getByTestId('data-collection').selectOption('object:config');
    const form = page.getByTestId('object-form');
    await form.getByLabel('beta').check();
    await form.getByLabel('limit').fill('20');
    await form.getByLabel('theme').fill('light');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.getByTestId('object-note').textContent()).toBe('Saved config.json.');
    expect(JSON.parse(await onDisk('config.json'))).toEqual({ theme: 'light', beta: true, limit: 20 });
    await expect.poll(async () => (await rest('/api/config')).json).toEqual({ theme: 'light', beta: true, limit: 20 });
    await page.close();
  });

  it('edits a session\u2019s singular object as a form, labelled: only that session sees it, the file is untouched', async () => {
    const shared = JSON.parse(await onDisk('config.json'));
    const page = await openTab('data');
    await page.getByLabel('New session id').fill('pw-object');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('data-scope-label').textContent()).toMatch(/^Session pw-object/);
    await expect.poll(() => page.getByTestId('data-collection').locator('option').allTextContents()).toContain('config (object)');
    await page.getByTestId('data-collection').selectOption('object:config');
    const form = page.getByRole('form', { name: 'config (object, session pw-object)' });
    await expect.poll(() => form.getByLabel('limit').inputValue()).toBe(String(shared.limit));
    await form.getByLabel('limit').fill('77');
    await page.keyboard.press('Enter'); // submits the form
    await expect.poll(() => page.getByTestId('object-note').textContent()).toBe('Saved config.json in session pw-object (the shared file is unchanged).');
    expect((await rest('/api/config', { session: 'pw-object' })).json).toEqual({ ...shared, limit: 77 });
    expect((await rest('/api/config')).json).toEqual(shared);
    expect(JSON.parse(await onDisk('config.json'))).toEqual(shared);
    await page.close();
  });

  it('pages a 100,000-item collection on the server: each page in well under a second', async () => {
    const page = await openTab('data');
    await page.getByTestId('data-collection').selectOption('visits');
    await expect.poll(() => page.getByTestId('data-range').textContent()).toBe('1–50 of 100,000');
    const times: number[] = [];
    for (let n = 1; n <= 3; n++) {
      const t0 = Date.now();
      await page.getByRole('button', { name: 'Next' }).click();
      await expect.poll(() => page.getByTestId('data-range').textContent()).toBe(`${(n * 50 + 1).toLocaleString('en')}–${((n + 1) * 50).toLocaleString('en')} of 100,000`);
      times.push(Date.now() - t0);
    }
    await page.locator('th button', { hasText: 'id' }).click();
    await page.locator('th button', { hasText: 'id' }).click();
    await expect.poll(() => page.locator('[data-testid=data-table] tbody tr').first().getAttribute('data-id')).toBe('100000');
    await page.getByLabel('Filter items').fill('/p/499');
    await expect.poll(() => page.getByTestId('data-range').textContent()).toBe('1–50 of 200');
    expect(Math.max(...times)).toBeLessThan(1500);
    console.log(`devtools Data tab, 100k items: Next page ${times.join(', ')} ms`);
    await page.close();
  });
});

describe('Routes tab', () => {
  it('overrides a route for a session (status, delay, off), listed and undone; another session is untouched', async () => {
    const page = await openTab('routes');
    await page.getByTestId('override-session').fill('carol');
    await page.getByTestId('override-path').fill('/todos');
    await page.getByTestId('override-kind').selectOption('status');
    await page.getByTestId('override-value').fill('503');
    await page.getByRole('button', { name: 'Add override' }).click();
    await expect.poll(async () => (await rest('/api/todos', { session: 'carol' })).status).toBe(503);
    expect((await rest('/api/todos')).status).toBe(200);
    expect((await rest('/api/todos', { session: 'dave' })).status).toBe(200);
    await expect.poll(() => page.getByTestId('override-list').textContent()).toContain('GET /todos → status 503');
    // A delay on the items.
    await page.getByTestId('override-path').fill('/todos/:id');
    await page.getByTestId('override-kind').selectOption('delay');
    await page.getByTestId('override-value').fill('400');
    await page.getByRole('button', { name: 'Add override' }).click();
    await expect.poll(() => page.getByTestId('override-list').locator('li').count()).toBe(2);
    const t0 = Date.now();
    expect((await rest('/api/todos/2', { session: 'carol' })).status).toBe(200);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(380);
    await shot(page, 'routes', 'devtools-routes.png');
    // Undo the status override: the list answers again.
    await page.getByRole('button', { name: 'Undo GET /todos → status 503' }).click();
    await expect.poll(async () => (await rest('/api/todos', { session: 'carol' })).status).toBe(200);
    // Off: a 404.
    await page.getByTestId('override-path').fill('/todos');
    await page.getByTestId('override-kind').selectOption('off');
    await page.getByRole('button', { name: 'Add override' }).click();
    await expect.poll(async () => (await rest('/api/todos', { session: 'carol' })).status).toBe(404);
    await page.close();
  });

  it('creates a static route as a mock file the CLI serves, edits a file with validation; an edit on disk is a conflict', async () => {
    const page = await openTab('routes');
    await page.getByTestId('new-route-path').fill('flags');
    await page.getByTestId('new-route-body').fill('{ "beta": true }');
    await page.getByRole('button', { name: 'Create route' }).click();
    await expect.poll(() => page.getByTestId('new-route-note').textContent()).toMatch(/Created flags\.json/);
    expect(JSON.parse(await onDisk('flags.json'))).toEqual({ beta: true });
    expect((await rest('/api/flags')).json).toEqual({ beta: true });
    // Creating it again never overwrites.
    await page.getByRole('button', { name: 'Create route' }).click();
    await expect.poll(() => page.getByTestId('new-route-note').textContent()).toMatch(/412: .*exists already/);

    // Edit flags.json from the tree (the list reloaded after the create).
    await page.getByRole('button', { name: 'Edit flags.json' }).click();
    const body = page.getByTestId('file-body');
    await expect.poll(() => body.inputValue()).toBe('{\n  "beta": true\n}\n');
    await body.fill('{ "beta": false, ');
    await page.keyboard.press('Control+Enter');
    await expect.poll(() => page.getByTestId('file-note').textContent()).toMatch(/^Not saved, not JSON/);
    await body.fill('{ "beta": false }');
    await page.keyboard.press('Control+Enter');
    await expect.poll(() => page.getByTestId('file-note').textContent()).toBe('Saved flags.json.');
    expect(await onDisk('flags.json')).toBe('{ "beta": false }');
    await expect.poll(async () => (await rest('/api/flags')).json).toEqual({ beta: false });
    // Focus stays in the editor after the save.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('file-body');
    // Someone edits the file on disk; the page's next save is refused and the disk edit kept.
    await writeFile(join(dir, 'mocks', 'flags.json'), '{ "beta": "disk" }');
    await body.fill('{ "beta": "page" }');
    await page.keyboard.press('Control+Enter');
    await expect.poll(() => page.getByTestId('file-note').textContent()).toMatch(/Not saved: flags\.json was changed since you opened it/);
    expect(await onDisk('flags.json')).toBe('{ "beta": "disk" }');
    expect(await body.inputValue()).toBe('{ "beta": "page" }');
    await shot(page, 'file-conflict');
    await page.close();
  });
});

describe('Routes tab: a new route with a status and headers', () => {
  it('is created by keyboard, saved as a recording in the mocks folder, and answered by the CLI', async () => {
    const page = await openTab('routes', 420, 'dark');
    await page.getByTestId('new-route-path').focus();
    await page.keyboard.type('maintenance');
    await page.keyboard.press('Tab'); // Status
    await page.keyboard.press('Control+A');
    await page.keyboard.type('503');
    await page.keyboard.press('Tab'); // Body: JSON
    await page.keyboard.press('Tab'); // Headers
    await page.keyboard.type('Retry-After: 60\nX-Mode: maintenance');
    await page.keyboard.press('Tab'); // Body
    await page.keyboard.press('Control+A');
    await page.keyboard.type('{ "down": true }');
    await page.keyboard.press('Tab'); // Create route
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('new-route-note').textContent()).toBe('Created maintenance@recorded.json: GET /api/maintenance answers 503.');
    expect(JSON.parse(await onDisk('maintenance@recorded.json')).recorded[0].response).toEqual({ status: 503, headers: { 'retry-after': '60', 'x-mode': 'maintenance' }, body: { down: true } });
    const res = await fetch(`${url}/api/maintenance`);
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('60');
    expect(res.headers.get('x-mode')).toBe('maintenance');
    expect(await res.json()).toEqual({ down: true });
    // A header a recording does not answer with is refused, named.
    await page.getByTestId('new-route-path').fill('cookie');
    await page.getByTestId('new-route-headers').fill('Set-Cookie: a=1');
    await page.getByRole('button', { name: 'Create route' }).click();
    await expect.poll(() => page.getByTestId('new-route-note').textContent()).toMatch(/^400: Set-Cookie is not a header/);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await shot(page, 'new-route');
    await page.close();
  });
});

describe('Sessions tab', () => {
  it('lists the sessions, inspects one, resets it and deletes it', async () => {
    expect((await rest('/api/todos', { method: 'POST', session: 'erin', body: JSON.stringify({ id: 900, title: 'erin writes' }) })).status).toBe(201);
    const page = await openTab('sessions');
    const row = page.locator('[data-testid=sessions-table] tr[data-id="erin"]');
    await row.waitFor();
    await row.getByRole('button', { name: 'erin', exact: true }).click();
    const detail = page.getByTestId('session-detail');
    await expect.poll(() => detail.textContent()).toMatch(/1 data changes/);
    await expect.poll(() => detail.textContent()).toContain('POST /api/todos 201');
    await shot(page, 'sessions');
    await page.getByRole('button', { name: 'Reset erin' }).click();
    await expect.poll(() => page.getByTestId('sessions-note').textContent()).toMatch(/Session erin reset/);
    expect((await rest('/api/todos/900', { session: 'erin' })).status).toBe(404);
    await page.getByRole('button', { name: 'Delete erin' }).click();
    await expect.poll(() => row.count()).toBe(0);
    expect((await rest('/_mockyard/api/sessions/erin')).status).toBe(404);
    await page.close();
  });
});

describe('Events tab', () => {
  it('exports the window as JSON Lines (GET events/export)', async () => {
    const now = Date.now();
    const events = [0, 1, 2].map((i) => ({ id: '', type: 'click', timestamp: new Date(now - 1000 * (i + 1)).toISOString(), i }));
    expect((await fetch(`${url}/_tracker/events`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ type: 'ingest', batchId: 'e2e-export', events }) })).status).toBeLessThan(300);
    const page = await openTab('events');
    await page.locator('.events[data-state=ready]').waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('events-export').click()]);
    const text = await readFile((await download.path())!, 'utf8');
    const lines = text.trimEnd().split('\n').map((l) => JSON.parse(l) as { i: number });
    expect(lines.map((e) => e.i)).toEqual([0, 1, 2]);
    await page.close();
  });
});

describe('Events tab: delete a time range', () => {
  it('deletes the window\u2019s events from the collector by keyboard; the events outside it stay (read API)', async () => {
    const now = Date.now();
    const at = (ms: number, n: string) => ({ id: '', type: 'view', timestamp: new Date(now - ms).toISOString(), n });
    const events = [at(2 * 3_600_000, 'two-hours-ago'), at(30 * 60_000, 'half-an-hour-ago'), at(5 * 60_000, 'five-minutes-ago')];
    expect((await fetch(`${url}/_tracker/events`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ type: 'ingest', batchId: 'e2e-delete', events }) })).status).toBeLessThan(300);
    const read = async () => ((await (await fetch(`${url}/_tracker?since=${new Date(now - 3 * 3_600_000).toISOString()}&until=${new Date(Date.now() + 1000).toISOString()}`)).json()) as { events: Array<{ n?: string }> }).events.map((e) => e.n).filter(Boolean);
    expect(await read()).toEqual(['five-minutes-ago', 'half-an-hour-ago', 'two-hours-ago']);
    const page = await openTab('events', 420, 'dark');
    await page.locator('.events[data-state=ready]').waitFor();
    await page.locator('.presets button', { hasText: '1 h' }).click();
    await expect.poll(() => page.getByTestId('events-count').textContent()).toMatch(/^[1-9]\d* events$/);
    const open = page.getByTestId('events-delete');
    await open.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Delete events' });
    await dialog.waitFor();
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('events-delete-confirm');
    await page.keyboard.press('Escape'); // Escape closes, focus back on the button
    await expect.poll(() => dialog.count()).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('events-delete');
    await page.keyboard.press('Enter');
    await dialog.waitFor();
    await shot(page, 'events-delete');
    await page.keyboard.press('Enter'); // "Delete from the collector" has the focus
    await expect.poll(() => page.getByTestId('events-note').textContent()).toMatch(/^Deleted \d+ events/);
    await expect.poll(() => page.getByTestId('events-count').textContent()).toBe('0 events');
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    expect(await read()).toEqual(['two-hours-ago']);
    await page.close();
  });
});

describe('screenshot for the guide', () => {
  it('Data tab with a collection', async () => {
    const page = await openTab('data');
    await expect.poll(() => page.locator('[data-testid=data-table] tbody tr').count()).toBeGreaterThan(0);
    await cell(page, 2, 'title').focus();
    await shot(page, 'data', 'devtools-data.png');
    await page.close();
  });
});
