/**
 * What each operation of a document does to the backend's state, inferred from its paths:
 *
 *   /pets + /pets/{petId}                 a collection `pets` (item id `petId`)
 *   /users/{id}/orders/{orderId}          a scoped collection: one population per user id
 *   GET  /pets, GET /pets/findByStatus    list (any GET under the collection whose answer is an
 *                                         array of its items, or an object holding one: a page)
 *   POST /pets                            create          PUT/PATCH /pets (id in the body) write
 *   GET|PUT|PATCH|DELETE /pets/{petId}    read | replace | update | delete; other methods on an
 *                                         item path are actions on an existing item
 *   GET (+ PUT/PATCH) of any other path   a singleton (generated once, then kept)
 *   anything else                         an action: the documented success answer
 *
 * The item schema: the item GET's answer, else the list's items, else the item PUT's or the
 * collection POST's body. The id field: a property named as the path parameter, else `id`.
 */
import { mergeAllOf } from '../schema-faker/generate.js';
import { isObj } from '../../core/json-object.js';
import type { MediaContent, Operation } from '../openapi-document/operations.js';
import type { Deref } from '../openapi-document/refs.js';
import { successCode } from './prefer.js';
import { isJsonMediaType, parseMediaType } from '../../core/media-type.js';
import { singular } from '../store/plurals.js';

type Obj = Record<string, unknown>;

export interface Collection {
  /** The collection's path template: `/pets`, `/users/{id}/orders`. */
  key: string;
  /** Its last literal segment (`pets`): the name relations and `count` use. */
  name: string;
  idParam: string | undefined;
  /** Path parameters before the collection (`id` of `/users/{id}/orders`). */
  scopeParams: string[];
  /** The item schema with `allOf` merged. */
  itemSchema: Obj;
  /** The property holding the id, when the item has one. */
  idField: string | undefined;
  /** `integer` (1, 2, …), `uuid`, or `string` (drawn from the id field's schema). */
  idKind: 'integer' | 'uuid' | 'string';
  /** The id's schema (the id field's, else the path parameter's). */
  idSchema: Obj;
  /** `x-mockyard-count` of the collection's operations or item schema. */
  count: number | undefined;
  /** The list answer's documented example items: the first items of the population. */
  examples: unknown[];
}

export interface ListShape {
  /** The array is the answer itself (`undefined`) or this property of an object answer. */
  arrayProperty?: string;
  /** The answer's schema (object pages). */
  schema: unknown;
}

export type Role =
  | { kind: 'list'; collection: Collection; shape: ListShape }
  | { kind: 'create'; collection: Collection }
  | { kind: 'read' | 'replace' | 'update' | 'delete' | 'item-action'; collection: Collection }
  | { kind: 'write-by-body'; collection: Collection; merge: boolean }
  | { kind: 'singleton' }
  | { kind: 'action' };

export function jsonContent(contents: MediaContent[]): MediaContent | undefined {
  return contents.find((c) => isJsonMediaType(parseMediaType(c.type).type)) ?? contents.find((c) => c.type === '*/*');
}

/** The JSON content of an operation's success answer. */
function successContent(op: Operation): MediaContent | undefined {
  const response = op.responses.find((r) => r.code === successCode(op));
  return response ? jsonContent(response.contents) : undefined;
}

/** The JSON schema of an operation's success answer. */
export function successSchemaOf(op: Operation | undefined, deref: Deref): unknown {
  const content = op ? successContent(op) : undefined;
  return content ? deref(content.schema) : undefined;
}

function bodySchema(op: Operation | undefined, deref: Deref): unknown {
  const content = op?.body ? jsonContent(op.body.contents) : undefined;
  return content ? deref(content.schema) : undefined;
}

/**
 * An envelope answer (`{ data: { …item } }`): an object whose one property holds an object.
 * Returns that property's name.
 */
