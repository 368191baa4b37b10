/**
 * What the devtools' Data tab sees of a schema-first GraphQL API's state (schema-first.ts):
 * layers.ts registers each pipeline's, keyed by that pipeline's collection store (the engine's
 * own, a session's), as it does the OpenAPI backend's resources (openapi-backend/resources-view.ts).
 * Each entity type (an object type with an `id`: `Post`) is a collection of its live entities,
 * with the values GraphQL answers for its scalar and enum fields (seeded ones, or what a write
 * set). Writes take the path the schema's own mutations take (`createPost`, `updatePost`,
 * `deletePost`: the same ids, the same state), validated by the SDL's field types: a value a
 * field cannot hold, a field the type does not have or an object field is a 400 naming it.
 * No import of `graphql` here: the admin routes read this without loading GraphQL.
 */

type Item = Record<string, unknown>;

export interface SchemaFirstType {
  /** The type's name (`Post`). */
  readonly name: string;
  count(): number;
  /** The live entities from `offset` (only those are drawn). */
  slice(offset: number, limit: number): Item[];
  all(): Item[];
  get(id: string): Item | undefined;
  /** A new entity (its `id` when given and free, else the next one): the path of `create…` mutations. */
  insert(values: Item): Item;
  /** Fields set on an entity (`replace`: only these stay set, the others read their seeded values again): the path of `update…` mutations. Undefined: no such entity. */
  update(id: string, values: Item, replace: boolean): Item | undefined;
  /** Takes an entity out (the path of `delete…` mutations); false when there was none. */
  remove(id: string): boolean;
  /** Every entity replaced by `items` (validated first: nothing changes on a 400). */
  replaceAll(items: readonly unknown[]): number;
  /** Back to the seed: ids "1"…"10", nothing set. */
  reset(): void;
}

export interface SchemaFirstTypes {
  /** The entity types of the schema as it is now (the SDL file read again when it changed). */
  list(): Promise<SchemaFirstType[]>;
  /** Every type back to its seed (`POST reset`, the page's *Reset everything*). */
  resetAll(): void;
}

const views = new WeakMap<object, Promise<SchemaFirstTypes | undefined>>();

export function registerSchemaFirstTypes(store: object, types: Promise<SchemaFirstTypes | undefined>): void {
  views.set(store, types);
}

/** The schema-first types of the pipeline whose collection store is `store` (undefined: no schema-first GraphQL). */
export function schemaFirstTypesOf(store: object): Promise<SchemaFirstTypes | undefined> {
  return views.get(store) ?? Promise.resolve(undefined);
}
