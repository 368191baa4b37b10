/**
 * Deleting a time range of the collector's events from the devtools page, in real Chromium, on
 * the embedded store (an events folder on disk) and on PostgreSQL (a real throwaway server;
 * skipped locally without its binaries, a failure under CI): the user picks from and to in the
 * Events tab's dialog and confirms from the keyboard; what is left is then checked from outside
 * the page — the collector's read API, a WebSocket `events:query` from another client, and a
 * second reader of the same store (a restart on the folder; a second server on the table). An
 * event stored afterwards inside the range is pushed to the page and read back. A page on
 * another origin cannot delete (403 from the admin guard).
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { serve, type RunningServer, type ServeOptions } from '../../src/node/serve.js';
import { memoryFs } from '../../src/vfs/memory.js';
import { diskFs } from '../../src/vfs/disk.js';
import { postgresBinaries, startPostgres, type PostgresServer } from '../helpers/postgres-server.js';
import { makeTempDir, removeTempDirs } from '../helpers/temp-dir.js';
import { artifact } from './helpers/artifacts.js';
import { launchChromium, type Browser } from './helpers/chromium.js';

const hasPostgres = postgresBinaries() !== undefined;
const IN_CI = process.env.CI === 'true' || process.env.CI === '1';
let browser: Browser;
let postgres: PostgresServer | undefined;
let evil: Server;
let evilUrl: string;
const servers: RunningServer[] = [];

beforeAll(async () => {
  browser = await launchChromium();
  if (hasPostgres) postgres = await startPostgres();
  evil = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>elsewhere</title>'));
  await new Promise<void>((resolve) => evil.listen(0, '127.0.0.1', resolve));
  evilUrl = `http://127.0.0.1:${(evil.address() as { port: number }).port}/`;
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await Promise.all(servers.splice(0).map((s) => s.close()));
  postgres?.stop();
  await new Promise((resolve) => evil?.close(resolve));
  await removeTempDirs();
}, 60_000);

type Tracker = NonNullable<ServeOptions['tracker']>;
async function start(tracker: Tracker): Promise<RunningServer> {
  const s = await serve({ port: 0, host: '127.0.0.1', logLevel: 'silent', mock: { endpointPrefix: '/api', cors: true, fs: memoryFs({ 'todos.json': [] }) }, tracker });
  servers.push(s);
  return s;
}

const MIN = 60_000;
const base = Math.floor(Date.now() / MIN) * MIN - 50 * MIN;
const at = (minutes: number, n: string) => ({ id: '', type: 'view', timestamp: new Date(base + minutes * MIN).toISOString(), n });
const since = new Date(base - 60 * MIN).toISOString();

async function ingest(url: string, events: unknown[]): Promise<void> {
  const res = await fetch(`${url}/_tracker/events`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ type: 'ingest', events }) });
  expect(res.status).toBeLessThan(300);
}
/** The names left, through the collector's read API. */
async function readNames(url: string): Promise<string[]> {
  const res = await fetch(`${url}/_tracker?since=${since}&until=${new Date(Date.now() + MIN).toISOString()}`);
  return ((await res.json()) as { events: Array<{ n?: string }> }).events.map((e) => e.n!).filter(Boolean);
}
/** The names left, through a WebSocket client's `events:query`. */
async function wsNames(url: string): Promise<string[]> {
  const ws = new WebSocket(`${url.replace('http', 'ws')}/_tracker/ws`);
  try {
    await new Promise((resolve, reject) => (ws.once('open', resolve), ws.once('error', reject)));
    const answer = new Promise<{ response: { events: Array<{ n?: string }> } }>((resolve) => ws.on('message', (data) => resolve(JSON.parse(String(data)))));
    ws.send(JSON.stringify({ type: 'events:query', reqId: 'e2e', query: { since, until: new Date(Date.now() + MIN).toISOString() } }));
    return (await answer).response.events.map((e) => e.n!).filter(Boolean);
  } finally {
    ws.close();
  }
}

