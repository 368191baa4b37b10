/**
 * Route overrides on routes other than collections, in real Chromium against the built CLI: a
 * handler (`GET /hello`, from mockyard.config.mjs) and a recorded answer (`flags@recorded.json`
 * in the mocks folder). The Routes tab offers both paths; an override chosen there (a status for a
 * session, "off" for everyone) is what a plain REST client gets, the others keep the route's own
 * answer, and the undo brings it back.
 */
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startCli, stopCliProcesses } from '../helpers/cli-process.js';
import { launchChromium, type Browser } from './helpers/chromium.js';

const cli = fileURLToPath(new URL('../../dist/node/cli.js', import.meta.url));
let browser: Browser;
let dir: string;
let url: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mockyard-e2e-override-routes-'));
  await mkdir(join(dir, 'mocks'));
  await writeFile(join(dir, 'mocks', 'flags@recorded.json'), JSON.stringify({ recorded: [{ request: { method: 'GET' }, response: { status: 200, headers: { 'content-type': 'application/json' }, body: { beta: true } } }] }));
  await writeFile(
    join(dir, 'mockyard.config.mjs'),
    `export default { mock: { endpointPrefix: '/api', fsDir: './mocks', handlers: [{ pattern: '/hello', method: 'GET', handle: (_req, res) => res.json({ hello: 'world' }) }] } };\n`,
  );
  ({ url } = await startCli(cli, ['--port', '0', '--log-level', 'warn'], dir));
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await stopCliProcesses();
  await rm(dir, { recursive: true, force: true });
});

async function get(path: string, session?: string): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${url}${path}`, { headers: session ? { 'X-Mockyard-Session': session } : {} });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: res.status, body };
}

async function openRoutes(): Promise<Page> {
  const page = await browser.context.newPage();
  await page.goto(`${url}/_mockyard/#routes`);
  await page.locator('[data-tab=routes][aria-selected=true]').waitFor();
  return page;
}

it('a handler route and a recorded route are offered and overridden from the Routes tab; REST sees it; undone', async () => {
  expect(await get('/api/hello')).toEqual({ status: 200, body: { hello: 'world' } });
  expect(await get('/api/flags')).toEqual({ status: 200, body: { beta: true } });
  const page = await openRoutes();
  // Both are offered as paths to override.
  await expect.poll(() => page.locator('#mockyard-paths option').evaluateAll((o) => o.map((x) => (x as HTMLOptionElement).value))).toEqual(expect.arrayContaining(['/hello', '/flags']));

  // The handler: a status for one session.
  await page.getByTestId('override-target').selectOption('session');
  await page.getByTestId('override-session').fill('pw-h');
  await page.getByTestId('override-path').fill('/hello');
  await page.getByTestId('override-kind').selectOption('status');
  await page.getByTestId('override-value').fill('503');
  await page.getByRole('button', { name: 'Add override' }).click();
  await expect.poll(async () => (await get('/api/hello', 'pw-h')).status).toBe(503);
  expect(await get('/api/hello')).toEqual({ status: 200, body: { hello: 'world' } });
  expect((await get('/api/flags', 'pw-h')).status).toBe(200);

  // The recorded answer: off for everyone without a session.
  await page.getByTestId('override-target').selectOption('shared');
  await page.getByTestId('override-path').fill('/flags');
  await page.getByTestId('override-kind').selectOption('off');
  await page.getByRole('button', { name: 'Add override' }).click();
  await expect.poll(async () => (await get('/api/flags')).status).toBe(404);
  expect(await get('/api/flags', 'pw-other')).toEqual({ status: 200, body: { beta: true } });
  expect(await get('/api/hello')).toEqual({ status: 200, body: { hello: 'world' } });

  // Undone from the lists: both routes answer as before.
  const undo = page.getByTestId('override-list').getByRole('button', { name: /^Undo GET \/flags/ });
  await undo.click();
  await expect.poll(async () => (await get('/api/flags')).status).toBe(200);
  await page.getByTestId('override-target').selectOption('session');
  await page.getByTestId('override-session').fill('pw-h');
  await page.getByTestId('override-list').getByRole('button', { name: /^Undo GET \/hello/ }).click();
  await expect.poll(async () => (await get('/api/hello', 'pw-h')).status).toBe(200);
  await page.close();
});
