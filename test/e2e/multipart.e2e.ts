/**
 * Chromium through the page worker: the multipart JSON-part table (test/helpers/multipart-json-table.ts)
 * answers as on the node host, Vite and interceptFetch (test/node/multipart-json-part.test.ts): the
 * browser's `Request.formData()` would drop a text part's type, core/multipart.ts keeps it.
 */
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { launchChromium, type Browser } from './helpers/chromium.js';
import { MULTIPART_TABLE_EXPECTED } from '../helpers/multipart-json-table.js';

const site = inject('siteUrl');
let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

it('a part sent as application/json is a JSON value in the page worker too', async () => {
  const page = await browser.context.newPage();
  await page.goto(`${site}/multipart.html`);
  expect(await page.evaluate(() => (window as any).mockyard.started)).toBe('ok');
  expect(await page.evaluate(() => (window as any).mockyard.runTable())).toEqual(MULTIPART_TABLE_EXPECTED);
});
