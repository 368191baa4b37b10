/**
 * The GraphQL schema derived from the collections, with json-graphql-server's conventions:
 *
 *   type Post { id: ID!, title: String!, views: Int!, user_id: ID!, User: User, Comments: [Comment] }
 *   type Query {
 *     Post(id: ID!): Post
 *     allPosts(page: Int, perPage: Int, sortField: String, sortOrder: String, filter: PostFilter): [Post]
 *     _allPostsMeta(page: Int, perPage: Int, filter: PostFilter): ListMetadata
 *   }
 *   type Mutation { createPost(…fields): Post, createManyPost(data: [PostInput]): [Post],
 *                   updatePost(id: ID!, …fields): Post, removePost(id: ID!): Post, deletePost(id: ID!): Post }
 *   type Subscription { postCreated: Post, postUpdated: Post, postRemoved: Post }
 *   input PostFilter { q: String, ids: [ID], <field>, <field>_lt/_lte/_gt/_gte (numbers, text,
 *                      dates), <field>_neq (all but booleans) }
 *
 * Field types come from the values (every value of a field: ID for the id, `*_id` and relation
 * fields; Boolean, Int, Float, String, Date for ISO timestamps, JSON for objects, lists of
 * those); a field is required (`!`) when every item has a value. Relations (store/relations.ts:
 * `<name>_id` and `<name>Id`, or declared) add a to-one field on the child (`Post.User`) and a
 * to-many field on the parent (`User.Posts`).
 *
 * Resolvers read the collections through a per-request view (RequestData: one consistent set of
 * arrays, indexed by id and by foreign key once per array version) and write through the store.
 * A schema is rebuilt only when the shape of the data changes (a collection, a field or a type
 * appears or changes); a write that keeps the shape keeps the schema. It never loses a type or a
 * field while the server runs (SeenShapes: the shape read at start, then every shape since): a
 * collection emptied keeps its fields (optional) and relations, so a query valid at start stays valid.
 */
import {
  GraphQLBoolean, GraphQLFloat, GraphQLID, GraphQLInputObjectType, GraphQLInt, GraphQLList, GraphQLNonNull, GraphQLObjectType,
  GraphQLSchema, GraphQLString, type GraphQLFieldConfigMap, type GraphQLInputFieldConfigMap, type GraphQLInputType,
  type GraphQLOutputType, type GraphQLScalarType,
} from 'graphql';
import { indexOf, idKeyOf } from '../store/item-id.js';
import type { CollectionStore, Item, StoreChange } from '../store/store.js';
import { runListQuery } from '../store/list-query.js';
import { findRelations, relationStem, type Relation } from '../store/relations.js';
import { isValidName, namesOf, toOneField, type TypeNames } from './names.js';
import { DateScalar, isIsoDate, JsonScalar } from './scalars.js';

type Leaf = 'ID' | 'String' | 'Int' | 'Float' | 'Boolean' | 'Date' | 'JSON';
interface FieldShape {
  readonly name: string;
  readonly leaf: Leaf;
  readonly list: boolean;
  readonly required: boolean;
}

const shapes = new WeakMap<readonly unknown[], FieldShape[]>();

function leafOf(values: readonly unknown[]): Leaf {
  const every = (f: (v: unknown) => boolean) => values.every(f);
  if (every((v) => typeof v === 'boolean')) return 'Boolean';
  if (every(isIsoDate)) return 'Date';
  if (every((v) => typeof v === 'string')) return 'String';
  if (every((v) => Number.isInteger(v))) return 'Int';
  if (every((v) => typeof v === 'number' && Number.isFinite(v))) return 'Float';
  if (every((v) => v !== null && typeof v === 'object' && !Array.isArray(v))) return 'JSON';
  return 'String';
}

/** The fields of a collection from its items (memoised per array version). */
function shapeOf(items: readonly unknown[]): FieldShape[] {
  let shape = shapes.get(items);
  if (shape) return shape;
  const values = new Map<string, unknown[]>();
  for (const item of items) {
    for (const [k, v] of Object.entries(item as Item)) {
      let list = values.get(k);
      if (!list) values.set(k, (list = []));
      if (v !== null && v !== undefined) list.push(v);
    }
  }
  shape = [];
  for (const [name, vs] of values) {
    if (!isValidName(name)) continue;
    const required = vs.length === items.length;
    if (vs.length > 0 && vs.every(Array.isArray)) {
      const leaves = (vs as unknown[][]).flat();
      const leaf = leafOf(leaves);
      // Lists of objects are JSON as a whole (json-graphql-server's rule); empty lists: [Boolean], as it does.
      shape.push(leaf === 'JSON' || leaf === 'Date' ? { name, leaf: leaf === 'Date' ? 'String' : 'JSON', list: leaf === 'Date', required } : { name, leaf, list: true, required });
    } else {
      shape.push({ name, leaf: vs.length === 0 ? 'String' : leafOf(vs), list: false, required });
    }
  }
  shapes.set(items, shape);
  return shape;
}

