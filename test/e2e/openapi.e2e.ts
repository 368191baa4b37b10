/**
 * Browser mode: an OpenAPI document served through the service worker (test/e2e/site/openapi.ts),
 * the same backend the CLI serves: seeded collections scoped by their parent, the document's
 * paging, creates with the id its pattern asks for, 401 without the bearer token it requires.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { launchChromium, type Browser } from './helpers/chromium.js';

const site = inject('siteUrl');
let browser: Browser;
let page: Page;

function call(path: string, init: { method?: string; body?: unknown; auth?: boolean } = {}) {
  return page.evaluate(async ([p, i]) => {
    const headers: Record<string, string> = i.auth === false ? {} : { authorization: 'Bearer token' };
    if (i.body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(p, { method: i.method, headers, body: i.body === undefined ? undefined : JSON.stringify(i.body) });
    const text = await res.text();
    return { status: res.status, headers: Object.fromEntries(res.headers), body: text ? JSON.parse(text) : null };
  }, [path, init] as const);
}

beforeAll(async () => {
  browser = await launchChromium();
  page = await browser.context.newPage();
  await page.goto(`${site}/openapi.html`);
  expect(await page.evaluate(() => (window as any).mockyard.started)).toBe('ok');
});
afterAll(async () => {
  await browser?.close();
});

describe('an OpenAPI document in the page', () => {
  it('serves seeded, stateful, paged collections and the document\'s contract', async () => {
    const page2 = await call('/v2/projects/acme/apikeys?page=2&per_page=5');
    expect(page2.status).toBe(200);
    expect(page2.headers['x-total-count']).toBe('20');
    expect(page2.body.data).toHaveLength(5);
    const all = await call('/v2/projects/acme/apikeys?per_page=100');
    expect(all.body.data.slice(5, 10)).toEqual(page2.body.data);
    expect((await call('/v2/projects/acme/apikeys?per_page=100')).body).toEqual(all.body);

    const created = await call('/v2/projects/acme/apikeys', { method: 'POST', body: { label: 'from the page' } });
    expect(created.status).toBe(201);
    expect(created.headers.location).toMatch(/^\/v2\/projects\/acme\/apikeys\/[a-f\d]{24}$/);
    expect((await call(created.headers.location)).body.data.label).toBe('from the page');
    expect((await call(created.headers.location, { method: 'DELETE' })).status).toBe(204);
    expect((await call(created.headers.location)).status).toBe(404);

    expect((await call('/v2/projects/acme/apikeys', { auth: false })).status).toBe(401);
    expect((await call('/v2/projects/acme/apikeys', { method: 'POST', body: {} })).status).toBe(400);
  });
});
