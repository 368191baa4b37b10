/**
 * The collection store: the collections of the mocks folder (JSON arrays of objects, one file
 * each: `posts.json`, or the `posts` key of a db.json) as a service every layer and handler can
 * use — get, list with a query, insert, update, remove, a transaction, change events.
 *
 * It sits on the files layer's caches and per-file write queue (file mode's `FsEnv`), so it
 * always agrees with what REST serves, and its writes are the collections layer's writes
 * (writes.ts): one queue per file, grouped, atomic; nothing races. Handlers get it as
 * `req.app.store`; the GraphQL layer resolves every query and mutation with it.
 *
 * Names: a collection is named by its file below the mocks folder without `.json` (`posts`,
 * `v1/users`). `names()` lists the JSON array files at the top of the folder (the keys of a
 * db.json). Ids are matched as the collections layer matches them (item-id.ts: `1` and `"1"`).
 */
import { HttpError } from '../../core/errors.js';
import type { FileEntry } from '../fs/file-cache.js';
import { inFsDir, type FsEnv } from '../fs/fs-call.js';
import type { FilesLayer } from '../fs/layer.js';
import { idKeyOf, indexOf, nextId } from './item-id.js';
import { assertNoForbiddenKeys } from '../../core/json-safety.js';
import { ChangeFeed } from './change-feed.js';
import type { ChangeListener, CollectionStore, Item, ListQuery, ListResult, StoreTransaction } from './contract.js';
import { isCollection, runListQuery } from './list-query.js';
import { LOOKUP_TTL_MS } from '../fs/file-cache.js';
import type { RelationNaming } from './relations.js';
import { enqueueMutation, type MutationScope } from './writes.js';
import { collectionFile } from './collection-file.js';

export type { Item, StoreChange, ChangeListener, ListQuery, ListResult } from './contract.js';

export type { CollectionStore, StoreTransaction } from './contract.js';

function isItem(v: unknown): v is Item {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}


function keyOf(name: string): string {
  return `/${name.split('/').map(encodeURIComponent).join('/')}`;
}

export interface StoreSources {
  files: FilesLayer;
  idField: string;
  relations: RelationNaming;
}

export function createCollectionStore({ files, idField, relations }: StoreSources): CollectionStore {
  async function env(): Promise<FsEnv> {
    let mode = files.mode();
    if (!mode) {
      await files.ready;
      mode = files.mode();
    }
    if (!mode) throw new HttpError(404, 'No collections: file routing is off (the mocks folder does not exist)');
    return mode.env;
  }

  async function entryOf(e: FsEnv, name: string): Promise<FileEntry | null> {
    const entry = await collectionFile(e, keyOf(name));
    return entry !== null && entry.path.endsWith('.json') ? entry : null;
  }

  async function collection(name: string): Promise<{ env: FsEnv; entry: FileEntry }> {
    const e = await env();
    const entry = await entryOf(e, name);
    if (!entry) throw new HttpError(404, `No collection ${JSON.stringify(name)}`);
    return { env: e, entry };
  }

  /**
   * The collection names, kept until the Vfs reports a change in the mocks folder (on drivers
   * whose files change behind our back, disk, for at most the lookup TTL, as file lookups are).
   */
  let known: { names: string[]; at: number } | undefined;
  let watching: (() => void) | undefined;
  function remember(e: FsEnv, names: string[]): void {
    watching ??= e.vfs.onChange((path) => {
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

  function feed(e: FsEnv): ChangeFeed {
    return ChangeFeed.for(e, idField, () => paths(e));
  }

  /**
   * The operations of one transaction on the batch's working copy, each with its undo: a
   * transaction that throws is rolled back before the next one in the batch runs.
   */
  function scopeTx(scope: MutationScope, undo: Array<() => void>): StoreTransaction {
    const find = (id: string | number) => scope.ids.find(scope.items, String(id));
    return {
      get items() {
        return scope.items as Item[];
      },
      get(id) {
        const i = find(id);
        return i === -1 ? undefined : (scope.items[i] as Item);
      },
      insert(input) {
        if (!isItem(input)) throw new HttpError(400, 'A collection item must be a JSON object');
        assertNoForbiddenKeys(input, 'item');
        let item: Item = { ...input };
        if (item[idField] === undefined || item[idField] === null) {
          const assigned = nextId(scope.items, idField);
          item = { [idField]: assigned, ...item, [idField]: assigned }; // the id first, as json-server writes it
        }
        const id = idKeyOf(item, idField);
        if (id === undefined) throw new HttpError(400, `The "${idField}" of an item must be a string or a number`);
        if (scope.ids.find(scope.items, id) !== -1) throw new HttpError(409, `An item with ${idField} ${JSON.stringify(id)} already exists`);
        scope.items.push(item);
        scope.ids.appended(id, scope.items.length - 1);
        scope.changed();
        undo.push(() => scope.items.pop());
        return item;
      },
      update(id, changes, options) {
        if (!isItem(changes)) throw new HttpError(400, 'A collection item must be a JSON object');
        assertNoForbiddenKeys(changes, 'item');
        const i = find(id);
        if (i === -1) return undefined;
        const current = scope.items[i] as Item;
        const item = options?.replace ? { ...changes, [idField]: current[idField] } : { ...current, ...changes, [idField]: current[idField] };
        scope.items[i] = item;
        scope.changed();
        undo.push(() => (scope.items[i] = current));
        return item;
      },
      remove(id) {
        const i = find(id);
        if (i === -1) return undefined;
        const [removed] = scope.items.splice(i, 1);
        scope.changed(true);
        undo.push(() => scope.items.splice(i, 0, removed));
        return removed as Item;
      },
    };
  }

  const store: CollectionStore = {
    idField,
    relations,

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

    async all(name) {
      const e = await env();
      const entry = await entryOf(e, name);
      return entry ? (entry.array as Item[]) : undefined;
    },

    async get(name, id) {
      const { entry } = await collection(name);
      const items = entry.array!;
      const i = indexOf(items, idField).find(items, String(id));
      return i === -1 ? undefined : (items[i] as Item);
    },

    async list(name, query) {
      const { entry } = await collection(name);
      return runListQuery(entry.array!, idField, query);
    },

    insert: (name, item) => store.transaction(name, (tx) => tx.insert(item)),
    update: (name, id, changes, options) => store.transaction(name, (tx) => tx.update(id, changes, options)),
    remove: (name, id) => store.transaction(name, (tx) => tx.remove(id)),

    async transaction(name, fn) {
      const { env: e, entry } = await collection(name);
      feed(e); // writes are announced from the first one on
      return enqueueMutation(e, entry.path, idField, (scope) => {
        const undo: Array<() => void> = [];
        try {
          return fn(scopeTx(scope, undo));
        } catch (err) {
          for (let i = undo.length - 1; i >= 0; i--) undo[i]!();
          if (undo.length > 0) scope.changed(true); // positions may have moved and back: rebuild the id index
          throw err;
        }
      });
    },

    onChange(listener) {
      let stop: (() => void) | undefined;
      let stopped = false;
      void env().then((e) => {
        if (!stopped) stop = feed(e).on(listener).stop;
      }, () => undefined);
      return () => {
        stopped = true;
        stop?.();
      };
    },

    async subscribe(listener) {
      const e = await env();
      const { stop, ready } = feed(e).on(listener);
      await ready;
      return stop;
    },
  };
  return store;
}