const backends: Array<{ name: string; available: boolean; tracker: () => Promise<Tracker>; again: (t: Tracker, first: RunningServer) => Promise<RunningServer> }> = [
  {
    name: 'embedded store on disk',
    available: true,
    tracker: async () => ({ appId: 'e2e', logLevel: 'silent', storage: { fs: diskFs(await makeTempDir()) } }),
    // The folder read afresh after a restart.
    again: async (t, first) => {
      await first.close();
      servers.splice(servers.indexOf(first), 1);
      return start(t);
    },
  },
  {
    name: 'PostgreSQL server',
    available: hasPostgres,
    tracker: async () => ({ appId: 'e2e', logLevel: 'silent', storage: { postgres: { url: postgres!.url, table: `e2e_delete_${process.pid}` } } }),
    // A second server on the same table, beside the first.
    again: async (t) => start(t),
  },
];

describe('real PostgreSQL server binaries', () => {
  it.runIf(IN_CI)('are installed under CI', () => {
    expect(hasPostgres).toBe(true);
  });
});

for (const backend of backends) {
  describe.skipIf(!backend.available)(`Events tab: delete a chosen time range (${backend.name})`, () => {
    it('from and to picked in the dialog, confirmed by keyboard; the read API, a WebSocket query and another reader of the store agree; another origin cannot delete', async () => {
      const tracker = await backend.tracker();
      const server = await start(tracker);
      await ingest(server.url, [at(0, 'a'), at(10, 'b'), at(20, 'c'), at(30, 'd'), at(40, 'e')]);
      expect(await readNames(server.url)).toEqual(['e', 'd', 'c', 'b', 'a']);

      const page = await browser.context.newPage();
      await page.goto(`${server.url}/_mockyard/#events`);
      await page.locator('.events[data-state=ready]').waitFor();
      await page.locator('.presets button', { hasText: '1 h' }).click();
      await expect.poll(() => page.getByTestId('events-count').textContent()).toBe('5 events');

      // From b (included) to d (not included), typed in the browser's own time zone.
      const local = (ms: number) => page.evaluate((t) => new Date(t - new Date(t).getTimezoneOffset() * 60_000).toISOString().slice(0, 16), ms);
      await page.getByTestId('events-delete').focus();
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog', { name: 'Delete events' });
      await dialog.waitFor();
      await dialog.getByLabel('From').fill(await local(base + 10 * MIN));
      await dialog.getByLabel('to (not included)').fill(await local(base + 30 * MIN));
      // Tab through the date field's parts to "Delete from the collector".
      const focused = () => page.evaluate(() => document.activeElement?.getAttribute('data-testid'));
      for (let i = 0; i < 12 && (await focused()) !== 'events-delete-confirm'; i++) await page.keyboard.press('Tab');
      expect(await focused()).toBe('events-delete-confirm');
      await page.screenshot({ path: artifact(`devtools-events-delete-${backend.name.split(' ')[0]}.png`) });
      await page.keyboard.press('Enter');
      await expect.poll(() => page.getByTestId('events-note').textContent()).toMatch(/^Deleted 2 events/);
      await expect.poll(() => dialog.count()).toBe(0);
      expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('events-delete');
      await expect.poll(() => page.getByTestId('events-count').textContent()).toBe('3 events');

      expect(await readNames(server.url)).toEqual(['e', 'd', 'a']);
      expect(await wsNames(server.url)).toEqual(['e', 'd', 'a']);

      // A page on another origin (the mocks allow every origin, `cors: true`, so the preflight
      // passes and the DELETE reaches the admin guard): 403, nothing deleted.
      const tab = await browser.context.newPage();
      await tab.goto(evilUrl);
      const outcome = await tab.evaluate(async (u) => {
        const res = await fetch(u, { method: 'DELETE' });
        return { status: res.status, option: ((await res.json()) as { option?: string }).option };
      }, `${server.url}/_mockyard/api/events?from=${encodeURIComponent(since)}&to=${encodeURIComponent(new Date().toISOString())}`);
      expect(outcome).toEqual({ status: 403, option: 'devtools.allowedOrigins' });
      await tab.close();
      expect(await readNames(server.url)).toEqual(['e', 'd', 'a']);

      // An event stored inside the range afterwards: pushed to the page, read with the others.
      await ingest(server.url, [at(15, 'late')]);
      await expect.poll(() => page.getByTestId('events-count').textContent()).toBe('4 events');
      expect(await readNames(server.url)).toEqual(['e', 'd', 'late', 'a']);
      await page.close();

      const other = await backend.again(tracker, server);
      expect(await readNames(other.url)).toEqual(['e', 'd', 'late', 'a']);
      expect(await wsNames(other.url)).toEqual(['e', 'd', 'late', 'a']);
    });
  });
}
