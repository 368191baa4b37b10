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
import { topLevelProperties, type Collection } from './resources.js';
import type { Deref } from '../openapi-document/refs.js';
import { isObj } from '../../core/json-object.js';
import { DEFAULT_NAMING, relationStem } from '../store/relations.js';
import { singular } from '../store/plurals.js';
import type { RelationNaming } from '../store-contract/contract.js';

type Obj = Record<string, unknown>;

/**
 * A scope's items by id, in insertion order. A generated item whose id is known without it
 * (integer, uuid, or drawn from the id's schema) is drawn on first read: a big schema costs only
 * the items asked for (a page, one id).
 */
export class ScopeItems {
  private readonly map = new Map<string, unknown>();
  private readonly pending = new Map<string, () => unknown>();
  /** The largest integer id ever kept here (0: none): a new integer id without a scan. */
  maxInt = 0;

  private saw(id: string): void {
    if (id.length < 16 && /^\d+$/.test(id)) this.maxInt = Math.max(this.maxInt, Number(id));
  }

  has(id: string): boolean {
    return this.map.has(id);
  }
  get(id: string): unknown {
    const make = this.pending.get(id);
    if (make) {
      this.pending.delete(id);
      this.map.set(id, make());
    }
    return this.map.get(id);
  }
  set(id: string, item: unknown): void {
    this.pending.delete(id);
    if (!this.map.has(id)) this.saw(id);
    this.map.set(id, item);
  }
  /** An item drawn when first read. */
  later(id: string, make: () => unknown): void {
    this.saw(id);
    this.map.set(id, undefined);
    this.pending.set(id, make);
  }
  delete(id: string): boolean {
    this.pending.delete(id);
    return this.map.delete(id);
  }
  keys(): string[] {
    return [...this.map.keys()];
  }
  values(): unknown[] {
    return this.keys().map((id) => this.get(id));
  }
  get size(): number {
    return this.map.size;
  }
}

export interface Scope {
  items: ScopeItems;
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
  /** THE relation rule's naming (store/relations.ts); the default convention when absent. */
  relations?: RelationNaming;
}

export interface BackendState {
  scope(c: Collection, scopeValues: string[]): Scope;
  /** The scope when it was used (populated) already, else undefined: nothing is drawn. */
  peek(c: Collection, scopeValues: string[]): Scope | undefined;
  /** Forgets the scope: its next use draws the seeded population again (the data the backend starts with). */
  reset(c: Collection, scopeValues: string[]): void;
  /** The parameter values of every scope of `c` used so far, in the order they were first used. */
  scopesOf(c: Collection): string[][];
  /** Makes `scope` the scope's state (one loaded from a state file, state-folder.ts). */
  adopt(c: Collection, scopeValues: string[], scope: Scope): void;
  /** A new id for a created item (integer: the next one; uuid: drawn; string: from `hint`). */
  newId(c: Collection, scope: Scope, hint: unknown): unknown;
  singleton(key: string, make: () => unknown): { value: unknown };
  /** A value for a relation field (`ownerId`): an id that exists in the named collection. */
  relation(field: string, schema: Obj, self: Collection): unknown;
}

/** A schema that says more than its type (a pattern, format, enum, lengths…). */
const constrained = (s: Obj) => Object.keys(s).some((k) => k !== 'type' && k !== 'description' && k !== 'title');

const singularOf = (name: string) => singular(name.toLowerCase().replace(/[-_]/g, ''));

