/**
 * What `GET /_mockyard/api/routes` describes: the mock API (prefixes, the files tree below fsDir
 * with sizes, collections with their item counts, REST handlers, WebSocket handlers with their live
 * connections, scenarios) and the collector's routes. Read-only;
 * the files walk is bounded (MAX_FILES entries, MAX_DEPTH levels) so a huge folder cannot stall it.
 */
import type { Engine } from '../core/engine.js';
import { collectorBase } from './paths.js';
import type { MockApi } from '../engine/create-mock-api.js';
import type { ResourceMapSource } from '../engine/resource-map.js';
import { joinSafe } from '../vfs/path.js';
import type { Vfs } from '../vfs/types.js';
import type { StorageStatus } from '../tracker/storage-state.js';

export const MAX_FILES = 5000;
const MAX_DEPTH = 32;

export interface FileNode {
  name: string;
  kind: 'file' | 'dir';
  size?: number;
  children?: FileNode[];
}

export interface FilesTree {
  tree: FileNode[];
  /** True when the walk stopped at MAX_FILES entries. */
  truncated: boolean;
}

export async function filesTree(vfs: Vfs, dir: string): Promise<FilesTree> {
  let count = 0;
  let truncated = false;
  async function walk(path: string, depth: number): Promise<FileNode[]> {
    const out: FileNode[] = [];
    let entries;
    try {
      entries = await vfs.readdir(path);
    } catch {
      return out;
    }
    for (const e of entries) {
      if (count >= MAX_FILES) {
        truncated = true;
        break;
      }
      count++;
      const child = joinSafe(path, e.name);
      if (e.kind === 'dir') out.push({ name: e.name, kind: 'dir', children: depth < MAX_DEPTH ? await walk(child, depth + 1) : [] });
      else out.push({ name: e.name, kind: 'file', size: (await vfs.stat(child))?.size ?? 0 });
    }
    return out;
  }
  const tree = await walk(dir, 0);
  return { tree, truncated };
}


/** `resources`: the engine's resource map (engine/resource-map.ts: the collections and their counts). */
export async function describeMock(api: MockApi, resources: ResourceMapSource) {
  const o = api.options;
  const files = o.fsDir === null ? null : await filesTree(api.app.fs, o.fsDir);
  const map = o.fsDir === null ? null : await resources.get();
  return {
    prefixes: api.prefixes,
    layers: api.layers,
    files,
    handlers: o.handlers.map((h) => ({ method: (h.method ?? 'GET').toUpperCase(), pattern: h.pattern, disabled: h.disabled === true, fs: h.handle === 'FS' })),
    collections: map ? map.resources.filter((r) => r.kind === 'collection').map((r) => ({ url: r.url, file: r.name, count: r.count ?? 0 })) : [],
    wsHandlers: o.enableWs ? o.wsHandlers.map((h) => ({ pattern: h.pattern, connections: api.app.ws.count(h.pattern) })) : [],
    scenarios: api.scenarios,
    scenario: api.scenario,
    /** The GraphQL endpoint (`/api/graphql`), or null when GraphQL is off. */
    graphql: o.graphql ? `${o.prefixes[0] ?? ''}${o.graphql.path}` : null,
  };
}

/** The collector's fixed routes (event-collector contract). */
export function describeCollector(engine: Engine & { basePath?: string; status?: () => StorageStatus }) {
  const base = collectorBase(engine);
  return {
    basePath: base,
    /** The store's state (ready, connecting, unavailable and why) and the ingest spool's. */
    storage: typeof engine.status === 'function' ? engine.status() : null,
    routes: [
      { path: `${base}/`, methods: ['GET', 'HEAD', 'OPTIONS'], what: 'read events (time window, newest first)' },
      { path: `${base}/events`, methods: ['GET', 'HEAD', 'POST', 'OPTIONS'], what: 'ingest (POST) and read' },
      { path: `${base}/ping`, methods: ['GET', 'HEAD', 'OPTIONS'], what: 'ping' },
      { path: `${base}/ws`, methods: ['GET'], what: 'WebSocket protocol' },
    ],
  };
}
