/**
 * The CLI host's home page at `/` (outside every prefix): the start-up map as plain HTML with
 * links, as json-server serves one. No script, no external resource; every name that comes from
 * a file or an option is HTML-escaped; the map is cached until the files change (resource-map.ts).
 */
import type { Engine } from '../core/engine.js';
import { FastResponse } from '../core/fast-response.js';
import type { ResourceMapSource } from '../engine/resource-map.js';
import { isCollector } from '../tracker/is-collector.js';
import { collectorRoutes, kindLabel, resourceUrl } from './startup-map.js';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

export interface HomePageOptions {
  map: ResourceMapSource | undefined;
  engines: readonly Engine[];
  version: string;
  /** The devtools page's path when the host serves it (asked on each render). */
  devtools?: () => string | undefined;
}

export async function renderHomePage(o: HomePageOptions): Promise<string> {
  const map = o.map ? await o.map.get() : undefined;
  const parts: string[] = [
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">',
    '<title>mockyard</title><style>body{font:15px/1.5 system-ui,sans-serif;max-width:52rem;margin:2rem auto;padding:0 1rem;color:#222}',
    'code,td{font-family:ui-monospace,monospace;font-size:14px}td{padding:.15rem 1rem .15rem 0}h2{font-size:1.1rem;margin-top:1.6rem}.k{color:#666}</style></head><body>',
    `<h1>mockyard <small class="k">${escapeHtml(o.version)}</small></h1>`,
  ];
  const devtools = o.devtools?.();
  if (devtools) parts.push(`<p><a href="${escapeHtml(devtools)}">Devtools</a> <span class="k">— requests, scenarios, events</span></p>`);
  if (map) {
    parts.push(`<h2>Resources</h2>`);
    if (map.source) parts.push(`<p class="k">from <code>${escapeHtml(map.source)}</code></p>`);
    if (map.resources.length === 0) parts.push('<p>None yet.</p>');
    else {
      parts.push('<table>');
      for (const r of map.resources) {
        const shown = escapeHtml(decodeURIComponentSafe(resourceUrl(r)));
        parts.push(`<tr><td>${resourceUrl(r) === r.url ? `<a href="${escapeHtml(r.url)}">${shown}</a>` : `<code>${shown}</code>`}</td><td class="k">${escapeHtml(kindLabel(r))}</td></tr>`);
      }
      parts.push('</table>');
    }
    if (map.handlers.length > 0) parts.push('<h2>Handlers</h2><ul>', ...map.handlers.map((h) => `<li><code>${escapeHtml(h)}</code></li>`), '</ul>');
    if (map.graphql !== null) parts.push('<h2>GraphQL</h2>', `<p><code>${escapeHtml(map.graphql)}</code> <span class="k">— POST { query }, GET ?query=, subscriptions over graphql-ws</span></p>`);
    if (map.websockets.length > 0) parts.push('<h2>WebSocket</h2><ul>', ...map.websockets.map((w) => `<li><code>${escapeHtml(w)}</code></li>`), '</ul>');
  }
  for (const e of o.engines) {
    if (!isCollector(e)) continue;
    const basePath = e.basePath;
    parts.push('<h2>Event collector</h2><ul>', ...collectorRoutes(basePath).map((r) => `<li><code>${escapeHtml(r)}</code></li>`), '</ul>');
  }
  parts.push('</body></html>\n');
  return parts.join('\n');
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** An engine answering GET/HEAD `/` with the home page (and nothing else). */
export function createHomePage(o: HomePageOptions): Engine {
  return {
    prefixes: ['/'],
    async handle(request) {
      const method = request.method.toUpperCase();
      if (method !== 'GET' && method !== 'HEAD') return undefined;
      const url = request.url;
      const path = url.slice(url.indexOf('/', url.indexOf('://') + 3)).split(/[?#]/)[0];
      if (path !== '/' && path !== '') return undefined;
      const html = await renderHomePage(o);
      const body = new TextEncoder().encode(html);
      return FastResponse.bytes(body, 200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff', 'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'" }, method === 'HEAD');
    },
  };
}
