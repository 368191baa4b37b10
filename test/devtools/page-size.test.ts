/**
 * The devtools page's size budget (docs/devtools.md "How it is built"): the bundle `npm run build`
 * makes (scripts/build-devtools-page.mjs) stays within 48 KB of script and 4 KB of stylesheet,
 * gzipped (level 9). It is a lazy chunk (never in the `mockyard/browser` start-up bundle:
 * test/e2e/bundle.e2e.ts) and never in an app's production build; this keeps the page itself small.
 */
import { gzipSync } from 'node:zlib';
import { expect, it } from 'vitest';
import { pageScript, pageStyle } from '../../src/devtools/page-assets.generated.js';

const KB = 1024;

it('the page bundle stays within its budget: 48 KB gz script, 4 KB gz stylesheet', () => {
  const script = gzipSync(pageScript, { level: 9 }).byteLength;
  const style = gzipSync(pageStyle, { level: 9 }).byteLength;
  expect(script, `script ${(script / KB).toFixed(1)} KB gz`).toBeLessThanOrEqual(48 * KB);
  expect(style, `stylesheet ${(style / KB).toFixed(1)} KB gz`).toBeLessThanOrEqual(4 * KB);
});
