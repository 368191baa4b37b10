/**
 * The collection store: the collections of the mocks folder (JSON arrays of objects, one file
 * each: `posts.json`, or the `posts` key of a db.json) as a service every layer and handler can
 * use — get, list with a query, insert, update, remove, a transaction, change events.
 *
 * It sits on the files layer's caches and per-file write queue (file mode's `FsEnv`), so it
 * always agrees with what file mode serves. It is the one data service of the mock API: the
 * collections layer (REST, json-server) reads through its snapshots and writes through its
 * transactions; handlers get it as `req.app.store`; GraphQL, the OpenAPI backend's state folder
 * and sessions use it. Writes go through writes.ts: one queue per file, grouped, atomic; nothing
 * races.
 *
 *   peek / open        a collection version (version.ts): items, get by id, the query run through
 *                      the compiled scan (scan.ts); the same object until the collection changes
 *   list               a ListQuery on that same scan
 *   transaction        insert/update/remove/removeWhere in the collection's write queue (transaction.ts)
 *   namesNextTo        the JSON files next to a collection (folder-listings.ts; json-server's cascade)
 *   documents          every top-level JSON file parsed (json-server's `GET /db`)
 *   onChange/subscribe change events (change-feed.ts); `announce`: what a backend whose
 *                      collections are no files changed (the OpenAPI backend's in-memory state)
 *
 * Names: a collection is named by its file below the mocks folder without `.json` (`posts`,
 * `v1/users`); a request path below the prefix (`/v1/posts`, percent-encoded) names the same
 * collection. `names()` lists the JSON array files at the top of the folder (the keys of a
 * db.json). Ids are matched as item-id.ts says (`1` and `"1"` alike).
 */
import { HttpError } from '../../core/errors.js';
import { LOOKUP_TTL_MS, type FileEntry } from '../file-cache/file-cache.js';
import { lookupTarget } from '../file-cache/lookup.js';
import { inFsDir, relativeToFsDir, type FsEnv } from '../file-cache/fs-call.js';
import type { FilesLayer } from '../file-cache/files-layer.js';
import { ChangeFeed } from './change-feed.js';
import { collectionFile } from './collection-file.js';
import type { CollectionStore, StoreChange, StoreTransaction, RelationNaming } from '../store-contract/contract.js';
import { createFolderListings } from './folder-listings.js';
import { isCollection } from './list-query.js';
import { ScopedTransaction } from './transaction.js';
import { CollectionVersion } from './version.js';
import { enqueueMutation, mutationPending } from './writes.js';

export type { Item, StoreChange, ListQuery, ListResult, CollectionStore, StoreTransaction } from '../store-contract/contract.js';

/** The request path of a collection: a request path as given, a name encoded (`v1/posts` → `/v1/posts`). */
function keyOf(name: string): string {
  return name.charCodeAt(0) === 47 ? name : `/${name.split('/').map(encodeURIComponent).join('/')}`; // 47: '/'
}

export interface StoreSources {
  files: FilesLayer;
  idField: string;
  relations: RelationNaming;
}

/** The store as the assembly holds it: `announce` tells its change feed's listeners what a backend whose collections are no files changed. */
export interface AnnouncingStore extends CollectionStore {
  announce(changes: readonly StoreChange[] | (() => readonly StoreChange[])): void;
}

