/**
 * The backend's state: per collection and scope (`/users/7/orders` and `/users/8/orders` are two
 * scopes of one collection), the items in insertion order, keyed by their id as text. A scope's
 * population is generated on first use, item by item from `seedOf(seed, collection, scope, i)`,
 * so an item never depends on what was asked before it: the same seed gives the same data on
 * every machine and restart. Singletons (a generated answer kept and changed by PUT/PATCH) live
 * here too. Kept in memory; `snapshot`/`restore` let a host keep it elsewhere (files).
 */
import type { Faker } from '@faker-js/faker';
import { generate } from '../schema-faker/generate.js';
import { seedOf } from '../schema-faker/faker.js';
import type { Collection } from './resources.js';
import type { Deref } from './refs.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

export interface Scope {
  items: Map<string, unknown>;
  /** The next integer id (integer ids). */
  next: number;
  created: number;
}

export interface StateOptions {
  faker: Faker;
  deref: Deref;
  seed: number | string;
  /** Items per collection: a number, or per collection name with `*` as the default. */
  count: (collection: Collection) => number;
  collections: Collection[];
}

export interface BackendState {
  scope(c: Collection, scopeValues: string[]): Scope;
  /** A new id for a created item (integer: the next one; uuid: drawn; string: from `hint`). */
  newId(c: Collection, scope: Scope, hint: unknown): unknown;
  singleton(key: string, make: () => unknown): { value: unknown };
  /** A value for a relation field (`ownerId`): an id that exists in the named collection. */
  relation(field: string, schema: Obj, self: Collection): unknown;
  reset(): void;
}

const singularOf = (name: string) => name.toLowerCase().replace(/[-_]/g, '').replace(/ies$/, 'y').replace(/s$/, '');

export function createState(options: StateOptions): BackendState {
  const { faker, deref } = options;
  let scopes = new Map<string, Scope>();
  let singletons = new Map<string, { value: unknown }>();
  const generating = new Set<string>();
  const bySingular = new Map<string, Collection>();
  for (const c of options.collections) if (c.scopeParams.length === 0 && !bySingular.has(singularOf(c.name))) bySingular.set(singularOf(c.name), c);

  function idFor(c: Collection, i: number, item: unknown): unknown {
    if (c.idKind === 'integer') return i + 1;
    if (c.idKind === 'uuid') {
      faker.seed(seedOf(options.seed, c.key, 'id', i));
      return faker.string.uuid();
    }
    const own = c.idField && isObj(item) ? item[c.idField] : undefined;
    if (typeof own === 'string' && own !== '') return own;
    return drawId(c, `${i}`) ?? `${c.name}-${i + 1}`;
  }

  /** A string id drawn from the id's schema (its pattern, format…), when it has more than a type. */
  function drawId(c: Collection, salt: string): string | undefined {
    if (Object.keys(c.idSchema).every((k) => k === 'type' || k === 'description')) return undefined;
    faker.seed(seedOf(options.seed, c.key, 'id', salt));
    const v = generate(c.idSchema, { faker, deref, useExamples: false });
    return typeof v === 'string' && v !== '' ? v : undefined;
  }

  function populate(c: Collection, values: string[], key: string): Scope {
    const scope: Scope = { items: new Map(), next: 1, created: 0 };
    scopes.set(key, scope);
    // The collections its top-level relation fields name are populated first, so drawing an
    // item never reseeds the faker in the middle of it.
    const targets = new Set<Collection>();
    for (const [name, p] of Object.entries(isObj(c.itemSchema.properties) ? c.itemSchema.properties : {})) {
      const t = relationTarget(name, c);
      if (t && isObj(deref(p))) {
        targets.add(t);
        state.scope(t, []);
      }
    }
    generating.add(c.key);
    try {
      const n = options.count(c);
      for (let i = 0; i < n; i++) {
        faker.seed(seedOf(options.seed, c.key, values.join('/'), i));
        // The first item keeps the document's examples; the others are drawn.
        const item = generate(c.itemSchema, { faker, deref, useExamples: i === 0, field: (name, schema) => relation(name, schema, c, targets) });
        let id = idFor(c, i, item);
        if (scope.items.has(String(id))) id = `${String(id)}-${i + 1}`;
        if (isObj(item)) {
          if (c.idField) item[c.idField] = id;
          c.scopeParams.forEach((p, k) => {
            if (p in item && values[k] !== undefined) item[p] = typeof item[p] === 'number' && /^-?\d+$/.test(values[k]!) ? Number(values[k]) : values[k];
          });
        }
        scope.items.set(String(id), item);
      }
      scope.next = c.idKind === 'integer' ? n + 1 : 1;
    } finally {
      generating.delete(c.key);
    }
    return scope;
  }

  function relationTarget(field: string, self: Collection): Collection | undefined {
    const m = /^(.+?)(Id|_id|ID)$/.exec(field);
    const target = m ? bySingular.get(singularOf(m[1]!)) : undefined;
    return target && target !== self && !generating.has(target.key) ? target : undefined;
  }

  function relation(field: string, schema: Obj, self: Collection, ready?: Set<Collection>): unknown {
    const target = relationTarget(field, self);
    if (!target || (ready && !ready.has(target))) return undefined;
    const type = schema.type;
    if (type !== undefined && type !== 'integer' && type !== 'number' && type !== 'string') return undefined;
    const ids = [...state.scope(target, []).items.keys()];
    if (ids.length === 0) return undefined;
    const id = faker.helpers.arrayElement(ids);
    return type === 'integer' || type === 'number' ? Number(id) : id;
  }

  const state: BackendState = {
    scope(c, values) {
      const key = `${c.key}\u0000${values.join('\u0000')}`;
      return scopes.get(key) ?? populate(c, values, key);
    },
    newId(c, scope, hint) {
      scope.created++;
      if (c.idKind === 'integer') {
        let max = scope.next - 1;
        for (const k of scope.items.keys()) if (/^\d+$/.test(k)) max = Math.max(max, Number(k));
        scope.next = max + 2;
        return max + 1;
      }
      if (c.idKind === 'uuid') {
        faker.seed(seedOf(options.seed, c.key, 'created', scope.created));
        return faker.string.uuid();
      }
      if (typeof hint === 'string' && hint !== '') return hint;
      return drawId(c, `created-${scope.created}`) ?? `${c.name}-${scope.items.size + scope.created}`;
    },
    singleton(key, make) {
      let s = singletons.get(key);
      if (!s) singletons.set(key, (s = { value: make() }));
      return s;
    },
    relation,
    reset() {
      scopes = new Map();
      singletons = new Map();
    },
  };
  return state;
}
