/**
 * The devtools page's Record tab in real Chromium: a node host proxying to a real upstream, the
 * user starts recording from the page, the app's request is recorded (listed; written into the
 * mocks folder on disk), the user stops it, the upstream changes, and Replay shows the recorded
 * answer — served from the mocks folder.
 */
import { createServer, type Server } from 'node:http';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { serve, type RunningServer } from '../../src/node/serve.js';
import { makeTempDir, removeTempDirs } from '../helpers/temp-dir.js';
import { artifact } from './helpers/artifacts.js';
import { launchChromium, type Browser } from './helpers/chromium.js';

let browser: Browser;
let server: RunningServer;
let upstream: Server;
let version = 'v1';
let dir: string;

beforeAll(async () => {
  upstream = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ path: req.url, version }));
  });
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  const target = `http://127.0.0.1:${(upstream.address() as { port: number }).port}`;
  dir = await makeTempDir();
  server = await serve({ port: 0, host: '127.0.0.1', logLevel: 'silent', mock: { endpointPrefix: '/api', fsDir: dir, proxy: { target } } });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  await new Promise((r) => upstream?.close(r));
  await removeTempDirs();
});

it('starts recording from the page, lists what the app fetched, stops, and replays the recording', async () => {
  const page = await browser.context.newPage();
  await page.goto(`${server.url}/_mockyard/#record`);
  await page.locator('[data-tab=record][aria-selected=true]').waitFor();
  const toggle = page.getByTestId('record-toggle');
  await expect.poll(() => toggle.textContent()).toBe('Start recording');
  await toggle.click();
  await expect.poll(() => toggle.getAttribute('aria-pressed')).toBe('true');
  // The app (another tab of the same origin) fetches through the proxy.
  const app = await browser.context.newPage();
  await app.goto(`${server.url}/_mockyard/`);
  expect(await app.evaluate(async () => (await (await fetch('/api/users')).json()) as unknown)).toEqual({ path: '/api/users', version: 'v1' });
  await expect.poll(() => page.getByTestId('record-entries').textContent(), { timeout: 10_000 }).toContain('GET /api/users 200');
  await expect.poll(async () => readFile(join(dir, 'api', 'users.json'), 'utf8').catch(() => readFile(join(dir, 'users.json'), 'utf8')).catch(() => '')).toContain('v1');
  await toggle.click();
  await expect.poll(() => toggle.getAttribute('aria-pressed')).toBe('false');
  version = 'v2';
  await page.getByRole('button', { name: 'Replay GET /api/users' }).click();
  await expect.poll(() => page.getByTestId('record-replayed').textContent()).toContain('"version": "v1"');
  // The recording as a HAR 1.2 file (the recorder's own log), chosen by keyboard.
  await page.getByTestId('record-har').focus();
  const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
  const har = JSON.parse(await readFile((await download.path())!, 'utf8')) as { log: { version: string; entries: Array<{ request: { url: string } }> } };
  expect(har.log.version).toBe('1.2');
  expect(har.log.entries.map((e) => new URL(e.request.url).pathname)).toEqual(['/api/users']);
  await page.screenshot({ path: artifact('devtools-editor-record.png') });
  await app.close();
  await page.close();
});
