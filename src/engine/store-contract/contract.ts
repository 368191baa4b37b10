/**
 * engine/store-contract/ (the engine's contract floor): the collection store's contract, the types
 * handlers (`req.app.store`), GraphQL and the layers program against, and the store's view typed
 * by a generated `Api` (typed-store.ts). Types only, importing nothing, so that `engine/types.ts`
 * (`MockApiApp.store`) and every layer can name the store without reaching the store (the
 * service, engine/store/store.ts) or the file cache it is built on. The query a snapshot runs
 * (its implementation: store/query.ts) and the relation naming (THE relation rule:
 * store/relations.ts) are declared here for the same reason.
 */

export type Item = Record<string, unknown>;

/**
 * A filter on one item. The compiled scan may inline it when it carries `simple` (file-cache/filters.ts
 * `Predicate` says what it holds; typed loosely here so that the store's contract names no
 * file-mode type).
 */
export type ItemTest = ((item: unknown) => boolean) & { readonly simple?: unknown };

export interface CollectionQuery {
  /** Filters that always apply, as one test (the AND of `filters`). */
  readonly test: ((item: unknown) => boolean) | undefined;
  /** Plain equality filters: dropped when no item has the field (json-server 0.17). */
  readonly equals: ReadonlyArray<{ readonly path: readonly string[]; readonly test: ItemTest }>;
  /**
   * The filters that always apply, one predicate each (`test` is their AND), those on a top-level
   * field with what the compiled scan (file-cache/scan.ts) needs to inline them (`simple`).
   */
  readonly filters: readonly ItemTest[];
  /** What selects the items (two queries with the same signature select the same items; '' = no filter). */
  readonly signature: string;
  readonly sort: ReadonlyArray<{ readonly path: readonly string[]; readonly desc: boolean }>;
  /** As Array.prototype.slice (NaN → 0, negative from the end). */
  readonly slice: { readonly start: number; readonly end: number | undefined } | undefined;
  /** `_page` with `_per_page` (1.x): answer the envelope. */
  readonly envelope: { readonly page: number; readonly perPage: number } | undefined;
}

export interface QueryResult {
  items: unknown[];
  total: number;
  /** 1.x's page envelope (`_page` with `_per_page`), when asked for. */
  envelope?: { first: number; prev: number | null; next: number | null; last: number; pages: number; items: number; data: unknown[] };
}

export type RelationConvention = 'json-server' | 'json-graphql-server' | 'both';

export interface DeclaredRelations {
  /** Per child collection: field → parent collection. */
  readonly [collection: string]: { readonly [field: string]: string };
}

export interface RelationNaming {
  readonly convention: RelationConvention | 'none';
  readonly declared: DeclaredRelations;
  /** json-server's `foreignKeySuffix` (`_id`): replaces the convention's suffixes. */
  readonly suffix?: string;
}

export interface StoreChange {
  /** The collection's name (its file below the mocks folder, without `.json`: `posts`, `v1/users`). */
  readonly collection: string;
  readonly type: 'created' | 'updated' | 'removed';
  /** The item's id as text. */
  readonly id: string;
  /** The item as stored now (`removed`: as it was). */
  readonly item: Item;
  /** `updated`: the item before. */
  readonly previous?: Item;
}

export type ChangeListener = (change: StoreChange) => void;

export interface ListQuery {
  readonly filter?: Readonly<Record<string, unknown>>;
  readonly sort?: { readonly field: string; readonly order?: 'asc' | 'desc' };
  readonly offset?: number;
  readonly limit?: number;
}

export interface ListResult {
  readonly items: Item[];
  readonly total: number;
}

/** Operations on one collection inside a transaction (all applied in one write, in order). */
export interface StoreTransaction {
  /** The collection as it stands in the transaction (never mutate the items). */
  readonly items: readonly Item[];
  get(id: string | number): Item | undefined;
  insert(item: Item): Item;
  update(id: string | number, changes: Item, options?: { replace?: boolean }): Item | undefined;
  remove(id: string | number): Item | undefined;
  /** Removes every item `test` picks (one pass); returns them. */
  removeWhere(test: (item: Item) => boolean): Item[];
}

