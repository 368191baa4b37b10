/**
 * The backend's collections kept in a folder (`openapi: { document, state: './state' }`), as
 * ordinary collection files the user may edit: one JSON array per collection scope, named by its
 * path (`/pets` → `pets.json`, `/users/{userId}/orders` of user 7 → `users/7/orders.json`; the
 * layout `mockyard import` writes). A file that does not exist yet is written with the generated
 * population on first use; afterwards the file is the state, so a restart keeps it and an edit
 * behind the server's back is what the next request sees.
 *
 * Reads and writes go through the collection store (store/) over a files layer on the folder:
 * its caches notice outside edits (disk: stat re-checks), and a write is one store transaction
 * (the file's write queue, atomic). The layer's answer logic stays the in-memory one: a request
 * runs against the scope loaded from the file (`ScopeItems`), and what it changed there (items
 * added, replaced, removed) is applied to the file in the same transaction.
 *
 * Collections whose items have no id field, and singletons, stay in memory.
 */
import { HttpError } from '../../core/errors.js';
import type { KeyedQueue } from '../../core/keyed-queue.js';
import type { Logger } from '../../core/logger.js';
import { requestPathToVfs } from '../../vfs/path.js';
import type { Vfs } from '../../vfs/types.js';
import type { FilesFactory, FilesLayer } from '../file-cache/files-layer.js';
import type { CollectionStore, Item } from '../store-contract/contract.js';
import { createCollectionStore } from '../store/store.js';
import type { Collection } from './resources.js';
import { ScopeItems, type Scope } from './state.js';
import { isObj } from '../../core/json-object.js';

export interface StateFolderOptions {
  vfs: Vfs;
  /** Closed with the folder (a folder the backend opened by its name). */
  owned: boolean;
  queue: KeyedQueue;
  logger: Logger;
  bodyLimit: number;
  maxJsonDepth: number;
  /** Makes the files layer over the folder (the assembly hands `createFilesLayer`, layers.ts). */
  openFiles: FilesFactory;
}

export interface StateFolder {
  /** Whether a collection lives in the folder (it has an id field). */
  holds(c: Collection): boolean;
  /** The collection file's name for a scope (`users/7/orders`); 400 for a scope value no file can be named by. */
  nameOf(c: Collection, values: string[]): string;
  /** The scope as its file holds it now, or undefined when there is no file yet (nothing is written). */
  peek(name: string, c: Collection): Promise<Scope | undefined>;
  /** Runs `answer` against the scope as the file holds it (the population written first when there is no file). */
  read<T>(name: string, c: Collection, population: () => unknown[], answer: (scope: Scope) => T): Promise<T>;
  /** As `read`, in the file's write queue, storing what `answer` changed in the scope. */
  write<T>(name: string, c: Collection, population: () => unknown[], answer: (scope: Scope) => T): Promise<T>;
  readonly ready: Promise<unknown>;
  close(): Promise<void>;
}

const utf8 = new TextEncoder();

/** A scope over the file's items, keyed as the in-memory state keys them (the id as text). */
function scopeOf(c: Collection, items: readonly Item[]): Scope {
  const scope: Scope = { items: new ScopeItems(), next: 1, created: items.length };
  items.forEach((item, i) => {
    const id = item[c.idField!];
    scope.items.set(id === undefined || id === null ? `\u0000${i}` : String(id), item);
  });
  return scope;
}

export function createStateFolder(options: StateFolderOptions): StateFolder {
  const { vfs, logger } = options;
  // The folder is made first, so the files layer finds it.
  const opened: Promise<FilesLayer> = vfs.mkdir('').then(() =>
    options.openFiles({
      name: 'openapi-state',
      vfs,
      fsDir: '',
      bodyLimit: options.bodyLimit,
      maxJsonDepth: options.maxJsonDepth,
      logger,
      queue: options.queue,
      pagination: null,
      filters: null,
    }),
  );
  const ready = opened.then((files) => files.ready);
  /** One store per id field (the store finds items by its own). */
  const stores = new Map<string, CollectionStore>();
  const storeFor = async (idField: string): Promise<CollectionStore> => {
    const files = await opened;
    let s = stores.get(idField);
    if (!s) stores.set(idField, (s = createCollectionStore({ files, idField, relations: { convention: 'both', declared: {} } })));
    return s;
  };
  /** Writing a missing file's population, once per name at a time. */
  const creating = new Map<string, Promise<void>>();

  async function itemsOf(name: string, c: Collection, population: () => unknown[]): Promise<readonly Item[]> {
    await ready;
    const store = await storeFor(c.idField!);
    for (let attempt = 0; attempt < 2; attempt++) {
      const items = await store.all(name);
      if (items !== undefined) return items;
      let p = creating.get(name);
      if (!p) {
        const text = `${JSON.stringify(population().filter(isObj), null, 2)}\n`;
        p = vfs.create(`${name}.json`, text).catch((err: { code?: string }) => {
          if (err?.code !== 'EEXIST') throw err; // written meanwhile (another request, the user): theirs stands
        });
        p = p.finally(() => creating.delete(name));
        creating.set(name, p);
      }
      await p;
    }
    throw new HttpError(500, `The state file ${name}.json is not a JSON array of objects`, { expose: true });
  }

  return {
    ready,
    holds: (c) => c.idField !== undefined,
    nameOf(c, values) {
      let k = 0;
      const path = c.key.split('/').map((seg) => (/^\{[^}]+\}$/.test(seg) ? encodeURIComponent(values[k++] ?? '') : encodeURIComponent(seg))).join('/');
      try {
        const p = requestPathToVfs(path);
        if (p.path === '') throw new Error('empty');
        // A file system names a file or folder in at most 255 bytes (the last one with `.json`).
        const segs = p.path.split('/');
        if (segs.some((seg, i) => utf8.encode(seg).length + (i === segs.length - 1 ? 5 : 0) > 255)) throw new Error('too long');
        return p.path;
      } catch {
        throw new HttpError(400, `No state file can be named for ${c.key} with ${JSON.stringify(values)}`, { expose: true });
      }
    },
    async peek(name, c) {
      await ready;
      const items = await (await storeFor(c.idField!)).all(name);
      return items === undefined ? undefined : scopeOf(c, items);
    },
    async read(name, c, population, answer) {
      return answer(scopeOf(c, await itemsOf(name, c, population)));
    },
    async write(name, c, population, answer) {
      await itemsOf(name, c, population);
      const idField = c.idField!;
      return (await storeFor(idField)).transaction(name, (tx) => {
        const scope = scopeOf(c, tx.items);
        const before = new Map(scope.items.keys().map((id) => [id, scope.items.get(id)]));
        const result = answer(scope);
        for (const id of scope.items.keys()) {
          const item = scope.items.get(id);
          const was = before.get(id);
          if (!isObj(item) || item === was) continue;
          if (was === undefined) tx.insert(item);
          else tx.update(id, item, { replace: true });
        }
        for (const id of before.keys()) if (!scope.items.has(id)) tx.remove(id);
        return result;
      });
    },
    async close() {
      (await opened.catch(() => undefined))?.close?.();
      if (options.owned) await vfs.close?.();
    },
  };
}
