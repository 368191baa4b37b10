/**
 * What a mock API serves, for people: the top-level resources under fsDir (JSON collections with
 * their item counts, JSON objects, other files, folders, recordings, recorded streams), the REST handler and WebSocket
 * patterns, the GraphQL endpoint. Read by the CLI's start-up map and its home page (src/node/startup-map.ts,
 * home-page.ts). Host-neutral: it reads the engine's Vfs.
 *
 * `createResourceMap(api)` keeps the last answer until the Vfs reports a change (on disk, where
 * edits come without events, for at most a second), so a home page reload costs nothing while
 * the files stay as they are.
 */
import { isJsonPath } from '../core/media-type.js';
import { VARIANT_MARK } from './file-cache/query-variant.js';
import { RECORDING_SUFFIX } from './recordings/recording-file.js';
import { isStreamPath } from './recordings/recorded-format.js';
import { joinSafe } from '../vfs/path.js';
import type { Vfs } from '../vfs/types.js';
import type { MockApi } from './create-mock-api.js';

export interface ResourceEntry {
  /** URL path below the first prefix (`/api/posts`), encoded. */
  readonly url: string;
  /** Name below fsDir (`posts.json`, `uploads/`). */
  readonly name: string;
  readonly kind: 'collection' | 'object' | 'json' | 'file' | 'folder' | 'recorded' | 'stream';
  /** Items of a collection, files in a folder, answers of a recording. */
  readonly count?: number;
  /**
   * A folder only: false when its own URL answers nothing (no `index.json` in it, no file named
   * like it beside it, such as `users.json` for `users/`): its files answer, each at its own URL.
   */
  readonly answers?: boolean;
}

export interface ResourceMap {
  readonly prefix: string;
  /** Where the files come from (`/srv/mocks`, `/srv/db.json`, `memory:`), or null (no file routing). */
  readonly source: string | null;
  readonly resources: readonly ResourceEntry[];
  readonly handlers: readonly string[];
  readonly websockets: readonly string[];
  /** The GraphQL endpoint's path (`/graphql`, `/api/graphql`), or null when GraphQL is off. */
  readonly graphql: string | null;
}

const decoder = new TextDecoder();
/** On drivers whose files change without events (disk), the map is rebuilt at most this often. */
const DISK_TTL_MS = 1000;
/** More top-level entries than this are cut (a map, not a listing). */
const MAX_ENTRIES = 500;

async function readResources(vfs: Vfs, fsDir: string, prefix: string): Promise<ResourceEntry[]> {
  let entries;
  try {
    entries = await vfs.readdir(fsDir);
  } catch {
    return [];
  }
  const out: ResourceEntry[] = [];
  for (const e of entries.slice(0, MAX_ENTRIES)) {
    if (e.name.startsWith('.')) continue;
    const path = joinSafe(fsDir, e.name);
    if (e.kind === 'dir') {
      let inside: string[] = [];
      try {
        inside = (await vfs.readdir(path)).map((f) => f.name);
      } catch {
        // gone meanwhile
      }
      // The lookup for `<name>/` (files.md): its index.json, else `<name>.json` or `<name>.<ext>` beside it.
      const answers = inside.includes('index.json') || entries.some((f) => f.kind !== 'dir' && f.name.startsWith(`${e.name}.`) && !f.name.includes('@'));
      out.push({ url: `${prefix}/${encodeURIComponent(e.name)}/`, name: `${e.name}/`, kind: 'folder', count: inside.length, answers });
      continue;
    }
    if (isStreamPath(e.name)) {
      // A recorded stream (`chat.sse`) answers at its name without the extension (streams/layer.ts).
      out.push({ url: `${prefix}/${encodeURIComponent(e.name.slice(0, e.name.lastIndexOf('.')))}`, name: e.name, kind: 'stream' });
      continue;
    }
    if (e.name.endsWith(RECORDING_SUFFIX)) {
      // A recording (`users@recorded.json`) answers at its name (replay/recorded-layer.ts).
      let count: number | undefined;
      try {
        const recorded = (JSON.parse(decoder.decode(await vfs.read(path))) as { recorded?: unknown }).recorded;
        if (Array.isArray(recorded)) count = recorded.length;
      } catch {
        // not valid: its path answers 500 naming it
      }
      out.push({ url: `${prefix}/${encodeURIComponent(e.name.slice(0, -RECORDING_SUFFIX.length))}`, name: e.name, kind: count === undefined ? 'file' : 'recorded', count });
      continue;
    }
    if (!isJsonPath(e.name)) {
      out.push({ url: `${prefix}/${encodeURIComponent(e.name)}`, name: e.name, kind: 'file' });
      continue;
    }
    const stem = e.name.slice(0, -'.json'.length);
    // A query variant (`search@page=2&q=x.json`, file-cache/query-variant.ts) is listed under the URL
    // that serves it (`/search?page=2&q=x`; its query is stored in canonical, encoded form).
    const at = stem.indexOf(VARIANT_MARK);
    const url = at > 0 ? `${prefix}/${encodeURIComponent(stem.slice(0, at))}?${stem.slice(at + 1)}` : `${prefix}/${encodeURIComponent(stem)}`;
    let value: unknown;
    try {
      value = JSON.parse(decoder.decode(await vfs.read(path)));
    } catch {
      out.push({ url, name: e.name, kind: 'file' });
      continue;
    }
    if (Array.isArray(value)) out.push({ url, name: e.name, kind: 'collection', count: value.length });
    else if (value !== null && typeof value === 'object') out.push({ url, name: e.name, kind: 'object' });
    else out.push({ url, name: e.name, kind: 'json' });
  }
  return out;
}

export interface ResourceMapSource {
  /** The current map (cached until the files change). */
  get(): Promise<ResourceMap>;
  close(): void;
}

export function createResourceMap(api: MockApi): ResourceMapSource {
  const o = api.options;
  const prefix = o.prefixes[0] ?? '';
  const handlers = o.handlers.filter((h) => !h.disabled).map((h) => `${(h.method ?? 'GET').toUpperCase()} ${prefix}${h.pattern.startsWith('/') ? '' : '/'}${h.pattern}`);
  const websockets = o.enableWs ? o.wsHandlers.map((h) => `${prefix}${h.pattern.startsWith('/') ? '' : '/'}${h.pattern}`) : [];
  const graphql = o.graphql ? `${prefix}${o.graphql.path}` : null;
  let exclusive = true;
  let cached: Promise<ResourceMap> | undefined;
  let cachedAt = 0;
  let stop: (() => void) | undefined;
  return {
    async get() {
      if (cached && (exclusive || performance.now() - cachedAt < DISK_TTL_MS)) return cached;
      const on = await api.ready();
      const vfs = on ? api.app.fs : null;
      if (vfs && !stop) stop = vfs.onChange(() => (cached = undefined));
      const fsDir = o.fsDir ?? '';
      exclusive = vfs?.exclusive ?? true;
      const load = (async (): Promise<ResourceMap> => ({
        prefix: prefix || '/',
        source: vfs ? (o.db !== null ? vfs.root : fsDir ? `${vfs.root.replace(/\/+$/, '')}/${fsDir}` : vfs.root) : null,
        resources: vfs ? await readResources(vfs, fsDir, prefix) : [],
        handlers,
        websockets,
        graphql,
      }))();
      cached = load;
      cachedAt = performance.now();
      return load;
    },
    close() {
      stop?.();
    },
  };
}
