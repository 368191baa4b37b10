/**
 * The devtools page at `/_mockyard/`, answered by the admin engine next to its API:
 *   GET /_mockyard            → 308 to `/_mockyard/` (the page's asset URLs are relative)
 *   GET /_mockyard/           → the HTML shell
 *   GET /_mockyard/assets/page.js, page.css → the prebuilt bundle (src/devtools/page/, built into
 *                               page-assets.generated.ts by scripts/build-devtools-page.mjs)
 * The shell names the collector's base path (`data-collector`, empty when there is none), so the
 * Events tab can read at once instead of after `GET routes`.
 * The bundle is imported on the first page request, never at start-up. The shell and the bundle
 * hold no data, so they are served without the bearer token (the page sends it to the API; see
 * page/api.ts); a strict Content-Security-Policy allows no inline script and no other origin.
 */
import { HttpError } from '../core/errors.js';
import { FastResponse } from '../core/fast-response.js';
import { DEVTOOLS_BASE } from './paths.js';

const CSP = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'self'";
const COMMON = { 'X-Content-Type-Options': 'nosniff', 'Referrer-Policy': 'no-referrer' };

interface EncodedPage {
  version: string;
  js: Uint8Array;
  css: Uint8Array;
  /** The shell per collector base path. */
  html: Map<string, Uint8Array>;
}
let assets: Promise<EncodedPage> | undefined;
const loadAssets = () =>
  (assets ??= import('./page-assets.generated.js').then(
    ({ pageScript, pageStyle, pageVersion }) => {
      const enc = new TextEncoder();
      return { version: pageVersion, js: enc.encode(pageScript), css: enc.encode(pageStyle), html: new Map() };
    },
    (err: unknown) => {
      assets = undefined;
      throw err;
    },
  ));

const ATTRIBUTE_ESCAPES: Record<string, string> = { '&': '&amp;', '"': '&quot;', '<': '&lt;', '>': '&gt;' };

function shell(version: string, collectorBase: string): string {
  const collector = collectorBase.replace(/[&"<>]/g, (c) => ATTRIBUTE_ESCAPES[c]!);
  return (
    `<!doctype html><html lang="en" data-mockyard-devtools="page" data-collector="${collector}"><head><meta charset="utf-8">` +
    '<meta name="viewport" content="width=device-width,initial-scale=1"><title>mockyard devtools</title>' +
    // No icon: without this the browser asks the mock for /favicon.ico (a 404 in its log and the console).
    '<link rel="icon" href="data:,">' +
    `<link rel="stylesheet" href="assets/page.css?v=${version}">` +
    '<style>html,body{margin:0;height:100%}#app{position:fixed;inset:0}</style>' +
    `<script type="module" src="assets/page.js?v=${version}"></script></head><body><div id="app"></div></body></html>\n`
  );
}

/**
 * The page's answer for `path` (under DEVTOOLS_BASE, outside the API), or a 404/405 HttpError.
 * `collectorBase`: the collector's base path on this host, or '' (none).
 */
export async function pageResponse(request: Request, path: string, collectorBase: string): Promise<Response> {
  const method = request.method.toUpperCase();
  const head = method === 'HEAD';
  if (method !== 'GET' && !head) throw new HttpError(405, `Method ${method} is not allowed here`, { headers: { Allow: 'GET, HEAD' } });
  if (path === DEVTOOLS_BASE) {
    const search = new URL(request.url).search;
    return new Response(null, { status: 308, headers: { Location: `${DEVTOOLS_BASE}/${search}` } });
  }
  const sub = path.slice(DEVTOOLS_BASE.length);
  if (sub !== '/' && sub !== '/index.html' && sub !== '/assets/page.js' && sub !== '/assets/page.css') throw new HttpError(404, 'Not Found');
  const page = await loadAssets();
  if (sub === '/assets/page.js' || sub === '/assets/page.css') {
    const js = sub === '/assets/page.js';
    const type = js ? 'text/javascript; charset=utf-8' : 'text/css; charset=utf-8';
    return FastResponse.bytes(js ? page.js : page.css, 200, { ...COMMON, 'Content-Type': type, 'Cache-Control': 'public, max-age=31536000, immutable', ETag: `"${page.version}"` }, head);
  }
  let html = page.html.get(collectorBase);
  if (!html) page.html.set(collectorBase, (html = new TextEncoder().encode(shell(page.version, collectorBase))));
  return FastResponse.bytes(html, 200, { ...COMMON, 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store', 'Content-Security-Policy': CSP }, head);
}