export function createCollectionStore({ files, idField, relations }: StoreSources): AnnouncingStore {
  async function env(): Promise<FsEnv> {
    let mode = files.mode();
    if (!mode) {
      await files.ready;
      mode = files.mode();
    }
    if (!mode) throw new HttpError(404, 'No collections: file routing is off (the mocks folder does not exist)');
    return mode.env;
  }

  /** One version object per cached entry (version.ts): what `peek`/`open` hand out. */
  const versions = new WeakMap<FileEntry, CollectionVersion>();
  function versionOf(e: FsEnv, entry: FileEntry): CollectionVersion {
    let v = versions.get(entry);
    if (v === undefined) {
      const file = relativeToFsDir(e, entry.path);
      const path = entry.path;
      v = new CollectionVersion(file.endsWith('.json') ? file.slice(0, -5) : file, file, entry, idField, () => mutationPending(e, path));
      versions.set(entry, v);
    }
    return v;
  }

  /** Whether `entry` may stand for `name`: a request key takes any JSON array, a name its `.json` file. */
  const fits = (name: string, key: string, entry: FileEntry) => entry.array !== undefined && (key === name || entry.path.endsWith('.json'));

  function peekVersion(name: string): CollectionVersion | null | undefined {
    const mode = files.mode();
    if (mode === undefined) return undefined;
    const key = keyOf(name);
    const cache = mode.env.cache;
    const entry = cache.lookupEntryNow(key);
    if (entry !== undefined) return fits(name, key, entry) ? versionOf(mode.env, entry) : null;
    return cache.lookupNow(key) === null ? null : undefined; // a remembered miss, or only `open` can tell
  }

  async function openVersion(name: string): Promise<CollectionVersion | null> {
    let mode = files.mode();
    if (mode === undefined) {
      await files.ready;
      mode = files.mode();
      if (mode === undefined) return null;
    }
    const key = keyOf(name);
    const entry = await collectionFile(mode.env, key);
    return entry !== null && fits(name, key, entry) ? versionOf(mode.env, entry) : null;
  }

  async function collection(name: string): Promise<CollectionVersion> {
    await env();
    const v = await openVersion(name);
    if (!v) throw new HttpError(404, `No collection ${JSON.stringify(name)}`);
    return v;
  }

  /**
   * The collection names, kept until the Vfs reports a change in the mocks folder (on drivers
   * whose files change behind our back, disk, for at most the lookup TTL, as file lookups are).
   */
  let known: { names: string[]; at: number } | undefined;
  let watching: (() => void) | undefined;
  function remember(e: FsEnv, names: string[]): void {
    watching ??= e.cache.onChange((path) => {
      const rel = e.fsDir === '' ? path : path.startsWith(`${e.fsDir}/`) ? path.slice(e.fsDir.length + 1) : path === e.fsDir ? '' : undefined;
      if (rel !== undefined && !rel.includes('/')) known = undefined;
    });
    known = { names, at: performance.now() };
  }

  async function paths(e: FsEnv): Promise<string[]> {
    let list;
    try {
      list = await e.vfs.readdir(e.fsDir);
    } catch {
      return [];
    }
    return list.filter((d) => d.kind === 'file' && d.name.endsWith('.json') && d.name.length > 5).map((d) => inFsDir(e, d.name));
  }

  let feedMade: ChangeFeed | undefined;
  function feed(e: FsEnv): ChangeFeed {
    return (feedMade ??= ChangeFeed.for(e, idField, () => paths(e)));
  }
  /** Without a mocks folder (yet: it may appear later), a feed of announced changes only. */
  let detached: ChangeFeed | undefined;
  /** The feed: over the mocks folder's files, else the detached one. */
  async function feedNow(): Promise<ChangeFeed> {
    if (!files.mode()) await files.ready;
    const mode = files.mode();
    return mode ? feed(mode.env) : (detached ??= ChangeFeed.detached(idField));
  }

  const listings = createFolderListings();

  /** Runs `fn` on `v`'s collection in its write queue. */
  function write<T>(v: CollectionVersion, fn: (tx: StoreTransaction) => T): Promise<T> {
    const e = files.mode()!.env;
    feed(e); // writes are announced from the first one on
    return enqueueMutation(e, v.entry.path, idField, (scope) => {
      const tx = new ScopedTransaction(scope, idField);
      try {
        return fn(tx);
      } catch (err) {
        tx.rollback();
        throw err;
      }
    });
  }

  const store: AnnouncingStore = {
    idField,
    relations,

    peek: peekVersion,
    open: openVersion,

    async names() {
      const e = await env();
      if (known !== undefined && (e.vfs.exclusive || performance.now() - known.at < LOOKUP_TTL_MS)) return known.names.slice();
      const out: string[] = [];
      for (const path of await paths(e)) {
        const entry = await e.cache.entry(path).catch(() => null);
        if (entry?.array !== undefined && isCollection(entry.array)) out.push(path.slice(e.fsDir ? e.fsDir.length + 1 : 0, -5));
      }
      out.sort();
      remember(e, out);
      return out.slice();
    },

    async namesNextTo(of) {
      const v = of instanceof CollectionVersion ? of : typeof of === 'string' ? (peekVersion(of) ?? (await openVersion(of))) : await openVersion(of.name);
      if (v === null) return [];
      const e = files.mode()!.env;
      const path = v.entry.path;
      const base = path.slice(path.lastIndexOf('/') + 1);
      const own = base.toLowerCase().endsWith('.json') ? base.slice(0, -5) : base;
      return (await listings.jsonNamesIn(e, path.slice(0, Math.max(0, path.lastIndexOf('/'))))).filter((n) => n !== own);
    },

    async documents() {
      const e = await env();
      const out: Record<string, unknown> = {};
      for (const d of await e.vfs.readdir(e.fsDir)) {
        if (d.kind !== 'file' || !d.name.toLowerCase().endsWith('.json')) continue;
        const key = `/${encodeURIComponent(d.name.slice(0, -5))}`;
        const target = lookupTarget(key);
        const entry = target ? await e.cache.lookupEntry(key, target) : null;
        if (!entry || !entry.isJson) continue;
        try {
          out[d.name.slice(0, -5)] = entry.array ?? JSON.parse(new TextDecoder().decode(entry.bytes));
        } catch {
          // malformed JSON on disk: left out
        }
      }
      return out;
    },

    async all(name) {
      await env();
      return (await openVersion(name))?.items;
    },

    async get(name, id) {
      return (await collection(name)).get(id);
    },

    async list(name, query) {
      return (await collection(name)).list(query);
    },

    insert: (name, item) => store.transaction(name, (tx) => tx.insert(item)),
    update: (name, id, changes, options) => store.transaction(name, (tx) => tx.update(id, changes, options)),
    remove: (name, id) => store.transaction(name, (tx) => tx.remove(id)),

    transaction(of, fn) {
      if (of instanceof CollectionVersion) return write(of, fn);
      const name = typeof of === 'string' ? of : of.name;
      const v = peekVersion(name);
      return v ? write(v, fn) : collection(name).then((found) => write(found, fn));
    },

    onChange(listener) {
      let stop: (() => void) | undefined;
      let stopped = false;
      void feedNow().then((f) => {
        if (!stopped) stop = f.on(listener).stop;
      }, () => undefined);
      return () => {
        stopped = true;
        stop?.();
      };
    },

    async subscribe(listener) {
      const { stop, ready } = (await feedNow()).on(listener);
      await ready;
      return stop;
    },

    announce(changes) {
      // No feed yet: nobody listens. Listeners that came while there was no mocks folder are on the detached one.
      feedMade?.announce(changes);
      detached?.announce(changes);
    },
  };
  return store;
}