export function createState(options: StateOptions): BackendState {
  const { faker, deref } = options;
  const scopes = new Map<string, Scope>();
  const singletons = new Map<string, { value: unknown }>();
  const generating = new Set<string>();
  const naming = options.relations ?? DEFAULT_NAMING;
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
    if (!constrained(c.idSchema)) return undefined;
    faker.seed(seedOf(options.seed, c.key, 'id', salt));
    const v = generate(c.idSchema, { faker, deref, useExamples: false });
    return typeof v === 'string' && v !== '' ? v : undefined;
  }

  function populate(c: Collection, values: string[], key: string): Scope {
    const scope: Scope = { items: new ScopeItems(), next: 1, created: 0 };
    scopes.set(key, scope);
    // The collections its top-level relation fields name are populated first, so drawing an
    // item never reseeds the faker in the middle of it.
    const targets = new Set<Collection>();
    for (const [name, p] of topLevelProperties(c.itemSchema, deref)) {
      const t = relationTarget(name, c);
      if (t && isObj(deref(p))) {
        targets.add(t);
        state.scope(t, []);
      }
    }
    generating.add(c.key);
    try {
      const n = options.count(c);
      const lazy = c.idKind !== 'string' || !c.idField || constrained(c.idSchema);
      const make = (i: number, id: unknown) => {
        faker.seed(seedOf(options.seed, c.key, values.join('/'), i));
        // The first item keeps the document's examples; the others are drawn.
        const item = generate(c.itemSchema, { faker, deref, useExamples: i === 0 && examples.length === 0, maxDepth: 4, field: (name, schema) => relation(name, schema, c, targets) });
        if (isObj(item)) {
          if (c.idField && id !== undefined) item[c.idField] = id;
          c.scopeParams.forEach((p, k) => {
            if (p in item && values[k] !== undefined) item[p] = typeof item[p] === 'number' && /^-?\d+$/.test(values[k]!) ? Number(values[k]) : values[k];
          });
        }
        return item;
      };
      // The document's own example items come first, as written.
      const examples = c.scopeParams.length === 0 ? c.examples.slice(0, n) : [];
      examples.forEach((example, i) => {
        const item = structuredClone(example) as Obj;
        const own = c.idField ? item[c.idField] : undefined;
        const id = (typeof own === 'number' || (typeof own === 'string' && own !== '')) && !scope.items.has(String(own)) ? own : idFor(c, i, item);
        if (c.idField) item[c.idField] = id;
        scope.items.set(String(id), item);
      });
      let nextInt = 1 + scope.items.maxInt;
      for (let i = examples.length; i < n; i++) {
        if (lazy) {
          let id = c.idKind === 'string' ? drawId(c, `${i}`) ?? `${c.name}-${i + 1}` : c.idKind === 'integer' ? nextInt++ : idFor(c, i, undefined);
          if (scope.items.has(String(id))) id = `${String(id)}-${i + 1}`;
          const fixed = id;
          scope.items.later(String(id), () => make(i, fixed));
          continue;
        }
        const item = make(i, undefined);
        let id = idFor(c, i, item);
        if (scope.items.has(String(id))) id = `${String(id)}-${i + 1}`;
        if (isObj(item) && c.idField) item[c.idField] = id;
        scope.items.set(String(id), item);
      }
      scope.next = c.idKind === 'integer' ? n + 1 : 1;
    } finally {
      generating.delete(c.key);
    }
    return scope;
  }

  function relationTarget(field: string, self: Collection): Collection | undefined {
    const declared = naming.declared[self.name]?.[field]; // a declared parent collection, else the field's stem
    const stem = declared ?? relationStem(naming, field);
    const target = stem !== undefined ? bySingular.get(singularOf(stem)) : undefined;
    return target && target !== self && !generating.has(target.key) ? target : undefined;
  }

  function relation(field: string, schema: Obj, self: Collection, ready?: Set<Collection>): unknown {
    const target = relationTarget(field, self);
    if (!target || (ready && !ready.has(target))) return undefined;
    const type = schema.type;
    if (type !== undefined && type !== 'integer' && type !== 'number' && type !== 'string') return undefined;
    const ids = state.scope(target, []).items.keys();
    if (ids.length === 0) return undefined;
    const id = faker.helpers.arrayElement(ids);
    return type === 'integer' || type === 'number' ? Number(id) : id;
  }

  const keyOf = (c: Collection, values: string[]) => `${c.key}\u0000${values.join('\u0000')}`;
  const state: BackendState = {
    scope(c, values) {
      const key = keyOf(c, values);
      return scopes.get(key) ?? populate(c, values, key);
    },
    peek(c, values) {
      return scopes.get(keyOf(c, values));
    },
    reset(c, values) {
      scopes.delete(keyOf(c, values));
    },
    scopesOf(c) {
      const prefix = `${c.key}\u0000`;
      return [...scopes.keys()].filter((k) => k.startsWith(prefix)).map((k) => k.slice(prefix.length).split('\u0000'));
    },
    adopt(c, values, scope) {
      scopes.set(keyOf(c, values), scope);
    },
    newId(c, scope, hint) {
      scope.created++;
      if (c.idKind === 'integer') {
        // Past every id the scope ever held (a deleted one is not given again).
        const max = Math.max(scope.next - 1, scope.items.maxInt);
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
  };
  return state;
}