export function envelopeOf(s: unknown, deref: Deref): string | undefined {
  const d = objectSchema(s, deref);
  if (!d || !isObj(d.properties)) return undefined;
  const keys = Object.keys(d.properties);
  if (keys.length !== 1) return undefined;
  const inner = deref(d.properties[keys[0]!]);
  if (!isObj(inner) || inner.type === 'array' || inner.items !== undefined) return undefined;
  return objectSchema(inner, deref) && isObj(objectSchema(inner, deref)!.properties) ? keys[0] : undefined;
}

/** The item inside an envelope answer, else the answer's own schema. */
function unwrapped(s: unknown, deref: Deref): unknown {
  const env = envelopeOf(s, deref);
  return env ? (objectSchema(s, deref)!.properties as Obj)[env] : s;
}

function objectSchema(s: unknown, deref: Deref): Obj | undefined {
  const d = deref(s);
  if (!isObj(d)) return undefined;
  const merged = Array.isArray(d.allOf) ? mergeAllOf(d, deref) : d;
  if (isObj(merged.properties) || Array.isArray(merged.oneOf) || Array.isArray(merged.anyOf) || merged.type === 'object') return merged;
  return undefined;
}

/** An array answer, or an object answer with one array property: the list's shape and items. */
function listOf(s: unknown, deref: Deref): { shape: ListShape; items: unknown } | undefined {
  const d = deref(s);
  if (!isObj(d)) return undefined;
  if (d.type === 'array' || d.items !== undefined) return { shape: { schema: d }, items: deref(d.items) };
  const o = objectSchema(d, deref);
  if (!o || !isObj(o.properties)) return undefined;
  const arrays = Object.entries(o.properties).filter(([, p]) => {
    const dp = deref(p);
    return isObj(dp) && (dp.type === 'array' || dp.items !== undefined) && objectSchema((dp as Obj).items, deref) !== undefined;
  });
  if (arrays.length !== 1) return undefined;
  const [prop, p] = arrays[0]!;
  return { shape: { arrayProperty: prop, schema: o }, items: deref((deref(p) as Obj).items) };
}

/** The properties of a schema and of its oneOf/anyOf/allOf branches (one level). */
export function topLevelProperties(schema: Obj, deref: Deref): [string, unknown][] {
  const out: [string, unknown][] = [];
  const visit = (s0: unknown, depth: number) => {
    const s = deref(s0);
    if (!isObj(s) || depth > 3) return;
    if (isObj(s.properties)) out.push(...Object.entries(s.properties));
    for (const key of ['oneOf', 'anyOf', 'allOf']) if (Array.isArray(s[key])) for (const b of s[key] as unknown[]) visit(b, depth + 1);
  };
  visit(schema, 0);
  return out;
}

const singularBare = (name: string) => singular(name.replace(/[^a-z0-9]/gi, ''));
const segmentsOf = (t: string) => t.split('/').filter(Boolean);
const isParam = (seg: string) => /^\{[^}]+\}$/.test(seg);
const paramName = (seg: string) => seg.slice(1, -1);

function countOf(...sources: unknown[]): number | undefined {
  for (const s of sources) {
    if (isObj(s) && typeof s['x-mockyard-count'] === 'number' && Number.isInteger(s['x-mockyard-count']) && s['x-mockyard-count'] >= 0) return s['x-mockyard-count'];
  }
  return undefined;
}

