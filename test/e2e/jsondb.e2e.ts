/**
 * `mock.db` + `preset: 'json-server'` in the page, on IndexedDB (test/e2e/site/jsondb.ts):
 * collections and json-server's query syntax in the service-worker host, writes saved into the
 * one db.json file and kept across a reload.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { launchChromium, type Browser } from './helpers/chromium.js';

const site = inject('siteUrl');
let browser: Browser;
let page: Page;

function call(path: string, init: { method?: string; body?: unknown } = {}) {
  return page.evaluate(async ([p, i]) => {
    const res = await fetch(p, { method: i.method, headers: i.body === undefined ? {} : { 'content-type': 'application/json' }, body: i.body === undefined ? undefined : JSON.stringify(i.body) });
    const text = await res.text();
    return { status: res.status, headers: Object.fromEntries(res.headers), body: text ? JSON.parse(text) : null };
  }, [path, init] as const);
}

async function open() {
  await page.goto(`${site}/jsondb.html`);
  expect(await page.evaluate(() => (window as any).mockyard.started)).toBe('ok');
}

beforeAll(async () => {
  browser = await launchChromium();
  page = await browser.context.newPage();
  await open();
  await page.evaluate(() => (window as any).mockyard.reset());
  await open();
});
afterAll(async () => {
  await browser?.close();
});

describe('db.json with the json-server preset in the page', () => {
  it('serves items, queries and relations', async () => {
    expect((await call('/api/posts/2')).body).toEqual({ id: 2, title: 'mockyard', author: 'me', views: 20 });
    const page1 = await call('/api/posts?_sort=views&_order=desc&_page=1&_limit=1');
    expect(page1.body.map((p: any) => p.id)).toEqual([2]);
    expect(page1.headers['x-total-count']).toBe('2');
    expect(page1.headers.link).toContain('rel="next"');
    expect((await call('/api/posts?views_gte=15')).body.map((p: any) => p.id)).toEqual([2]);
    expect((await call('/api/posts/1?_embed=comments')).body.comments).toHaveLength(1);
    expect((await call('/api/profile')).body).toEqual({ name: 'typicode' });
  });

  it('writes into db.json (POST append, PATCH) and keeps them across a reload', async () => {
    const created = await call('/api/posts', { method: 'POST', body: { title: 'from the page' } });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: 3, title: 'from the page' });
    expect((await call('/api/posts/1', { method: 'PATCH', body: { views: 11 } })).body.views).toBe(11);
    await page.evaluate(() => (window as any).mockyard.flush());
    await open();
    expect((await call('/api/posts/3')).body).toEqual({ id: 3, title: 'from the page' });
    expect((await call('/api/posts/1')).body.views).toBe(11);
    const stored = await page.evaluate(() => (window as any).mockyard.stored());
    expect(stored.posts).toHaveLength(3);
    expect(stored.profile).toEqual({ name: 'typicode' });
  });

  it('deletes an item through the worker (msw forwards DELETE with an empty body: zero bytes is no body)', async () => {
    const del = await call('/api/posts/3', { method: 'DELETE' });
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ id: 3, title: 'from the page' });
    expect((await call('/api/posts/3')).status).toBe(404);
  });
});
