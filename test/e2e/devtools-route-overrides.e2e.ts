/**
 * The Routes tab's overrides kept outside sessions, in real Chromium against the built CLI: an
 * override kept as shared applies to every client that names no session (checked by plain REST
 * requests from this test process); one kept in a saved scenario changes nothing until the
 * scenario is chosen ("Use this scenario", which the Scenarios tab then shows as current and
 * marks as saved), is undone from its list, and the scenario is deleted from the Scenarios tab.
 * Sessions keep their own answers throughout.
 */
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startCli, stopCliProcesses } from '../helpers/cli-process.js';
import { artifact } from './helpers/artifacts.js';
import { launchChromium, type Browser } from './helpers/chromium.js';

const cli = fileURLToPath(new URL('../../dist/node/cli.js', import.meta.url));
const TODOS = [
  { id: 1, title: 'buy milk' },
  { id: 2, title: 'write tests' },
];
let browser: Browser;
let dir: string;
let url: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mockyard-e2e-overrides-'));
  await mkdir(join(dir, 'mocks'));
  await writeFile(join(dir, 'mocks', 'todos.json'), JSON.stringify(TODOS, null, 2));
  ({ url } = await startCli(cli, ['--port', '0', '--log-level', 'warn'], dir));
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await stopCliProcesses();
  await rm(dir, { recursive: true, force: true });
});

/** A plain client: no session unless named. */
async function status(path: string, session?: string): Promise<number> {
  const res = await fetch(`${url}${path}`, { headers: session ? { 'X-Mockyard-Session': session } : {} });
  await res.arrayBuffer();
  return res.status;
}

async function openTab(page: Page, tab: string): Promise<void> {
  await page.goto(`${url}/_mockyard/#${tab}`);
  await page.locator(`[data-tab=${tab}][aria-selected=true]`).waitFor();
}

async function add(page: Page, path: string, kind: 'status' | 'off', value?: string): Promise<void> {
  await page.getByTestId('override-path').fill(path);
  await page.getByTestId('override-kind').selectOption(kind);
  if (value !== undefined) await page.getByTestId('override-value').fill(value);
  await page.getByRole('button', { name: 'Add override' }).click();
}

it('shared: every client without a session gets it, sessions do not; undone from the list', async () => {
  const page = await browser.context.newPage();
  await openTab(page, 'routes');
  await page.getByTestId('override-target').selectOption('shared');
  await add(page, '/todos/:id', 'status', '500');
  await expect.poll(() => status('/api/todos/2')).toBe(500);
  expect(await status('/api/todos')).toBe(200);
  expect(await status('/api/todos/2', 'erin')).toBe(200);
  await expect.poll(() => page.getByTestId('override-scope').textContent()).toContain('Shared');
  await expect.poll(() => page.getByTestId('override-list').textContent()).toContain('GET /todos/:id → status 500');
  await page.screenshot({ path: artifact('devtools-routes-shared.png') });
  await page.getByRole('button', { name: 'Undo GET /todos/:id → status 500' }).click();
  await expect.poll(() => status('/api/todos/2')).toBe(200);
  await expect.poll(() => page.getByTestId('override-list').textContent()).toContain('No overrides.');
  await page.close();
});

it('a saved scenario: nothing changes until it is chosen; the Scenarios tab shows it as saved and current; undone, then deleted', async () => {
  const page = await browser.context.newPage();
  await openTab(page, 'routes');
  await page.getByTestId('override-target').selectOption('scenario');
  await page.getByTestId('override-session').fill('no-list');
  await add(page, '/todos', 'off');
  await add(page, '/todos/:id', 'status', '503');
  await expect.poll(() => page.getByTestId('override-list').locator('li').count()).toBe(2);
  expect(await status('/api/todos')).toBe(200); // saved, not chosen
  await page.getByRole('button', { name: 'Use this scenario' }).click();
  await expect.poll(() => status('/api/todos')).toBe(404);
  expect(await status('/api/todos/1')).toBe(503);
  expect(await status('/api/todos', 'frank')).toBe(404); // a session follows the current scenario, as with a configured one

  await openTab(page, 'scenarios');
  await expect.poll(() => page.getByTestId('current-scenario').textContent()).toBe('no-list');
  await expect.poll(() => page.getByTestId('saved-scenario').textContent()).toContain('saved: 2 overrides');
  await page.screenshot({ path: artifact('devtools-scenarios-saved.png') });

  await openTab(page, 'routes');
  await page.getByTestId('override-target').selectOption('scenario');
  await page.getByTestId('override-session').fill('no-list');
  await page.getByRole('button', { name: 'Undo GET /todos → off (404)' }).click();
  await expect.poll(() => status('/api/todos')).toBe(200);
  expect(await status('/api/todos/1')).toBe(503);

  await openTab(page, 'scenarios');
  await page.getByRole('button', { name: 'Delete scenario no-list' }).click();
  await expect.poll(() => status('/api/todos/1')).toBe(200);
  await expect.poll(() => page.getByTestId('current-scenario').textContent()).toBe('base (no scenario)');
  expect(await page.getByTestId('saved-scenario').count()).toBe(0);
  await page.close();
});