export function inferRoles(operations: Operation[], deref: Deref): { roles: Map<Operation, Role>; collections: Collection[] } {
  const byTemplate = new Map<string, Map<string, Operation>>();
  for (const op of operations) {
    let m = byTemplate.get(op.template);
    if (!m) byTemplate.set(op.template, (m = new Map()));
    m.set(op.method, op);
  }
  const collections = new Map<string, Collection>();
  const itemPaths = new Map<string, Collection>();
  const norm = (t: string) => segmentsOf(t).map((s) => (isParam(s) ? '{}' : s)).join('/');

  const makeCollection = (key: string, itemTemplate: string | undefined): Collection | undefined => {
    const segs = segmentsOf(key);
    const last = segs[segs.length - 1];
    if (last === undefined || isParam(last)) return undefined;
    const listOps = byTemplate.get(key);
    const itemOps = itemTemplate ? byTemplate.get(itemTemplate) : undefined;
    const list = listOf(successSchemaOf(listOps?.get('GET'), deref), deref);
    const itemSchema =
      objectSchema(unwrapped(successSchemaOf(itemOps?.get('GET'), deref), deref), deref) ??
      objectSchema(list?.items, deref) ??
      objectSchema(bodySchema(itemOps?.get('PUT'), deref), deref) ??
      objectSchema(bodySchema(listOps?.get('POST'), deref), deref);
    if (!itemSchema) return undefined;
    if (!itemTemplate && !(list && listOps?.get('POST'))) return undefined;
    const idParam = itemTemplate ? paramName(segmentsOf(itemTemplate).pop()!) : undefined;
    // Its fields, those of oneOf/anyOf branches included (a discriminated item).
    const props: Obj = Object.fromEntries(topLevelProperties(itemSchema, deref));
    // The id field: the parameter's name (`username`), that name without the collection's
    // (`issue_number` of issues → `number`, `petId` → `id`), a user's `login`, else `id`.
    const own = idParam?.replace(new RegExp(`^${singularBare(last)}[-_]?`, 'i'), '');
    const bare = own ? own[0]!.toLowerCase() + own.slice(1) : undefined;
    const login = idParam !== undefined && /^user_?name$/i.test(idParam) && 'login' in props ? 'login' : undefined;
    const idField = idParam !== undefined && idParam in props ? idParam : login ?? (bare && bare in props ? bare : 'id' in props ? 'id' : undefined);
    let idSchema = idField ? deref(props[idField]) : undefined;
    if (!isObj(idSchema) && idParam && itemOps) {
      const p = [...itemOps.values()][0]!.parameters.find((x) => x.in === 'path' && x.name === idParam);
      idSchema = deref(p?.schema);
    }
    const ids: Obj = isObj(idSchema) ? idSchema : {};
    const idKind = ids.type === 'integer' || ids.type === 'number' ? 'integer' : ids.format === 'uuid' ? 'uuid' : idField === undefined && ids.type === undefined ? 'integer' : 'string';
    const itemGet = itemOps?.get('GET');
    return {
      examples: listExamples(listOps?.get('GET'), list?.shape, deref, itemOps?.get('GET'), envelopeOf(successSchemaOf(itemOps?.get('GET'), deref), deref)),
      key,
      name: last,
      idParam,
      scopeParams: segs.filter(isParam).map(paramName),
      itemSchema,
      idField,
      idKind,
      idSchema: ids,
      count: countOf(itemGet?.op, listOps?.get('GET')?.op, itemSchema),
    };
  };

  // Collections from item paths (`/pets/{petId}` → `/pets`), then from list + create alone.
  for (const template of byTemplate.keys()) {
    const segs = segmentsOf(template);
    if (segs.length < 2 || !isParam(segs[segs.length - 1]!)) continue;
    const key = `/${segs.slice(0, -1).join('/')}`;
    const c = collections.get(key) ?? makeCollection(key, template);
    if (!c) continue;
    collections.set(key, c);
    itemPaths.set(template, c);
  }
  for (const template of byTemplate.keys()) {
    if (collections.has(template)) continue;
    const c = makeCollection(template, undefined);
    if (c) collections.set(template, c);
  }

  const roles = new Map<Operation, Role>();
  const collectionOf = new Map<string, Collection>();
  for (const c of collections.values()) collectionOf.set(norm(c.key), c);
  const itemOf = new Map<string, Collection>();
  for (const [t, c] of itemPaths) itemOf.set(norm(t), c);
  const normalized = [...collections.values()].map((c) => [norm(c.key), c] as const);

  for (const op of operations) {
    const item = itemOf.get(norm(op.template));
    const coll = collectionOf.get(norm(op.template));
    if (item) {
      const kind = op.method === 'GET' || op.method === 'HEAD' ? 'read' : op.method === 'PUT' ? 'replace' : op.method === 'PATCH' ? 'update' : op.method === 'DELETE' ? 'delete' : 'item-action';
      roles.set(op, { kind, collection: item });
      continue;
    }
    if (coll) {
      if (op.method === 'GET') {
        const list = listOf(successSchemaOf(op, deref), deref);
        if (list) {
          roles.set(op, { kind: 'list', collection: coll, shape: list.shape });
          continue;
        }
      }
      if (op.method === 'POST') {
        roles.set(op, { kind: 'create', collection: coll });
        continue;
      }
      if ((op.method === 'PUT' || op.method === 'PATCH') && coll.idField) {
        roles.set(op, { kind: 'write-by-body', collection: coll, merge: op.method === 'PATCH' });
        continue;
      }
    }
    if (op.method === 'GET') {
      // A GET below a collection answering its items (`/pet/findByStatus`): a filtered list.
      const list = listOf(successSchemaOf(op, deref), deref);
      const itemsSchema = list ? objectSchema(list.items, deref) : undefined;
      const here = norm(op.template);
      const owner = itemsSchema ? normalized.find(([k, c]) => here.startsWith(`${k}/`) && sameSchema(c.itemSchema, itemsSchema))?.[1] : undefined;
      if (owner && list) {
        roles.set(op, { kind: 'list', collection: owner, shape: list.shape });
        continue;
      }
      roles.set(op, { kind: successSchemaOf(op, deref) !== undefined ? 'singleton' : 'action' });
      continue;
    }
    const path = byTemplate.get(op.template);
    roles.set(op, { kind: (op.method === 'PUT' || op.method === 'PATCH') && path?.get('GET') && successSchemaOf(path.get('GET'), deref) !== undefined ? 'singleton' : 'action' });
  }
  return { roles, collections: [...collections.values()] };
}

