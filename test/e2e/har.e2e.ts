/**
 * Browser mode: `mock.har` (the HAR object) served through the service worker
 * (test/e2e/site/har.ts): the log Chromium wrote with playwright-core's recordHar answers the
 * page's fetches again — statuses, headers, bodies, writes matched on their body, the query in
 * any order, a 404 naming what is recorded for another body.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { launchChromium, type Browser } from './helpers/chromium.js';

const site = inject('siteUrl');
let browser: Browser;
let page: Page;

function call(path: string, init: { method?: string; body?: unknown } = {}) {
  return page.evaluate(async ([p, i]) => {
    const headers: Record<string, string> = i.body === undefined ? {} : { 'content-type': 'application/json' };
    const res = await fetch(p, { method: i.method, headers, body: i.body === undefined ? undefined : JSON.stringify(i.body), redirect: 'manual' });
    const text = await res.text();
    return { status: res.status, headers: Object.fromEntries(res.headers), text };
  }, [path, init] as const);
}

beforeAll(async () => {
  browser = await launchChromium();
  page = await browser.context.newPage();
  await page.goto(`${site}/har.html`);
  expect(await page.evaluate(() => (window as any).mockyard.started)).toBe('ok');
});
afterAll(async () => {
  await browser?.close();
});

describe('a HAR log in the page', () => {
  it('answers what the browser recorded, exactly', async () => {
    const items = await call('/api/items?page=1&size=2');
    expect(items.status).toBe(200);
    expect(items.headers['x-total-count']).toBe('5');
    expect(JSON.parse(items.text)).toEqual([{ id: 1, title: 'buy milk', done: false }, { id: 2, title: 'call mum', done: true }]);
    const missing = await call('/api/items/99');
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.text)).toEqual({ error: 'no item 99' });
    const created = await call('/api/items', { method: 'POST', body: { done: false, title: 'write tests' } });
    expect(created.status).toBe(201);
    expect(created.headers.location).toBe('/api/items/3');
    const other = await call('/api/items', { method: 'POST', body: { title: 'not recorded' } });
    expect(other.status).toBe(404);
    expect(JSON.parse(other.text).recorded).toContain('POST /api/items (with a recorded body)');
    expect((await call('/api/items/2', { method: 'DELETE' })).status).toBe(204);
  });
});
