/**
 * The collection store as a generated `Api` type names its collections (docs/contract.md,
 * `mockyard export db.json --types api.d.ts`): `store.all('todos')` → `readonly Todo[]`,
 * `store.insert('todos', …)` checks the item. Types only: the store is the same object
 * (contract.ts); without collections in `Api` it is `CollectionStore` as before.
 */
import type { CollectionStore, ListQuery } from './contract.js';

type Id = string | number;

/** The store's methods on named collections, typed by `C` (collection name → item type). */
export interface TypedCollectionStore<C> extends Omit<CollectionStore, 'all' | 'get' | 'list' | 'insert' | 'update' | 'remove'> {
  all<N extends keyof C & string>(name: N): Promise<readonly C[N][] | undefined>;
  get<N extends keyof C & string>(name: N, id: Id): Promise<C[N] | undefined>;
  list<N extends keyof C & string>(name: N, query?: ListQuery): Promise<{ readonly items: C[N][]; readonly total: number }>;
  /** The id may be left out (the store assigns one). */
  insert<N extends keyof C & string>(name: N, item: NewItem<C[N]>): Promise<C[N]>;
  update<N extends keyof C & string>(name: N, id: Id, changes: Partial<C[N]>, options?: { replace?: boolean }): Promise<C[N] | undefined>;
  remove<N extends keyof C & string>(name: N, id: Id): Promise<C[N] | undefined>;
}

/** An item to insert: its `id` optional. */
export type NewItem<T> = T extends { id: infer I } ? Omit<T, 'id'> & { id?: I } : T;

/** `Api['collections']`, when the Api type names them. */
export type CollectionsOf<Api> = Api extends { collections: infer C extends object } ? C : never;

/** The store `req.app.store` is for `Api`. */
export type StoreFor<Api> = [CollectionsOf<Api>] extends [never] ? CollectionStore : TypedCollectionStore<CollectionsOf<Api>>;
