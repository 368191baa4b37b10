/**
 * Browser mode with `proxy` in real Chromium: the worker answers what the page's mocks hold and
 * lets everything else go to the network unchanged — to the page's own server, whose proxy (as
 * Vite's `server.proxy` would) reaches a real upstream node:http server started here. The worker
 * never fetches `proxy.target` itself. Writes follow file mode's rule (unmocked-write.ts).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchChromium, type Browser } from './helpers/chromium.js';
import { networkCounts } from './helpers/network.js';
import { startStaticServer, type StaticServer } from './helpers/static-server.js';

let browser: Browser;
let page: Page;
let upstream: Server;
let site: StaticServer;
const seen: string[] = [];

function call(path: string, init: { method?: string; body?: string } = {}) {
  return page.evaluate(async ([p, i]) => {
    const res = await fetch(p, { method: i.method, headers: i.body === undefined ? {} : { 'content-type': 'application/json' }, body: i.body });
    return { status: res.status, body: await res.json() };
  }, [path, init] as const);
}

beforeAll(async () => {
  upstream = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      seen.push(`${req.method} ${req.url}${body ? ` ${body}` : ''}`);
      res.writeHead(req.method === 'POST' ? 201 : 200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ from: 'upstream', request: `${req.method} ${req.url}` }));
    });
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  site = await startStaticServer(inject('siteDir'), {}, { prefixes: ['/api'], target: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}` });
  browser = await launchChromium();
  page = await browser.context.newPage();
  await page.goto(`${site.url}/proxy.html`);
  expect(await page.evaluate(() => (window as any).mockyard.started)).toBe('ok');
});

afterAll(async () => {
  await browser?.close();
  await site?.close();
  await new Promise<void>((resolve) => (upstream ? upstream.close(() => resolve()) : resolve()));
});

describe('browser mode with a proxy', () => {
  it('mocked requests are answered in the page; the rest reaches the real API through the network', async () => {
    expect(await call('/api/users/1')).toEqual({ status: 200, body: { id: 1, name: 'Ada' } });
    expect(await call('/api/live?x=1')).toEqual({ status: 200, body: { from: 'upstream', request: 'GET /api/live?x=1' } });
    const counts = await networkCounts(site.url);
    expect(counts['/api/users/1']).toBeUndefined();
    expect(counts['/api/live']).toBe(1);
    expect(seen).toEqual(['GET /api/live?x=1']);
  });

  it('a write naming nothing the mocks hold goes to the network; writes to mocked resources stay in the page', async () => {
    seen.length = 0;
    expect(await call('/api/orders', { method: 'POST', body: '{"item":"tea"}' })).toEqual({ status: 201, body: { from: 'upstream', request: 'POST /api/orders' } });
    expect(await call('/api/users/2', { method: 'DELETE' })).toEqual({ status: 200, body: { from: 'upstream', request: 'DELETE /api/users/2' } });
    const local = await call('/api/users/7', { method: 'POST', body: '{"id":7}' });
    expect(local).toEqual({ status: 201, body: { id: 7 } });
    expect(await call('/api/users/7')).toEqual({ status: 200, body: { id: 7 } });
    expect(seen).toEqual(['POST /api/orders {"item":"tea"}', 'DELETE /api/users/2']);
  });
});
