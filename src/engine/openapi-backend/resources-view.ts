/**
 * What the devtools' Data tab sees of the OpenAPI backend's state (in memory, or a state folder's files) (layers.ts registers
 * each pipeline's, keyed by that pipeline's collection store: the engine's own, a session's):
 *
 *   /pet                a collection without path parameters: one resource
 *   /users/7/orders     a collection under a path parameter (`/users/{userId}/orders`): one
 *                       resource per parent, named by its path: for each of the first
 *                       MAX_PARENTS items of the parent collection it continues (`/users`, whose
 *                       item path is `/users/{id}`), and for every scope a request used already
 *                       (any parent value, or a collection whose parent the document does not
 *                       describe); `find` opens any other by its path
 *
 * each with its item count (the seeded count until the scope is used: nothing is drawn to list
 * it), a page of its items (drawn lazily as REST reads draw them), one item, and the documented
 * operations that write it (a request's path is the mock API prefix + the template with the
 * scope's `params` and the item id filled in, the prefix standing for the server URL). An edit
 * goes through the mock API itself (the document's operation, so the openapi layer's validation
 * and the backend's ids apply), see devtools/admin-openapi-data.ts. Two writes are the state's
 * own: `reset` (the scope drawn again from the backend's seed, as it started) and `replace` (an
 * import, checked by the devtools against `itemSchema` first; the parent's field filled in as a
 * create fills it); both raise the store's change events for what they changed.
 *
 * With `state` (a folder, state-folder.ts) a collection kept in files is read as its file holds it
 * now (a scope whose file is not written yet: the seeded population the first request writes, and
 * reading it writes nothing); an edit still goes through the mock API (so into the file, as REST
 * writes it), and `reset`/`replace` are stored in the file in its write queue. *Reset everything*
 * leaves those files alone (they are the user's, as a disk folder of mocks is).
 */
import { HttpError } from '../../core/errors.js';
import { isObj } from '../../core/json-object.js';
import type { Deref } from '../openapi-document/refs.js';
import type { StoreChange } from '../store-contract/contract.js';
import { scopePath } from './resources.js';
import { ScopeItems, type BackendState, type Scope } from './state.js';
import type { Collection, Role } from './resources.js';


export interface OpenApiResourceOps {
  create?: { method: string; template: string };
  /** An item write by its path (`PUT /pet/{petId}` replace, `PATCH` update) or by its body (`PUT /pet`). */
  replace?: { method: string; template: string; byBody: boolean };
  update?: { method: string; template: string; byBody: boolean };
  delete?: { method: string; template: string };
}

type Obj = Record<string, unknown>;
/** A value now (the state in memory), or once a state file was read or written. */
export type MaybePromise<T> = T | Promise<T>;

/** Parents listed per collection under a path parameter (others: once used, or by name). */
export const MAX_PARENTS = 50;

export interface OpenApiResource {
  /** The scope's path (`/pet`, `/users/7/orders`): its name in the Data tab. */
  name: string;
  /** The values of the scope's path parameters by name (`{ userId: '7' }`); empty without any. */
  params: Readonly<Record<string, string>>;
  /** The schema every item matches (the item the document reads): what an import is checked against. */
  itemSchema: unknown;
  idField: string | undefined;
  idParam: string | undefined;
  ops: OpenApiResourceOps;
  count(): MaybePromise<number>;
  /** The items in insertion order from `offset` (only those are drawn). */
  slice(offset: number, limit: number): MaybePromise<unknown[]>;
  /** Every item (for a sort or a filter: draws them all). */
  all(): MaybePromise<unknown[]>;
  get(id: string): MaybePromise<unknown>;
  /** The scope back to its seeded population (the same seed the backend starts from). */
  reset(): MaybePromise<void>;
  /** Replaces every item (checked already); an item without an id gets one as a create would; 400 on two items with one id. Returns the count. */
  replace(items: readonly Obj[]): MaybePromise<number>;
}

export interface OpenApiResources {
  list(): MaybePromise<OpenApiResource[]>;
  /** Every scope used so far back to its seeded population (the devtools' *Reset everything*). */
  resetAll(): void;
  /** The resource whose path is `name`, listed or not (any parent's scope), or undefined. */
  find(name: string): OpenApiResource | undefined;
  /** The document the items are checked against. */
  readonly doc: Record<string, unknown>;
  readonly deref: Deref;
}

const views = new WeakMap<object, Promise<OpenApiResources | undefined>>();

export function registerOpenApiResources(store: object, resources: Promise<OpenApiResources | undefined>): void {
  views.set(store, resources);
}

/** The backend's resources of the pipeline whose collection store is `store` (undefined: no backend). */
export function openApiResourcesOf(store: object): Promise<OpenApiResources | undefined> {
  return views.get(store) ?? Promise.resolve(undefined);
}

