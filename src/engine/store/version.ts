/**
 * One version of a collection, as the store hands it out (`store.peek` / `store.open`): its items,
 * get by id, the query run on it. Stored arrays are never mutated (a write stores a new array,
 * and the file cache a new entry), so a version never changes: a new object stands for the
 * collection after any change, and a layer may memoise answers on the object it got (the
 * collections layer keeps its json-server answers per version and URL).
 *
 * One object per cached entry (made on first use, kept as long as the entry lives), so the
 * synchronous `peek` path costs a lookup, not an allocation.
 */
import type { FileEntry } from '../file-cache/file-cache.js';
import type { CollectionSnapshot, Item, ListQuery, ListResult, CollectionQuery, QueryResult } from '../store-contract/contract.js';
import { idKeyOf, indexOf, type IdIndex } from './item-id.js';
import { listEntry, queryEntry } from './scan.js';

export class CollectionVersion implements CollectionSnapshot {
  /** The items as stored (never mutate them). */
  readonly items: readonly Item[];
  /** The id index of `items` (item-id.ts: one per stored array), taken on first use. */
  private ids: IdIndex | undefined;

  constructor(
    /** The collection's name: its file below the mocks folder without `.json` (`posts`, `v1/users`). */
    readonly name: string,
    /** Its file below the mocks folder (`posts.json`; what observers are told answered). */
    readonly file: string,
    /** The file cache's entry (the store's own: its Vfs path, the scan's columns and memos). */
    readonly entry: FileEntry,
    private readonly idField: string,
    /** Whether writes to it are queued and not yet stored (writes.ts). */
    private readonly pending: () => boolean,
  ) {
    this.items = entry.array as Item[];
    this.ids = undefined;
  }

  /** The item with this id (`1` and `"1"` alike), or undefined. */
  get(id: string | number): Item | undefined {
    const items = this.items;
    const i = (this.ids ??= indexOf(items, this.idField)).find(items, typeof id === 'string' ? id : String(id));
    return i === -1 ? undefined : items[i];
  }

  /** The items whose `field` names `id` (the children of one parent item), in stored order. */
  referring(field: string, id: string): Item[] {
    return this.items.filter((item) => idKeyOf(item, field) === id);
  }

  /** A query (json-server's syntax, parsed) through the compiled scan, memoised on this version. */
  query(q: CollectionQuery): QueryResult {
    return queryEntry(this.entry, q);
  }

  /** `store.list`'s query on this version, through the same scan. */
  list(query?: ListQuery): ListResult {
    return listEntry(this.entry, this.idField, query);
  }

  /** True when no write to the collection is queued that this version does not show yet. */
  get settled(): boolean {
    return !this.pending();
  }
}