/**
 * The items of a list operation's documented example (`[{…}, {…}]` or a page holding them), else
 * the item read's documented example (out of its envelope): the population's first items.
 */
function listExamples(op: Operation | undefined, shape: ListShape | undefined, deref: Deref, itemGet?: Operation, envelope?: string): unknown[] {
  const fromList = listExamplesOf(op, shape, deref);
  if (fromList.length || !itemGet) return fromList;
  const content = successContent(itemGet);
  let example = content?.example?.value ?? (content ? Object.values(content.examples)[0] : undefined);
  if (envelope && isObj(example)) example = example[envelope];
  return isObj(example) ? [example] : [];
}

/** The list's example: the media type's `example` / first named `examples`, else its schema's `example` / `examples[0]`. */
function listExamplesOf(op: Operation | undefined, shape: ListShape | undefined, deref?: Deref): unknown[] {
  if (!op || !shape) return [];
  const content = successContent(op);
  const schema = deref && content ? deref(content.schema) : undefined;
  const fromSchema = isObj(schema) ? (schema.example ?? (Array.isArray(schema.examples) ? schema.examples[0] : undefined)) : undefined;
  const example = content?.example?.value ?? (content && Object.keys(content.examples).length ? Object.values(content.examples)[0] : fromSchema);
  const items = shape.arrayProperty ? (isObj(example) ? example[shape.arrayProperty] : undefined) : example;
  return Array.isArray(items) ? items.filter(isObj) : [];
}

function sameSchema(a: Obj, b: Obj): boolean {
  if (a === b) return true;
  const pa = isObj(a.properties) ? Object.keys(a.properties).sort().join(',') : '';
  const pb = isObj(b.properties) ? Object.keys(b.properties).sort().join(',') : '';
  return pa !== '' && pa === pb;
}

/** A scope's path: the collection's template with its scope parameters filled in (`/users/7/orders`; `/pet` unscoped). */
export function scopePath(c: Collection, values: readonly string[]): string {
  let k = 0;
  return c.key.replace(/\{[^}]+\}/g, () => values[k++] ?? '');
}