/** The writing operations of each collection, from the roles resources.ts inferred. */
export function writeOpsOf(roles: Map<{ method: string; template: string }, Role>): Map<Collection, OpenApiResourceOps> {
  const out = new Map<Collection, OpenApiResourceOps>();
  for (const [op, role] of roles) {
    if (!('collection' in role)) continue;
    let ops = out.get(role.collection);
    if (!ops) out.set(role.collection, (ops = {}));
    const at = { method: op.method.toUpperCase(), template: op.template };
    if (role.kind === 'create') ops.create ??= at;
    else if (role.kind === 'delete') ops.delete ??= at;
    else if (role.kind === 'replace') ops.replace ??= { ...at, byBody: false };
    else if (role.kind === 'update') ops.update ??= { ...at, byBody: false };
    else if (role.kind === 'write-by-body') {
      if (role.merge) ops.update ??= { ...at, byBody: true };
      else ops.replace ??= { ...at, byBody: true };
    }
  }
  return out;
}

export interface ViewSources {
  roles: Map<{ method: string; template: string }, Role>;
  collections: readonly Collection[];
  state: BackendState;
  /** The seeded item count of a collection's scope. */
  count: (c: Collection) => number;
  doc: Record<string, unknown>;
  deref: Deref;
  announce?: (changes: () => readonly StoreChange[]) => void;
  /** With `state` (a folder): the collections kept in files (layer.ts hands them over the state folder). */
  files?: ViewFiles;
}

export interface ViewFiles {
  holds(c: Collection): boolean;
  /** Puts the scope as its file holds it into the state (no file yet: the state's scope stays, nothing is written). */
  load(c: Collection, values: string[]): Promise<void>;
  /** Runs `change` on the state's scope as its file holds it, in the file's write queue, and stores the scope it leaves in the file. */
  store<T>(c: Collection, values: string[], change: () => T): Promise<T>;
  /** Whether a file can be named for the scope (a parent's id `a\\b` or `%2F` cannot: state-folder.ts nameOf). */
  nameable(c: Collection, values: string[]): boolean;
}

const isParam = (seg: string) => /^\{[^}]+\}$/.test(seg);
/** A parameter's value is a segment a request can send: not empty, not `.`/`..` (a URL takes those as steps: `/users/../orders` is `/orders`), no `/`. */
const isSegment = (value: string) => value !== '' && value !== '.' && value !== '..' && !value.includes('/');

/** The changes from `before` (undefined: never used, so nothing changed) to `after`, by id. */
function changesOf(collection: string, before: ScopeItems | undefined, after: ScopeItems): StoreChange[] {
  if (!before) return [];
  const out: StoreChange[] = [];
  for (const id of after.keys()) {
    const item = after.get(id);
    if (!isObj(item)) continue;
    const was = before.has(id) ? before.get(id) : undefined;
    if (was === undefined) out.push({ collection, type: 'created', id, item });
    else if (JSON.stringify(was) !== JSON.stringify(item)) out.push({ collection, type: 'updated', id, item, ...(isObj(was) ? { previous: was } : {}) });
  }
  for (const id of before.keys()) {
    if (after.has(id)) continue;
    const item = before.get(id);
    if (isObj(item)) out.push({ collection, type: 'removed', id, item });
  }
  return out;
}