const SCALARS: Record<Leaf, GraphQLScalarType> = { ID: GraphQLID, String: GraphQLString, Int: GraphQLInt, Float: GraphQLFloat, Boolean: GraphQLBoolean, Date: DateScalar, JSON: JsonScalar };

function typeOf(f: FieldShape, required: boolean): GraphQLOutputType & GraphQLInputType {
  const base = f.list ? new GraphQLList(SCALARS[f.leaf]) : SCALARS[f.leaf];
  return required ? new GraphQLNonNull(base) : base;
}

/** One request's consistent view of the collections (reloaded after each mutation it makes). */
export class RequestData {
  constructor(
    readonly store: CollectionStore,
    private readonly arrays: Map<string, readonly Item[]>,
  ) {}
  items(name: string): readonly Item[] {
    return this.arrays.get(name) ?? [];
  }
  /** Whether this view still holds exactly `arrays` (no mutation of this request changed it). */
  unchanged(arrays: ReadonlyMap<string, readonly Item[]> | undefined): boolean {
    return arrays !== undefined && sameArrays(arrays, this.arrays);
  }
  async reload(name: string): Promise<void> {
    const items = await this.store.all(name);
    if (items) this.arrays.set(name, items);
  }
}

/** Whether two views hold the same array for every collection. */
export function sameArrays(a: ReadonlyMap<string, readonly Item[]>, b: ReadonlyMap<string, readonly Item[]>): boolean {
  if (a.size !== b.size) return false;
  for (const [k, v] of a) if (b.get(k) !== v) return false;
  return true;
}

const groups = new WeakMap<readonly unknown[], Map<string, Map<string, Item[]>>>();

/** Children of `items` grouped by the text of `field` (once per array version). */
function groupBy(items: readonly Item[], field: string): Map<string, Item[]> {
  let byField = groups.get(items);
  if (!byField) groups.set(items, (byField = new Map()));
  let g = byField.get(field);
  if (!g) {
    g = new Map();
    for (const item of items) {
      const k = idKeyOf(item, field);
      if (k === undefined) continue;
      const list = g.get(k);
      if (list) list.push(item);
      else g.set(k, [item]);
    }
    byField.set(field, g);
  }
  return g;
}

function findById(items: readonly Item[], idField: string, id: unknown): Item | null {
  if (id === null || id === undefined) return null;
  const i = indexOf(items, idField).find(items, String(id));
  return i === -1 ? null : items[i]!;
}

/**
 * Arguments as stored: no undefined values (dates already arrive as ISO text); an `ID` argument
 * of a field whose stored values are integers (`user_id: 123`) is stored as a number again.
 */
function stored(args: Record<string, unknown>, c: Collection): Item {
  const out: Item = {};
  for (const [k, v] of Object.entries(args)) {
    if (v === undefined) continue;
    const shape = c.fields.find((f) => f.name === k);
    out[k] = typeof v === 'string' && shape?.leaf === 'Int' && !shape.list && /^-?\d{1,15}$/.test(v) ? Number(v) : v;
  }
  return out;
}

export interface ChangeStreams {
  /** An async iterator of the items of `collection` changed in that way (graphql subscriptions). */
  changes(collection: string, type: StoreChange['type']): Promise<AsyncIterableIterator<Item>>;
}

export interface DerivedSchema {
  readonly schema: GraphQLSchema;
  /** The shape the schema was built from (rebuilt only when it differs). */
  readonly signature: string;
  /** Collection per GraphQL type name. */
  readonly collections: ReadonlyMap<string, string>;
}

interface Collection {
  readonly name: string;
  readonly names: TypeNames;
  readonly fields: FieldShape[];
}

/**
 * The collections and fields a schema has had (by collection, by field), kept by the service so
 * that its schema only grows while the server runs: a collection emptied (every comment deleted)
 * or a field no item holds any more stays in the schema (its fields optional), so a query valid
 * before stays valid and answers `[]`/null.
 */
export type SeenShapes = Map<string, Map<string, FieldShape>>;

/** `fields` of collection `name` with the fields seen before and missing now (optional), and `seen` grown. */
function withSeen(seen: SeenShapes | undefined, name: string, fields: readonly FieldShape[]): FieldShape[] {
  if (seen === undefined) return fields as FieldShape[];
  let before = seen.get(name);
  if (before === undefined) seen.set(name, (before = new Map()));
  const out = [...fields];
  const now = new Set(fields.map((f) => f.name));
  for (const [field, shape] of before) if (!now.has(field)) out.push(shape.required ? { ...shape, required: false } : shape);
  for (const f of fields) before.set(f.name, f);
  return out;
}

