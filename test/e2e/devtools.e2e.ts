/**
 * The devtools page in real Chromium, in both hosts:
 *   - node host: the mockyard CLI on the playground config serves `/_mockyard/` (a host of these
 *     tests' own: global-setup.ts); the playground app (proxied to that host) makes the requests
 *     and sends events with the tracker client;
 *   - browser mode: the playground in-page (service worker), the page mounted over the app by
 *     `#_mockyard` and reading the tab's own engines.
 * Each host: requests appear live (and filter by session), a scenario switch changes the app's next answer, the Events tab
 * shows the tracker client's events and a push without reload, hostile strings render as text.
 * Screenshots of every tab go to test-artifacts/devtools-<host>-<tab>.png.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { artifact } from './helpers/artifacts.js';
import { launchChromium, type Browser } from './helpers/chromium.js';

const HOSTILE = '<img src=x onerror=window.__x=1>';
let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

async function appReady(p: Page): Promise<void> {
  expect(await p.evaluate(() => (window as unknown as { playground: { ready: Promise<string> } }).playground.ready)).toBe('ready');
}

const appFetch = (p: Page, path: string) =>
  p.evaluate(async (u) => {
    const res = await fetch(u);
    return { status: res.status, body: (await res.json()) as unknown };
  }, path);

/** The tracker client of the playground (its "plain JSON" button), clicked from script (the page may be covered by the overlay). */
const sendTrackedEvent = (p: Page) => p.evaluate(() => document.getElementById('send-plain')!.click());

/** The viewport (the page is full-height; in browser mode it covers the app). */
const screenshot = (p: Page, name: string) => p.screenshot({ path: artifact(name) });

const rowsText = (rows: Locator) => rows.locator('[role=row]').allTextContents();

interface Host {
  name: 'node' | 'sw';
  /** The page whose fetches the devtools must show (the app). */
  app: Page;
  /** Where the devtools page is (the app itself in browser mode). */
  devtools: Page;
  /** The devtools page's own element (the app's page may hold images of its own). */
  root: string;
}

