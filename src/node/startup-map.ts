/**
 * The CLI's start-up map: what the server serves, as json-server prints its resources, with more:
 * every top-level resource with its kind and item count, the handler and WebSocket patterns, the
 * collector's routes, and the URL to open (the home page).
 */
import type { Engine } from '../core/engine.js';
import type { ResourceMap } from '../engine/resource-map.js';
import { isCollector } from '../tracker/is-collector.js';

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** `collection, 12 items` / `object` / `folder, 3 files` / `file`. */
export function kindLabel(r: ResourceMap['resources'][number]): string {
  switch (r.kind) {
    case 'collection': return `collection, ${plural(r.count ?? 0, 'item')}`;
    case 'folder': return `folder, ${plural(r.count ?? 0, 'entry', 'entries')}`;
    case 'object': return 'object';
    case 'recorded': return `recorded, ${plural(r.count ?? 0, 'answer')}`;
    case 'stream': return 'recorded stream';
    case 'json': return 'JSON value';
    default: return 'file';
  }
}

/** The URL path a map line shows: a folder whose own URL answers nothing shows where its files are (`/api/uploads/<file>`). */
export function resourceUrl(r: ResourceMap['resources'][number]): string {
  return r.kind === 'folder' && r.answers === false ? `${r.url}<file>` : r.url;
}

export function collectorRoutes(basePath: string): string[] {
  return [`POST ${basePath}/events`, `GET ${basePath}?since=…&until=…`, `GET ${basePath}/ping`, `WS ${basePath}/ws`];
}

export function startupMap(url: string, map: ResourceMap | undefined, engines: readonly Engine[], home: boolean): string[] {
  const lines: string[] = [];
  if (map) {
    const width = Math.min(60, Math.max(0, ...map.resources.map((r) => url.length + resourceUrl(r).length)));
    if (map.resources.length > 0) {
      lines.push('', `  Resources${map.source ? ` (${map.source})` : ''}`);
      for (const r of map.resources) lines.push(`    ${`${url}${resourceUrl(r)}`.padEnd(width)}  ${kindLabel(r)}`);
    } else if (map.source) lines.push('', `  Resources: none yet in ${map.source}`);
    if (map.handlers.length > 0) {
      lines.push('', '  Handlers');
      for (const h of map.handlers) lines.push(`    ${h}`);
    }
    if (map.graphql !== null) lines.push('', '  GraphQL (POST { query }, GET ?query=, subscriptions over graphql-ws)', `    ${url}${map.graphql}`);
    if (map.websockets.length > 0) {
      lines.push('', '  WebSocket');
      for (const w of map.websockets) lines.push(`    ${url.replace(/^http/, 'ws')}${w}`);
    }
  }
  for (const e of engines) {
    if (!isCollector(e)) continue;
    const basePath = e.basePath;
    lines.push('', '  Event collector');
    for (const r of collectorRoutes(basePath)) lines.push(`    ${r}`);
  }
  if (home) lines.push('', `  Open ${url}/ for this map in a browser.`, '');
  return lines;
}