export function signatureOf(store: CollectionStore, arrays: ReadonlyMap<string, readonly Item[]>, seen?: SeenShapes): { signature: string; collections: Collection[]; relations: Relation[] } {
  const collections: Collection[] = [];
  const taken = new Set<string>();
  const add = (name: string, fields: () => FieldShape[]) => {
    const names = namesOf(name);
    if (!names || taken.has(names.type) || taken.has(names.plural) || names.type === 'Query' || names.type === 'Mutation' || names.type === 'Subscription' || names.type === 'ListMetadata') return;
    taken.add(names.type).add(names.plural);
    collections.push({ name, names, fields: withSeen(seen, name, fields()) });
  };
  // An empty collection (`todos.json` holding `[]`, or every item deleted) still has its id: a type needs a field.
  for (const [name, items] of arrays) add(name, () => (items.length === 0 ? [{ name: store.idField, leaf: 'ID', list: false, required: true }] : shapeOf(items)));
  // A collection seen before and gone now (its file removed) keeps its type, with no items.
  if (seen !== undefined) for (const name of seen.keys()) if (!arrays.has(name)) add(name, () => []);
  const relations = findRelations(store.relations, new Map(collections.map((c) => [c.name, c.fields.map((f) => f.name)])));
  const signature = JSON.stringify([store.idField, collections.map((c) => [c.name, c.fields]), relations]);
  return { signature, collections, relations };
}