export function createResourcesView(src: ViewSources): OpenApiResources {
  const { state } = src;
  const ops = writeOpsOf(src.roles);
  const written = [...ops.keys()].sort((x, y) => (x.key < y.key ? -1 : x.key > y.key ? 1 : 0));
  const byKey = new Map(src.collections.map((c) => [c.key, c] as const));

  /** The collection a collection under one path parameter continues (`/users` of `/users/{userId}/orders`, when `/users/{id}` is its item path). */
  function parentOf(c: Collection): Collection | undefined {
    if (c.scopeParams.length !== 1) return undefined;
    const segs = c.key.split('/');
    const p = byKey.get(segs.slice(0, segs.findIndex(isParam)).join('/'));
    return p && p.scopeParams.length === 0 && p.idParam !== undefined ? p : undefined;
  }

  function resource(c: Collection, values: string[]): OpenApiResource {
    const items = () => state.scope(c, values).items;
    const name = scopePath(c, values);
    const announce = (before: ScopeItems | undefined) => src.announce?.(() => changesOf(name.slice(1), before, items()));
    const files = src.files?.holds(c) ? src.files : undefined;
    const loaded = <T>(read: () => T): MaybePromise<T> => (files ? files.load(c, values).then(read) : read());
    const stored = <T>(change: () => T): MaybePromise<T> => (files ? files.store(c, values, change) : change());
    return {
      name,
      params: Object.fromEntries(c.scopeParams.map((p, i) => [p, values[i] ?? ''])),
      itemSchema: c.itemSchema,
      idField: c.idField,
      idParam: c.idParam,
      ops: ops.get(c)!,
      count: () => loaded(() => state.peek(c, values)?.items.size ?? src.count(c)),
      slice: (offset, limit) =>
        loaded(() => {
          const all = items();
          return all.keys().slice(offset, offset + limit).map((id) => all.get(id));
        }),
      all: () => loaded(() => items().values()),
      get: (id) => loaded(() => items().get(id)),
      reset: () =>
        stored(() => {
          const before = state.peek(c, values)?.items;
          state.reset(c, values);
          announce(before);
        }),
      replace: (given) => stored(() => replaceNow(given)),
    };

    function replaceNow(given: readonly Obj[]): number {
      const scope: Scope = { items: new ScopeItems(), next: 1, created: 0 };
      const idOf = (item: Obj) => {
        const v = c.idField ? item[c.idField] : undefined;
        return v === undefined || v === null || v === '' ? undefined : String(v);
      };
      const taken = new Map<string, number>();
      given.forEach((item, i) => {
        const id = idOf(item);
        if (id === undefined) return;
        if (taken.has(id)) throw new HttpError(400, `Items ${taken.get(id)} and ${i} of ${name} have the same ${c.idField} ${JSON.stringify(id)}: nothing was imported`);
        taken.set(id, i);
        if (/^\d{1,15}$/.test(id)) scope.next = Math.max(scope.next, Number(id) + 1);
      });
      const fresh: Array<[string, Obj]> = given.map((item) => {
        let id = idOf(item);
        if (id === undefined) {
          let drawn = state.newId(c, scope, undefined);
          for (let k = 0; k < 8 && taken.has(String(drawn)); k++) drawn = state.newId(c, scope, undefined);
          id = String(drawn);
          if (taken.has(id)) throw new HttpError(409, `No free id for an item of ${name}: nothing was imported`);
          taken.set(id, -1);
          return [id, c.idField ? { ...structuredClone(item), [c.idField]: drawn } : structuredClone(item)];
        }
        return [id, structuredClone(item)];
      });
      // A field named as a scope parameter (`userId` of `/users/{userId}/orders`) is the parent's, as a create fills it.
      const props = isObj(c.itemSchema.properties) ? c.itemSchema.properties : {};
      for (const [id, item] of fresh) {
        c.scopeParams.forEach((p, i) => {
          if (!(p in props) || p in item) return;
          const type = (src.deref(props[p]) as Obj | undefined)?.type;
          item[p] = (type === 'integer' || type === 'number') && /^-?\d{1,15}$/.test(values[i] ?? '') ? Number(values[i]) : values[i];
        });
        scope.items.set(id, item);
      }
      const before = state.peek(c, values)?.items ?? state.scope(c, values).items;
      state.adopt(c, values, scope);
      announce(before);
      return scope.items.size;
    }
  }

  /** The resources listed now (the parents' items as the state holds them). */
  function listNow(): OpenApiResource[] {
    const out: OpenApiResource[] = [];
    for (const c of written) {
      if (c.scopeParams.length === 0) {
        out.push(resource(c, []));
        continue;
      }
      const seen = new Set<string>();
      const parent = parentOf(c);
      if (parent) {
        // A parent's id no request can name as a segment (or no file can be named by) is no scope of it.
        const files = src.files?.holds(c) ? src.files : undefined;
        for (const id of state.scope(parent, []).items.keys().filter((id) => isSegment(id) && (!files || files.nameable(c, [id]))).slice(0, MAX_PARENTS)) {
          seen.add(id);
          out.push(resource(c, [id]));
        }
      }
      for (const values of state.scopesOf(c)) {
        const k = values.join('\u0000');
        if (seen.has(k)) continue;
        seen.add(k);
        out.push(resource(c, values));
      }
    }
    return out;
  }

  return {
    doc: src.doc,
    deref: src.deref,
    list() {
      // Parents kept in files: their items as the files hold them.
      const files = src.files;
      const parents = files ? [...new Set(written.map(parentOf))].filter((p): p is Collection => p !== undefined && files.holds(p)) : [];
      if (!files || parents.length === 0) return listNow();
      return Promise.all(parents.map((p) => files.load(p, []))).then(listNow);
    },
    resetAll() {
      for (const c of written) if (!src.files?.holds(c)) for (const values of c.scopeParams.length === 0 ? [[]] : state.scopesOf(c)) if (state.peek(c, values)) resource(c, values).reset();
    },
    find(name) {
      const segs = name.split('/');
      for (const c of written) {
        const t = c.key.split('/');
        if (t.length !== segs.length) continue;
        const values: string[] = [];
        if (t.every((seg, i) => (isParam(seg) ? isSegment(segs[i]!) && values.push(segs[i]!) > 0 : seg === segs[i]))) return resource(c, values);
      }
      return undefined;
    },
  };
}
