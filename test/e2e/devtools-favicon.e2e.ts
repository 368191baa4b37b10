/**
 * Opening the devtools page of the `mockyard` command (the built CLI) in real Chromium asks the
 * mock for nothing it does not serve: before, every visit requested `/favicon.ico`, which the
 * command logged as `GET /favicon.ico 404 nothing matched` and the page's console as an error.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startCli, stopCliProcesses, type CliProcess } from '../helpers/cli-process.js';
import { launchChromium, type Browser } from './helpers/chromium.js';

const cli = fileURLToPath(new URL('../../dist/node/cli.js', import.meta.url));
let browser: Browser;
let dir: string;
let app: CliProcess;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mockyard-e2e-icon-'));
  await writeFile(join(dir, 'db.json'), JSON.stringify({ posts: [{ id: 1, title: 'one' }] }));
  app = await startCli(cli, ['db.json', '--port', '0'], dir);
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await stopCliProcesses();
  await rm(dir, { recursive: true, force: true });
});

it('the devtools page loads without a request the mock answers 404', async () => {
  const page = await browser.context.newPage();
  const failed: string[] = [];
  page.on('response', (r) => {
    if (r.status() >= 400) failed.push(`${r.status()} ${new URL(r.url()).pathname}`);
  });
  page.on('console', (m) => {
    if (m.type() === 'error') failed.push(`console: ${m.text()}`);
  });
  await page.goto(`${app.url}/_mockyard/#data`);
  await page.locator('[data-testid=data-table] tbody tr').first().waitFor({ timeout: 15_000 });
  await page.waitForTimeout(500);
  expect(failed).toEqual([]);
  expect(app.output()).not.toMatch(/GET\s+\/favicon\.ico/);
  await page.close();
});
