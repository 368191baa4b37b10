/**
 * The service-worker host on its own (test/e2e/site/minimal.ts: startWorker with a tiny ready
 * engine): registration, prefix routing, passthrough, bodies unchanged, gzip responses decoded,
 * the WebSocket seam, and the worker-script check.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { launchChromium, type Browser } from './helpers/chromium.js';
import { networkCounts, resetNetworkCounts } from './helpers/network.js';

const site = inject('siteUrl');
let browser: Browser;
let page: Page;

beforeAll(async () => {
  browser = await launchChromium();
  page = await browser.context.newPage();
  await page.goto(`${site}/minimal.html`);
  expect(await page.evaluate(() => (window as any).mockyard.started)).toBe('ok');
});
afterAll(async () => {
  await browser?.close();
});

describe('service worker host', () => {
  it('registers the worker, which controls the page', async () => {
    const state = await page.evaluate(async () => {
      const reg = await navigator.serviceWorker.getRegistration();
      return { active: reg?.active?.scriptURL, controlled: navigator.serviceWorker.controller !== null };
    });
    expect(state.active).toBe(`${site}/mockServiceWorker.js`);
    expect(state.controlled).toBe(true);
  });

  it('answers under the prefix in the page and sends nothing to the network', async () => {
    await resetNetworkCounts(site);
    const res = await page.evaluate(async () => {
      const r = await fetch('/echo/users?x=1&x=2');
      return { status: r.status, body: await r.json() };
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ method: 'GET', path: '/echo/users', search: '?x=1&x=2' });
    const counts = await networkCounts(site);
    expect(Object.keys(counts).filter((p) => p.startsWith('/echo'))).toEqual([]);
  });

  it('lets `undefined` and requests outside the prefix go to the network', async () => {
    await resetNetworkCounts(site);
    const statuses = await page.evaluate(async () => {
      const a = await fetch('/echo/pass');
      const b = await fetch('/echox/not-mine');
      return [a.status, b.status];
    });
    expect(statuses).toEqual([404, 404]);
    const counts = await networkCounts(site);
    expect(counts['/echo/pass']).toBe(1);
    expect(counts['/echox/not-mine']).toBe(1);
  });

  it('hands binary bodies to the engine byte for byte', async () => {
    const res = await page.evaluate(async () => {
      const bytes = new Uint8Array(70_000).map((_, i) => (i * 31 + 7) & 255);
      const digest = Array.from(new Uint8Array(await crypto.subtle.digest('SHA-256', bytes)), (b) => b.toString(16).padStart(2, '0')).join('');
      const r = await fetch('/echo/bin', { method: 'PUT', body: bytes, headers: { 'content-type': 'application/octet-stream' } });
      return { digest, body: await r.json() };
    });
    expect(res.body.size).toBe(70_000);
    expect(res.body.sha256).toBe(res.digest);
  });

  it('passes gzip request bodies on still compressed, with their Content-Encoding', async () => {
    const body = await page.evaluate(async () => {
      const gz = await new Response(new Blob(['{"type":"ingest","events":[]}']).stream().pipeThrough(new CompressionStream('gzip'))).arrayBuffer();
      const r = await fetch('/echo/gz', { method: 'POST', body: gz, headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' } });
      return r.json();
    });
    expect(body.contentEncoding).toBe('gzip');
    expect(body.head.slice(0, 2)).toEqual([0x1f, 0x8b]);
  });

  it('passes multipart bodies with their boundary', async () => {
    const body = await page.evaluate(async () => {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array([1, 2, 3])], { type: 'image/png' }), 'a.png');
      const r = await fetch('/echo/upload', { method: 'POST', body: form });
      return r.json();
    });
    expect(body.contentType).toMatch(/^multipart\/form-data; boundary=/);
    expect(body.size).toBeGreaterThan(3);
  });

  it('receives sendBeacon blobs', async () => {
    const sent = await page.evaluate(() => navigator.sendBeacon('/echo/beacon', new Blob(['{"type":"ingest","events":[]}'], { type: 'application/json' })));
    expect(sent).toBe(true);
    await expect.poll(() => page.evaluate(() => fetch('/echo/last').then((r) => r.json()))).toMatchObject({ path: '/echo/beacon', method: 'POST', size: 29 });
  });

  it('decodes a gzip-encoded engine response (the page never sees raw gzip)', async () => {
    const res = await page.evaluate(async () => {
      const r = await fetch('/echo/gzip');
      return { encoding: r.headers.get('content-encoding'), body: await r.json() };
    });
    expect(res).toEqual({ encoding: null, body: { compressed: true } });
  });

  it('connects page WebSockets to the engine: a message reaches a second client', async () => {
    const got = await page.evaluate(async () => {
      const open = (url: string) => new Promise<WebSocket>((resolve, reject) => {
        const ws = new WebSocket(url);
        ws.onopen = () => resolve(ws);
        ws.onerror = () => reject(new Error('ws error'));
      });
      const base = location.origin.replace('http', 'ws');
      const a = await open(`${base}/echo/ws`);
      const b = await open(`${base}/echo/ws`);
      b.binaryType = 'arraybuffer';
      const received: unknown[] = [];
      const done = new Promise<void>((resolve) => {
        b.onmessage = (e) => {
          received.push(typeof e.data === 'string' ? e.data : Array.from(new Uint8Array(e.data)));
          if (received.length === 2) resolve();
        };
      });
      a.send('hello');
      a.send(new Uint8Array([1, 2, 255]));
      await done;
      a.close();
      b.close();
      return received;
    });
    expect(got).toEqual(['echo:hello', [1, 2, 255]]);
  });

  it('reports a refused handshake as close 1006', async () => {
    const code = await page.evaluate(() => new Promise<number>((resolve) => {
      const ws = new WebSocket(`${location.origin.replace('http', 'ws')}/echo/refuse`);
      ws.onclose = (e) => resolve(e.code);
    }));
    expect(code).toBe(1006);
  });
});

describe('options', () => {
  it('rejects unknown options and a mock API without fs, naming the option', async () => {
    const unknown = await page.evaluate(() => (window as any).mockyard.tryStart({ mokc: {} }));
    expect(unknown).toContain('"mokc" is not a known option');
    const noFs = await page.evaluate(() => (window as any).mockyard.tryStart({ mock: { endpointPrefix: '/x' } }));
    expect(noFs).toContain('"mock.fs" is required in the browser');
    const badUrl = await page.evaluate(() => (window as any).mockyard.tryStart({ serviceWorker: { url: '' } }));
    expect(badUrl).toContain('"serviceWorker.url"');
  });
});

describe('stop()', () => {
  it('hands requests under the prefix back to the network', async () => {
    await resetNetworkCounts(site);
    await page.evaluate(() => (window as any).mockyard.stop());
    const status = await page.evaluate(async () => (await fetch('/echo/after-stop')).status);
    expect(status).toBe(404); // the static server's answer, not the engine's 200
    expect((await networkCounts(site))['/echo/after-stop']).toBe(1);
  });
});

describe('worker script check', () => {
  it('rejects a stale script with a message naming `mockyard init-worker`', async () => {
    const other = await browser.context.newPage();
    await other.goto(`${site}/minimal.html?worker=/stale-worker.js`);
    const message = await other.evaluate(() => (window as any).mockyard.started);
    expect(message).toMatch(/stale \(generated by msw 2\.3\.1/);
    expect(message).toContain('npx mockyard init-worker');
    await other.close();
  });

  it('rejects a missing script with the same advice', async () => {
    const other = await browser.context.newPage();
    await other.goto(`${site}/minimal.html?worker=/missing/mockServiceWorker.js`);
    const message = await other.evaluate(() => (window as any).mockyard.started);
    expect(message).toMatch(/is missing/);
    expect(message).toContain('npx mockyard init-worker');
    // named after the entry the page imported (test/e2e/site/minimal.ts: mockyard/browser), not its old name
    expect(message).toMatch(/^mockyard\/browser: the service worker script \/missing\/mockServiceWorker\.js is missing/);
    expect(message).toContain('serviceWorker: { url }');
    await other.close();
  });
});
