/**
 * The store's change events: which items of which collection were created, updated or removed,
 * whatever made the change.
 *
 *   - writes through the store (REST collection routes, GraphQL mutations, `req.app.store`):
 *     writes.ts hands each committed batch over (`committed`), with the array before and after;
 *   - everything else that changes a collection file (file-mode PUT/PATCH/DELETE of the whole
 *     file, `req.app.fs` writes, an editor or git behind the server's back, another tab on
 *     IndexedDB): the Vfs reports the path (`onChange`, and `watch` where files change behind
 *     our back); the file is read again in its queue, after the write in progress, and compared
 *     with the last version seen (a file caught half-written, not a JSON array, is skipped).
 *
 *   - a backend whose collections are no files (the OpenAPI backend's in-memory state): it
 *     announces what its writes changed (`announce`, through the store of its pipeline). A store
 *     without a mocks folder has a feed of that kind only (`detached`).
 *
 * Items are compared by id: an id that appears is `created`, one that goes `removed`, one whose
 * item is another object with other content `updated` (stored items are replaced, never
 * mutated, so an unchanged item is the same object and costs nothing). Nothing is kept or
 * compared while nobody listens; the first listener takes a snapshot of every collection.
 */
import { relativeToFsDir, type FsEnv } from '../file-cache/fs-call.js';
import { idKeyOf } from './item-id.js';
import type { ChangeListener, Item, StoreChange } from '../store-contract/contract.js';
import { isObj } from '../../core/json-object.js';

const feeds = new WeakMap<FsEnv, ChangeFeed>();

/** The change feed of a file-mode environment, when a store made one. */
export function feedOf(env: FsEnv): ChangeFeed | undefined {
  return feeds.get(env);
}

export class ChangeFeed {
  private readonly listeners = new Set<ChangeListener>();
  /** Last version of each collection seen while someone listens (Vfs path → array). */
  private readonly seen = new Map<string, readonly unknown[]>();
  private readonly watches = new Map<string, () => void>();
  private stopChanges: (() => void) | undefined;

  private constructor(
    /** Undefined: no files behind the feed (`detached`), only what is announced. */
    private readonly fsEnv: FsEnv | undefined,
    private readonly idField: string,
    /** Every collection's Vfs path (for the first listener's snapshot). */
    private readonly paths: () => Promise<string[]>,
  ) {}

  static for(env: FsEnv, idField: string, paths: () => Promise<string[]>): ChangeFeed {
    let feed = feeds.get(env);
    if (!feed) feeds.set(env, (feed = new ChangeFeed(env, idField, paths)));
    return feed;
  }

  /** A feed with no files behind it: its changes are only those announced. */
  static detached(idField: string): ChangeFeed {
    return new ChangeFeed(undefined, idField, () => Promise.resolve([]));
  }

  private get env(): FsEnv {
    return this.fsEnv!; // only the file-watching paths read it, and those run for a feed over files
  }

  get listening(): boolean {
    return this.listeners.size > 0;
  }

  /** Adds a listener; resolves the stop function once the snapshot it compares against is taken. */
  on(listener: ChangeListener): { stop: () => void; ready: Promise<void> } {
    const first = this.listeners.size === 0;
    this.listeners.add(listener);
    let ready = Promise.resolve();
    if (first && this.fsEnv) {
      this.stopChanges = this.env.vfs.onChange((path) => this.reported(path));
      ready = this.snapshot();
    }
    return {
      ready,
      stop: () => {
        if (!this.listeners.delete(listener) || this.listeners.size > 0) return;
        this.stopChanges?.();
        this.stopChanges = undefined;
        for (const stop of this.watches.values()) stop();
        this.watches.clear();
        this.seen.clear();
      },
    };
  }

  private async snapshot(): Promise<void> {
    for (const path of await this.paths().catch(() => [] as string[])) {
      if (this.seen.has(path)) continue;
      const entry = await this.env.cache.entry(path).catch(() => null);
      if (entry?.array && this.listening && !this.seen.has(path)) this.keep(path, entry.array);
    }
  }

  private keep(path: string, items: readonly unknown[]): void {
    this.seen.set(path, items);
    if (!this.watches.has(path) && this.env.vfs.watch && !this.env.vfs.exclusive) {
      const stop = this.env.vfs.watch(path, () => this.reported(path));
      if (stop) this.watches.set(path, stop);
    }
  }

  /** A batch of store writes was stored. */
  committed(path: string, before: readonly unknown[], after: readonly unknown[]): void {
    if (!this.listening) return;
    this.compare(path, this.seen.get(path) ?? before, after);
  }

  /** The Vfs says `path` (or, `''`, anything) may have changed: compare in the file's queue. */
  private reported(path: string): void {
    if (!this.listening) return;
    const paths = path === '' || !path.endsWith('.json') ? [...this.seen.keys()] : [path];
    for (const p of paths) {
      void this.env.queue.run(p, async () => {
        if (!this.listening) return;
        const entry = await this.env.cache.entry(p).catch(() => null);
        // A file that is there but holds no array (an editor's write caught half-way: truncated,
        // or cut mid-item) is no version of the collection: wait for its next change. A file
        // that is gone has no items left.
        if (entry !== null && entry.array === undefined) return;
        const after = entry?.array ?? [];
        const before = this.seen.get(p);
        if (before === undefined && entry === null) return;
        this.compare(p, before ?? [], after);
      });
    }
    if (path === '' && this.listening) void this.snapshot();
  }

  private compare(path: string, before: readonly unknown[], after: readonly unknown[]): void {
    this.keep(path, after);
    if (before === after) return;
    const rel = relativeToFsDir(this.env, path);
    const collection = rel.endsWith('.json') ? rel.slice(0, -5) : rel;
    const old = new Map<string, Item>();
    for (const item of before) {
      const id = idKeyOf(item, this.idField);
      if (id !== undefined && !old.has(id)) old.set(id, item as Item);
    }
    const changes: StoreChange[] = [];
    const now = new Set<string>();
    for (const item of after) {
      const id = idKeyOf(item, this.idField);
      if (id === undefined || now.has(id) || !isObj(item)) continue;
      now.add(id);
      const was = old.get(id);
      if (was === undefined) changes.push({ collection, type: 'created', id, item });
      else if (was !== item && JSON.stringify(was) !== JSON.stringify(item)) changes.push({ collection, type: 'updated', id, item, previous: was });
    }
    for (const [id, item] of old) if (!now.has(id)) changes.push({ collection, type: 'removed', id, item });
    this.deliver(changes);
  }

  /** Changes a backend made to collections that are no files (the OpenAPI backend's state), told to the listeners as they are. */
  announce(changes: readonly StoreChange[] | (() => readonly StoreChange[])): void {
    if (this.listening) this.deliver(typeof changes === 'function' ? changes() : changes); // a function: worked out only when someone listens
  }

  private deliver(changes: readonly StoreChange[]): void {
    for (const change of changes) {
      for (const l of this.listeners) {
        try {
          l(change);
        } catch {
          // A listener's failure must not fail the write that already happened.
        }
      }
    }
  }
}