/**
 * One version of a collection (`peek`/`open`): never changes; any write makes a new one, so an
 * answer computed from it may be kept with it (compare the objects).
 */
export interface CollectionSnapshot {
  /** The collection's name (`posts`, `v1/users`). */
  readonly name: string;
  /** Its file below the mocks folder (`posts.json`). */
  readonly file: string;
  /** The items as stored (never mutate them). */
  readonly items: readonly Item[];
  get(id: string | number): Item | undefined;
  /** The items whose `field` holds `id` (the children of one parent item), in stored order. */
  referring(field: string, id: string): Item[];
  /** A parsed query (json-server's syntax: collections/json-server-query.ts) through the compiled scan. */
  query(q: CollectionQuery): QueryResult;
  /** As `store.list` on this version. */
  list(query?: ListQuery): ListResult;
  /** False while writes to the collection are queued that this version does not show yet. */
  readonly settled: boolean;
}

export interface CollectionStore {
  /** The id field of every collection (`mock.collections.idField`, default `id`). */
  readonly idField: string;
  /** How relation fields are named (`mock.store.relations`). */
  readonly relations: RelationNaming;
  /**
   * The collection `name` now, without waiting: its snapshot; null when there is certainly none;
   * undefined when only `open` can tell (not read yet). `name` is a collection name (`v1/posts`)
   * or a request path below the prefix (`/v1/posts`, percent-encoded as in the URL).
   */
  peek(name: string): CollectionSnapshot | null | undefined;
  /** The collection `name` (as `peek` takes it), read when needed; null when there is none. */
  open(name: string): Promise<CollectionSnapshot | null>;
  /** The names (without `.json`) of the other JSON files in the folder of a collection (named, or a snapshot of it). */
  namesNextTo(collection: string | CollectionSnapshot): Promise<string[]>;
  /** Every JSON file at the top of the mocks folder, parsed, by name (json-server's `GET /db`). */
  documents(): Promise<Record<string, unknown>>;
  /** The collections (JSON arrays of objects) at the top of the mocks folder, sorted. */
  names(): Promise<string[]>;
  /** The items of a collection as stored (never mutate them), or undefined when there is none. */
  all(name: string): Promise<readonly Item[] | undefined>;
  get(name: string, id: string | number): Promise<Item | undefined>;
  /** Filtered, sorted, sliced (list-query.ts); 404 when the collection does not exist. */
  list(name: string, query?: ListQuery): Promise<ListResult>;
  /** Appends an item (an id is assigned when missing: the largest number + 1, or a UUID); 409 on a taken id. */
  insert(name: string, item: Item): Promise<Item>;
  /** Merges `changes` into the item (or replaces it with `replace: true`); the id never moves. */
  update(name: string, id: string | number, changes: Item, options?: { replace?: boolean }): Promise<Item | undefined>;
  remove(name: string, id: string | number): Promise<Item | undefined>;
  /**
   * Runs `fn` in the collection's write queue: everything it does is stored in one write. The
   * collection is named, or given as a snapshot of it (`peek`/`open`: no second lookup); `fn`
   * sees the collection as it stands when its turn comes, whatever version the snapshot was.
   */
  transaction<T>(collection: string | CollectionSnapshot, fn: (tx: StoreTransaction) => T): Promise<T>;
  /**
   * Calls `listener` for every item created, updated or removed, whatever made the change (REST,
   * GraphQL, handlers, files edited behind the server's back). Returns the stop function.
   */
  onChange(listener: ChangeListener): () => void;
  /** As `onChange`, resolving once the store has taken the snapshot outside edits are compared with. */
  subscribe(listener: ChangeListener): Promise<() => void>;
}
