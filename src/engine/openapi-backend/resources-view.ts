/**
 * What the devtools' Data tab sees of the OpenAPI backend's in-memory state (layers.ts registers
 * each pipeline's, keyed by that pipeline's collection store: the engine's own, a session's): the collections
 * without scope parameters (`/pet`, not `/users/{id}/orders`), each with its item count, a page
 * of its items (drawn lazily as REST reads draw them), one item, and the documented operations
 * that write it. Reads only: a write goes through the mock API itself (the document's operation,
 * so the openapi layer's validation and the backend's ids apply; a request's path is the mock API
 * prefix + the template, the prefix standing for the server URL), see devtools/admin-openapi-data.ts.
 */
import type { Collection, Role } from './resources.js';

export interface OpenApiResourceOps {
  create?: { method: string; template: string };
  /** An item write by its path (`PUT /pet/{petId}` replace, `PATCH` update) or by its body (`PUT /pet`). */
  replace?: { method: string; template: string; byBody: boolean };
  update?: { method: string; template: string; byBody: boolean };
  delete?: { method: string; template: string };
}

export interface OpenApiResource {
  /** The collection's path template (`/pet`): its name in the Data tab. */
  name: string;
  idField: string | undefined;
  idParam: string | undefined;
  ops: OpenApiResourceOps;
  count(): number;
  /** The items in insertion order from `offset` (only those are drawn). */
  slice(offset: number, limit: number): unknown[];
  /** Every item (for a sort or a filter: draws them all). */
  all(): unknown[];
  get(id: string): unknown;
}

export interface OpenApiResources {
  list(): OpenApiResource[];
}

const views = new WeakMap<object, Promise<OpenApiResources | undefined>>();

export function registerOpenApiResources(store: object, resources: Promise<OpenApiResources | undefined>): void {
  views.set(store, resources);
}

/** The backend's resources of the pipeline whose collection store is `store` (undefined: no backend in memory). */
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
