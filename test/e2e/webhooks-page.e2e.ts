/**
 * A config webhook sent by the page itself: `startWorker` (both engines in the page, behind the
 * service worker; test/e2e/site/webhooks.ts) fires `mock.webhooks` after `POST /api/orders`, and
 * a CORS-enabled node:http receiver on 127.0.0.1 (another origin than the page's) gets it,
 * signed GitHub-style over the exact bytes. The preflight the browser sends first is answered by
 * the receiver; a receiver without CORS gets nothing the page can deliver (the outcome says so).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { launchChromium, type Browser } from './helpers/chromium.js';

const site = inject('siteUrl');
let browser: Browser;
let page: Page;

interface Got {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}
interface Receiver {
  url: string;
  got: Got[];
  close(): Promise<void>;
}

/** A node:http receiver; `cors` answers the preflight and allows the page's origin. */
async function startReceiver(cors: boolean): Promise<Receiver> {
  const got: Got[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      got.push({ method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks) });
      const allow: Record<string, string> = cors ? { 'access-control-allow-origin': req.headers.origin ?? '*', 'access-control-allow-methods': 'POST', 'access-control-allow-headers': req.headers['access-control-request-headers'] ?? '*', 'access-control-max-age': '0' } : {};
      res.writeHead(req.method === 'OPTIONS' ? 204 : 200, { 'content-type': 'application/json', ...allow });
      res.end(req.method === 'OPTIONS' ? undefined : '{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    got,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const receivers: Receiver[] = [];
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await Promise.all(receivers.map((r) => r.close()));
});

async function openWith(receiver: Receiver) {
  page = await browser.context.newPage();
  await page.goto(`${site}/webhooks.html?receiver=${encodeURIComponent(receiver.url)}`);
  expect(await page.evaluate(() => (window as any).mockyard.started)).toBe('ok');
}

/** POST /api/orders in the page, then waits until the page's webhook queue is empty; the journal's outgoing rows. */
function writeAndSettle() {
  return page.evaluate(async () => {
    const res = await fetch('/api/orders', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"item":"tea"}' });
    const worker = await (window as any).mockyard.worker;
    await worker.mock.webhooks.settled();
    const rows = await (await fetch('/_mockyard/api/requests?outgoing=true')).json();
    return { status: res.status, rows };
  });
}

describe('webhooks sent from the page (startWorker)', () => {
  it('a CORS-enabled receiver on another origin gets the webhook, signed over the exact bytes', async () => {
    const receiver = await startReceiver(true);
    receivers.push(receiver);
    await openWith(receiver);
    const { status, rows } = await writeAndSettle();
    expect(status).toBe(201);
    const posts = receiver.got.filter((g) => g.method === 'POST');
    expect(posts).toHaveLength(1);
    const hook = posts[0]!;
    expect(hook.url).toBe('/hooks/orders');
    expect(JSON.parse(hook.body.toString('utf8'))).toEqual({ item: 'tea', id: 1 });
    expect(hook.headers['content-type']).toMatch(/^application\/json/);
    expect(hook.headers['x-mockyard-event']).toBe('order.created');
    expect(hook.headers.origin).toBe(new URL(site).origin);
    // GitHub's documented check: sha256=<hex HMAC-SHA256(secret, raw body)>, compared in constant time.
    const expected = Buffer.from(`sha256=${createHmac('sha256', 's3cret').update(hook.body).digest('hex')}`);
    const sent = Buffer.from(String(hook.headers['x-hub-signature-256']));
    expect(sent.length).toBe(expected.length);
    expect(timingSafeEqual(sent, expected)).toBe(true);
    // The signed, custom-headed JSON POST is not a simple request: the browser asked first.
    const preflight = receiver.got.find((g) => g.method === 'OPTIONS');
    expect(preflight?.headers['access-control-request-method']).toBe('POST');
    expect(String(preflight?.headers['access-control-request-headers'])).toContain('x-hub-signature-256');
    expect(JSON.stringify(rows)).toContain('delivered');
  });

  it('a receiver without CORS: the browser stops at the preflight, nothing is delivered, the write is answered', async () => {
    const receiver = await startReceiver(false);
    receivers.push(receiver);
    await openWith(receiver);
    const { status, rows } = await writeAndSettle();
    expect(status).toBe(201);
    expect(receiver.got.filter((g) => g.method === 'POST')).toHaveLength(0);
    expect(receiver.got.some((g) => g.method === 'OPTIONS')).toBe(true);
    expect(JSON.stringify(rows)).toContain('failed');
  });
});