export function deriveSchema(store: CollectionStore, collections: Collection[], relations: Relation[], signature: string, streams: ChangeStreams): DerivedSchema {
  const idField = store.idField;
  const byName = new Map(collections.map((c) => [c.name, c]));
  const objectTypes = new Map<string, GraphQLObjectType>();
  const relationFields = new Set(relations.map((r) => `${r.child}.${r.field}`));
  /** The to-one field of a relation field, named by the relation rule's stem (`post_ref` under `--fks _ref` → `Post`). */
  const oneField = (field: string) => toOneField(relationStem(store.relations, field) ?? field);
  const idLike = (c: Collection, f: FieldShape) => !f.list && (f.name === idField || f.name.endsWith('_id') || relationFields.has(`${c.name}.${f.name}`));
  const fieldType = (c: Collection, f: FieldShape, required: boolean) => (idLike(c, f) ? (required ? new GraphQLNonNull(GraphQLID) : GraphQLID) : typeOf(f, required));

  for (const c of collections) {
    objectTypes.set(
      c.name,
      new GraphQLObjectType({
        name: c.names.type,
        fields: () => {
          const fields: GraphQLFieldConfigMap<Item, RequestData> = {};
          for (const f of c.fields) fields[f.name] = { type: fieldType(c, f, f.required) };
          for (const r of relations) {
            if (r.child === c.name) {
              const parent = byName.get(r.parent)!;
              const name = oneField(r.field);
              if (fields[name] || !isValidName(name)) continue;
              fields[name] = { type: objectTypes.get(r.parent)!, resolve: (item, _args, data) => findById(data.items(parent.name), idField, item[r.field]) };
            }
          }
          for (const r of relations) {
            if (r.parent === c.name) {
              const child = byName.get(r.child)!;
              const name = fields[child.names.plural] ? `${child.names.plural}By${oneField(r.field)}` : child.names.plural;
              if (fields[name]) continue;
              fields[name] = { type: new GraphQLList(objectTypes.get(r.child)!), resolve: (item, _args, data) => groupBy(data.items(child.name), r.field).get(idKeyOf(item, idField) ?? '\u0000') ?? [] };
            }
          }
          return fields;
        },
      }),
    );
  }

  const listMetadata = new GraphQLObjectType({ name: 'ListMetadata', fields: { count: { type: GraphQLInt } } });
  const query: GraphQLFieldConfigMap<unknown, RequestData> = {};
  const mutation: GraphQLFieldConfigMap<unknown, RequestData> = {};
  const subscription: GraphQLFieldConfigMap<unknown, RequestData> = {};

  for (const c of collections) {
    const type = objectTypes.get(c.name)!;
    const { type: T, plural: P, lower } = c.names;
    const filterFields: GraphQLInputFieldConfigMap = { q: { type: GraphQLString }, ids: { type: new GraphQLList(GraphQLID) } };
    for (const f of c.fields) filterFields[f.name] = { type: fieldType(c, f, false) };
    for (const f of c.fields) {
      if (f.list) continue;
      const t = fieldType(c, f, false);
      if (!idLike(c, f) && (f.leaf === 'Int' || f.leaf === 'Float' || f.leaf === 'String' || f.leaf === 'Date')) {
        for (const s of ['_lt', '_lte', '_gt', '_gte']) filterFields[`${f.name}${s}`] = { type: t };
      }
      if (f.leaf !== 'Boolean') filterFields[`${f.name}_neq`] = { type: t };
    }
    const filter = new GraphQLInputObjectType({ name: `${T}Filter`, fields: filterFields });
    const list = (args: { page?: number | null; perPage?: number | null; sortField?: string | null; sortOrder?: string | null; filter?: Item | null }, data: RequestData) => {
      const perPage = args.perPage ?? 25;
      const paged = args.page !== undefined && args.page !== null && perPage > 0;
      return runListQuery(data.items(c.name), idField, {
        filter: args.filter ?? undefined,
        sort: args.sortField ? { field: args.sortField, order: (args.sortOrder ?? 'asc').toLowerCase() === 'asc' ? 'asc' : 'desc' } : undefined,
        offset: paged ? args.page! * perPage : undefined,
        limit: paged ? perPage : undefined,
      });
    };
    query[T] = { type, args: { id: { type: new GraphQLNonNull(GraphQLID) } }, resolve: (_r, args: { id: string }, data) => findById(data.items(c.name), idField, args.id) };
    query[`all${P}`] = {
      type: new GraphQLList(type),
      args: { page: { type: GraphQLInt }, perPage: { type: GraphQLInt }, sortField: { type: GraphQLString }, sortOrder: { type: GraphQLString }, filter: { type: filter } },
      resolve: (_r, args, data) => list(args, data).items,
    };
    query[`_all${P}Meta`] = {
      type: listMetadata,
      args: { page: { type: GraphQLInt }, perPage: { type: GraphQLInt }, filter: { type: filter } },
      resolve: (_r, args: { filter?: Item | null }, data) => ({ count: list({ filter: args.filter }, data).total }),
    };

    const createArgs: GraphQLFieldConfigMap<unknown, RequestData>[string]['args'] = {};
    const updateArgs: GraphQLFieldConfigMap<unknown, RequestData>[string]['args'] = { [idField]: { type: new GraphQLNonNull(GraphQLID) } };
    const inputFields: GraphQLInputFieldConfigMap = {};
    for (const f of c.fields) {
      if (f.name === idField) continue;
      createArgs[f.name] = { type: fieldType(c, f, f.required) };
      inputFields[f.name] = { type: fieldType(c, f, f.required) };
      updateArgs[f.name] = { type: fieldType(c, f, false) };
    }
    // No field but the id (an empty collection): no input type (GraphQL refuses one without fields), so no createMany.
    const input = Object.keys(inputFields).length > 0 ? new GraphQLInputObjectType({ name: `${T}Input`, fields: inputFields }) : undefined;
    const written = async <X>(data: RequestData, work: Promise<X>): Promise<X> => {
      const out = await work;
      await data.reload(c.name);
      return out;
    };
    mutation[`create${T}`] = { type, args: createArgs, resolve: (_r, args: Item, data) => written(data, data.store.insert(c.name, stored(args, c))) };
    if (input) mutation[`createMany${T}`] = {
      type: new GraphQLList(type),
      args: { data: { type: new GraphQLList(input) } },
      resolve: (_r, args: { data?: Item[] | null }, data) => written(data, data.store.transaction(c.name, (tx) => (args.data ?? []).map((d) => tx.insert(stored(d, c))))),
    };
    mutation[`update${T}`] = {
      type,
      args: updateArgs,
      resolve: (_r, args: Item, data) => {
        const { [idField]: id, ...changes } = args;
        return written(data, data.store.update(c.name, id as string, stored(changes, c)).then((x) => x ?? null));
      },
    };
    const remove = { type, args: { [idField]: { type: new GraphQLNonNull(GraphQLID) } }, resolve: (_r: unknown, args: Item, data: RequestData) => written(data, data.store.remove(c.name, args[idField] as string).then((x) => x ?? null)) };
    mutation[`remove${T}`] = remove;
    mutation[`delete${T}`] = remove;

    for (const [event, kind] of [['Created', 'created'], ['Updated', 'updated'], ['Removed', 'removed']] as const) {
      subscription[`${lower}${event}`] = { type, subscribe: () => streams.changes(c.name, kind), resolve: (item: unknown) => item };
    }
  }

  const empty = collections.length === 0;
  const schema = new GraphQLSchema({
    query: new GraphQLObjectType({ name: 'Query', fields: empty ? { _empty: { type: GraphQLString, description: 'No collections yet: add a JSON array file to the mocks folder' } } : query }),
    mutation: empty ? undefined : new GraphQLObjectType({ name: 'Mutation', fields: mutation }),
    subscription: empty ? undefined : new GraphQLObjectType({ name: 'Subscription', fields: subscription }),
  });
  return { schema, signature, collections: new Map(collections.map((c) => [c.names.type, c.name])) };
}
