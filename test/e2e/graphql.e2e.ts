/**
 * GraphQL in Chromium through the worker host (test/e2e/site/graphql.ts): fetch POSTs of GraphQL
 * documents, one store with the REST routes, and subscriptions with the `graphql-ws` client over
 * the page's WebSocket, pushed for REST writes and GraphQL mutations alike.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { launchChromium, type Browser } from './helpers/chromium.js';

const site = inject('siteUrl');
let browser: Browser;
let page: Page;

function call(path: string, body?: unknown) {
  return page.evaluate(async ([p, b]) => {
    const res = await fetch(p, { method: b === undefined ? 'GET' : 'POST', headers: b === undefined ? {} : { 'content-type': 'application/json' }, body: b === undefined ? undefined : JSON.stringify(b) });
    return { status: res.status, body: await res.json() };
  }, [path, body] as const);
}

async function open() {
  await page.goto(`${site}/graphql.html`);
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

describe('GraphQL in the page', () => {
  it('answers queries with relations and sees REST writes', async () => {
    const q = await call('/api/graphql', { query: '{ Post(id: 1) { title User { name } } }' });
    expect(q).toEqual({ status: 200, body: { data: { Post: { title: 'json-server', User: { name: 'Ada' } } } } });
    await call('/api/posts', { title: 'by REST', views: 0, user_id: 1 });
    expect((await call('/api/graphql', { query: '{ User(id: 1) { Posts { title } } }' })).body.data.User.Posts).toEqual([{ title: 'json-server' }, { title: 'by REST' }]);
  });

  it('pushes postCreated to a graphql-ws subscriber for REST writes and GraphQL mutations', async () => {
    expect(await page.evaluate(() => (window as any).mockyard.subscribe('subscription { postCreated { id title } }'))).toBe('subscribed');
    await call('/api/posts', { title: 'pushed', views: 0, user_id: 1 });
    await call('/api/graphql', { query: 'mutation { createPost(title: "by GraphQL", views: 1, user_id: 1) { id } }' });
    await page.waitForFunction(() => (window as any).mockyard.events().length >= 2);
    expect(await page.evaluate(() => (window as any).mockyard.events())).toEqual([
      { data: { postCreated: { id: '3', title: 'pushed' } } },
      { data: { postCreated: { id: '4', title: 'by GraphQL' } } },
    ]);
  });

  it('streams a subscription fed by a graphql.subscription handler over the page\'s WebSocket', async () => {
    const got = await page.evaluate(() => (window as any).mockyard.collect('subscription Countdown($from: Int) { countdown }', { from: 3 }));
    expect(got).toEqual([{ data: { countdown: 3 } }, { data: { countdown: 2 } }, { data: { countdown: 1 } }]);
  });

  it('follows per-test overrides: worker.mock.use(graphql.query(…)) wins, resetHandlers drops it', async () => {
    const titles = { query: 'query Titles { allPosts { title } }' };
    const before = (await call('/api/graphql', titles)).body.data.allPosts[0];
    expect(before).toEqual({ title: 'json-server' });
    await page.evaluate(() => (window as any).mockyard.override(true));
    expect((await call('/api/graphql', titles)).body).toEqual({ data: { allPosts: [{ title: 'overridden in the page' }] } });
    await page.evaluate(() => (window as any).mockyard.override(false));
    expect((await call('/api/graphql', titles)).body.data.allPosts[0]).toEqual(before);
  });
});
