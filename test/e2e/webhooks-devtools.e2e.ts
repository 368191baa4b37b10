/**
 * The devtools page in real Chromium on a node host with a config webhook: the webhook's attempts
 * (a 503, then a 200 from a real node:http receiver) are outgoing rows (↗) naming the event,
 * attempt and outcome, and the drawer links to the request that caused them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type RunningServer } from '../../src/node/serve.js';
import { memoryFs } from '../../src/vfs/memory.js';
import { startReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';
import { artifact } from './helpers/artifacts.js';
import { launchChromium, type Browser } from './helpers/chromium.js';

let browser: Browser;
let server: RunningServer;
let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await startReceiver([503, 200]);
  server = await serve({
    port: 0,
    host: '127.0.0.1',
    logLevel: 'silent',
    mock: { endpointPrefix: '/api', fs: memoryFs({ 'orders.json': [] }), collections: true, webhooks: [{ on: 'POST /api/orders', url: `${receiver.url}/hooks`, event: 'order.created', retry: { attempts: 2, delays: [10] } }] },
  });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  await receiver?.close();
});

describe('devtools page: outgoing webhooks', () => {
  it('shows each attempt as an outgoing row linked to its cause', async () => {
    const res = await fetch(`${server.url}/api/orders`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"item":"tea"}' });
    expect(res.status).toBe(201);
    await receiver.next(2);
    const page = await browser.context.newPage();
    await page.goto(`${server.url}/_mockyard/`);
    const rows = page.locator('.requests-rows [role=row]');
    const outgoing = page.locator('.requests-rows [data-outgoing=true]');
    await expect.poll(() => outgoing.count()).toBe(2);
    expect(await rows.count()).toBe(3);
    const texts = await outgoing.allTextContents();
    expect(texts.some((t) => t.includes('↗') && t.includes('503') && t.includes('webhook order.created · 1/2 retrying'))).toBe(true);
    expect(texts.some((t) => t.includes('200') && t.includes('2/2 delivered'))).toBe(true);
    await outgoing.first().click();
    const drawer = page.locator('aside.drawer');
    expect(await drawer.locator('.outgoing-detail').textContent()).toContain('caused by POST /api/orders');
    await page.screenshot({ path: artifact('devtools-webhooks.png') });
    await drawer.locator('button.link').click();
    expect(await drawer.locator('h2').textContent()).toBe('POST /api/orders');
  });
});
