/**
 * The shared Vfs contract suite on Chromium's real IndexedDB: the page (site/contract.ts) runs
 * test/vfs/contract.ts unchanged; each of its cases becomes one test here.
 */
import { describe, expect, inject, it } from 'vitest';
import { launchChromium } from './helpers/chromium.js';

interface CaseResult { name: string; ok: boolean; error?: string; skipped?: string }

async function runInChromium(): Promise<CaseResult[]> {
  const browser = await launchChromium();
  try {
    const page = await browser.context.newPage();
    await page.goto(`${inject('siteUrl')}/contract.html`);
    await page.waitForFunction(() => '__results' in window);
    return await page.evaluate(() => (window as unknown as { __results: Promise<CaseResult[]> }).__results);
  } finally {
    await browser.close();
  }
}

const results = await runInChromium();

describe('Vfs contract on real IndexedDB (Chromium)', () => {
  it('ran the whole shared suite', () => {
    expect(results.length).toBeGreaterThanOrEqual(10);
  });
  for (const r of results) {
    it(r.name, (ctx) => {
      if (r.skipped !== undefined) ctx.skip(r.skipped); // e.g. permissions: IndexedDB has none
      if (!r.ok) throw new Error(r.error);
    });
  }
});