function devtoolsSuite(name: Host['name'], open: () => Promise<Host>) {
  describe(`devtools page, ${name === 'node' ? 'node host' : 'browser mode (service worker)'}`, () => {
    let host: Host;
    const pageErrors: string[] = [];
    beforeAll(async () => {
      host = await open();
      host.devtools.on('pageerror', (e) => pageErrors.push(e.message));
      await host.devtools.locator('[data-tab=requests][aria-selected=true]').waitFor();
      await host.devtools.locator('.requests .live-dot.live').waitFor();
    });

    it('shows the requests the app makes, live, hostile paths as text', async () => {
      const { app, devtools } = host;
      const rows = devtools.locator('.requests-rows');
      const marker = `devtools-${name}-${Date.now()}`;
      expect((await appFetch(app, `/api/tasks?_limit=2&m=${marker}`)).status).toBe(200);
      await expect.poll(() => rowsText(rows)).toEqual(expect.arrayContaining([expect.stringContaining(marker)]));
      // A hostile path: the row shows the characters, nothing is parsed as HTML.
      await app.evaluate((h) => fetch(`/api/${h}`).then((r) => r.status), HOSTILE);
      await expect.poll(async () => (await rowsText(rows)).join('\n')).toContain('/api/%3Cimg%20src=x%20onerror=window.__x=1%3E');
      // The drawer: headers and the pretty-printed body of the first request.
      await rows.locator('[role=row]', { hasText: marker }).click();
      const drawer = devtools.locator('aside[aria-label="Request detail"]');
      await expect.poll(() => drawer.locator('pre.body').last().textContent()).toMatch(/^\[\n {2}\{\n {4}"/);
      expect(await drawer.textContent()).toContain('Response headers');
      await screenshot(devtools, `devtools-${name}-requests.png`);
      await drawer.getByRole('button', { name: 'Close' }).click();
      expect(await devtools.evaluate(() => (window as { __x?: unknown }).__x)).toBeUndefined();
      expect(await devtools.locator(`${host.root} img`).count()).toBe(0);
    });

    it('filters the requests by session', async () => {
      const { app, devtools } = host;
      const rows = devtools.locator('.requests-rows');
      const id = `dt-${name}-${Date.now()}`;
      await app.evaluate((sid) => fetch('/api/tasks?m=in-session', { headers: { 'X-Mockyard-Session': sid } }).then((r) => r.status), id);
      await app.evaluate(() => fetch('/api/tasks?m=no-session').then((r) => r.status));
      const select = devtools.locator('select[aria-label=Session]');
      await expect.poll(() => select.locator('option').allTextContents()).toContain(id);
      await select.selectOption(id);
      await expect.poll(() => rowsText(rows)).toEqual([expect.stringContaining('m=in-session')]);
      await select.selectOption('');
      await expect.poll(async () => (await rowsText(rows)).join('\n')).toContain('m=no-session');
    });

    it('switches scenarios: the next answer changes', async () => {
      const { app, devtools } = host;
      const before = await appFetch(app, '/api/tasks');
      expect((before.body as unknown[]).length).toBeGreaterThan(0);
      await devtools.locator('[data-tab=scenarios]').click();
      await devtools.getByRole('radio', { name: 'outage' }).check();
      await expect.poll(() => devtools.getByTestId('current-scenario').textContent()).toBe('outage');
      expect((await appFetch(app, '/api/tasks')).status).toBe(503);
      await devtools.getByRole('radio', { name: 'empty' }).check();
      await expect.poll(() => devtools.getByTestId('current-scenario').textContent()).toBe('empty');
      expect(await appFetch(app, '/api/tasks')).toEqual({ status: 200, body: [] });
      await screenshot(devtools, `devtools-${name}-scenarios.png`);
      // The pick survives a reload (the page host starts its engines afresh on every load).
      await app.reload();
      await appReady(app);
      expect(await appFetch(app, '/api/tasks')).toEqual({ status: 200, body: [] });
      if (name === 'sw') {
        await app.locator('[data-mockyard-devtools=overlay]').waitFor();
        await devtools.locator('[data-tab=scenarios]').click();
      }
      await expect.poll(() => devtools.getByTestId('current-scenario').textContent()).toBe('empty');
      await devtools.getByRole('radio', { name: 'base (no scenario)' }).check();
      await expect.poll(async () => ((await appFetch(app, '/api/tasks')).body as unknown[]).length).toBe((before.body as unknown[]).length);
    });

    it('lists routes and tries a GET', async () => {
      const { devtools } = host;
      await devtools.locator('[data-tab=routes]').click();
      await devtools.locator('.routes .tree').getByRole('button', { name: 'members.json', exact: true }).click();
      const tried = devtools.locator('.routes .tried');
      await expect.poll(() => tried.locator('h2').textContent()).toBe('GET /api/members → 200');
      expect(await tried.locator('pre.body').textContent()).toMatch(/^\[\n {2}\{/);
      await screenshot(devtools, `devtools-${name}-routes.png`);
    });

    it("shows the tracker client's events, then a push without re-querying; hostile events as text", async () => {
      const { app, devtools } = host;
      const reads: string[] = [];
      if (name === 'node') devtools.on('request', (r) => (/\/_tracker\?/.test(r.url()) ? reads.push(r.url()) : undefined));
      await sendTrackedEvent(app);
      await expect.poll(() => app.locator('#event-list li[data-id]').count()).toBeGreaterThan(0);
      await devtools.locator('[data-tab=events]').click();
      const events = devtools.locator('.events-rows');
      await devtools.locator('.events .live-dot.live').waitFor();
      await devtools.locator('section.events[data-state=ready]').waitFor();
      const loaded = (await rowsText(events)).length;
      expect(loaded).toBeGreaterThan(0);
      expect((await rowsText(events)).join('\n')).toContain('ui.click');
      const firstKpi = Number((await devtools.getByTestId('kpi-events').textContent())!.replace(/,/g, ''));
      // A pushed event (the tracker client again, then a hostile one): merged without a reload.
      await sendTrackedEvent(app);
      await expect.poll(async () => Number((await devtools.getByTestId('kpi-events').textContent())!.replace(/,/g, ''))).toBe(firstKpi + 1);
      const status = await app.evaluate(
        (h) =>
          fetch('/_tracker/events', {
            method: 'POST',
            headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify({ type: 'ingest', events: [{ id: '', timestamp: new Date().toISOString(), type: h, level: 'error', userId: h, route: `/${h}`, message: h }] }),
          }).then((r) => r.status),
        HOSTILE,
      );
      expect(status).toBe(200);
      await expect.poll(async () => (await rowsText(events)).join('\n')).toContain(HOSTILE);
      expect(await devtools.locator('.events .top-name', { hasText: HOSTILE }).count()).toBeGreaterThan(0);
      if (name === 'node') expect(reads).toHaveLength(1); // one read for this small window (one page), the rest pushed
      expect(await devtools.evaluate(() => (window as { __x?: unknown }).__x)).toBeUndefined();
      expect(await devtools.locator(`${host.root} img`).count()).toBe(0);
      await screenshot(devtools, `devtools-${name}-events.png`);
      // The collector's requests are in the journal too (the ingests above), answered by the collector.
      await devtools.locator('[data-tab=requests]').click();
      await expect.poll(async () => (await rowsText(devtools.locator('.requests-rows'))).join('\n')).toMatch(/POST.*\/_tracker\/events[^\n]*collector/);
      expect(pageErrors).toEqual([]);
    });
  });
}

devtoolsSuite('node', async () => {
  const app = await browser.context.newPage();
  await app.goto(`${inject('devtoolsPlaygroundUrl')}/?host=node`);
  await appReady(app);
  // The proxied playground forwards /api and /_tracker; its own origin serves the app.
  const devtools = await browser.context.newPage();
  await devtools.goto(`${inject('devtoolsNodeHostUrl')}/_mockyard`);
  expect(new URL(devtools.url()).pathname).toBe('/_mockyard/');
  return { name: 'node', app, devtools, root: '#app' };
});

describe('admin API live stream through the service worker', () => {
  it('GET /_mockyard/api/requests/stream from the page delivers new journal entries as they happen', async () => {
    const app = await browser.context.newPage();
    await app.goto(`${inject('playgroundUrl')}/?host=sw`);
    await appReady(app);
    const entry = await app.evaluate(async () => {
      const controller = new AbortController();
      const res = await fetch('/_mockyard/api/requests/stream', { signal: controller.signal });
      const type = res.headers.get('content-type');
      const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
      let text = '';
      // Only once the stream is open: the request it must report.
      const read = (async () => {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) return null;
          text += value;
          const m = /event: request\ndata: (.+)\n\n/.exec(text);
          if (m) return JSON.parse(m[1]!) as { url: string; status: number };
        }
      })();
      await fetch('/api/members?through=sse');
      const got = await read;
      controller.abort();
      return { type, url: got?.url, status: got?.status };
    });
    expect(entry).toEqual({ type: 'text/event-stream; charset=utf-8', url: '/api/members?through=sse', status: 200 });
    await app.close();
  });
});

devtoolsSuite('sw', async () => {
  const app = await browser.context.newPage();
  await app.goto(`${inject('playgroundUrl')}/?host=sw#_mockyard`);
  await appReady(app);
  await app.locator('[data-mockyard-devtools=overlay]').waitFor();
  return { name: 'sw', app, devtools: app, root: '[data-mockyard-devtools=overlay]' };
});
