/**
 * The admin API's data routes (admin.ts hands every `/data…` path here): the collections of the
 * mock API, read and written through the collection store (src/engine/store: the same
 * validation, ids, relations and change events as REST and GraphQL, so subscribers and webhooks
 * see the page's edits). `?session=<id>` works on that session's copy of the data (created when
 * needed); without it, on the shared data. A collection is named as one URL segment
 * (`encodeURIComponent('v1/users')`).
 *
 *   GET    data                         { scope, collections: [{ name, count, backend? }], objects: [name], db? } (objects: the
 *                                       top-level JSON files holding one object, in the scope's view: edited through
 *                                       files/<name>.json, with ?session= in that session's own data; db: the file's
 *                                       name when they are the keys of one JSON file, `mock.db`, so the page names it)
 *   GET    data/<name>                  one page: { items, etags, total, offset, limit }
 *                                       ?offset= ?limit= (1…1000, default 50) ?sort=<field> ?order=asc|desc
 *                                       ?q=<text> (any top-level value contains it) ?filter=<JSON object> (store.list's filter)
 *                                       ?export=true: the whole collection as a JSON array download
 *   PUT    data/<name>                  body: a JSON array of items: replaces the collection (import), one write
 *   POST   data/<name>                  body: an item → 201 the item as stored (its id assigned when missing)
 *   POST   data/<name>/reset            the collection back to its seed (shared: the memory filesystem's
 *                                       seed, 501 elsewhere; a session: the shared data)
 *   GET    data/<name>/<id>             the item, with its ETag
 *   PATCH  data/<name>/<id>             body: fields merged into the item
 *   PUT    data/<name>/<id>             body: the whole item (its id never moves)
 *   DELETE data/<name>/<id>             204, X-Deleted-Count: the item and its dependants (as REST's DELETE:
 *                                       under the json-server preset a post's comments go too)
 *   POST   data/<name>/<id>/duplicate   201 a copy with a new id
 *
 * A name starting with `/` (`%2Fpet`) is a resource of the OpenAPI backend's in-memory state
 * (`backend: 'openapi'` in the list; a session's own copy with `?session=`): the same routes, written through the
 * document's operations (admin-openapi-data.ts). A name starting with `graphql:` (`graphql%3APost`) is an
 * entity type of a schema-first GraphQL API (`backend: 'graphql'`; a session's own state with
 * `?session=`): the same routes, import and reset included, written through the path the schema's
 * mutations take and checked against the SDL's field types (admin-graphql-data.ts).
 *
 * Writes to an item take `If-Match: <etag>` (the tag GET gave, `etags[i]` of a page): when the
 * item changed since (another tab, a request), the answer is 412 with the current tag and
 * nothing is written. The check and the write run in the collection's write queue, so nothing
 * can slip in between.
 */
import { HttpError } from '../core/errors.js';
import { FastResponse } from '../core/fast-response.js';
import { assertNoForbiddenKeys, parseJsonBytes } from '../core/json-safety.js';
import type { MockApi } from '../engine/create-mock-api.js';
import type { CollectionStore, Item, ListQuery } from '../engine/store-contract/contract.js';
import { removeWithDependants } from '../engine/store/remove-with-dependants.js';
import { joinVfsPath } from '../vfs/path.js';
import { checkPreconditions, etagOfValue } from './etag.js';
import { openApiCollections, openApiDataRoute } from './admin-openapi-data.js';
import { GRAPHQL_TYPE, graphqlCollections, graphqlDataRoute } from './admin-graphql-data.js';
import { IMPORT_LIMIT, ITEM_LIMIT, isJsonObject as isItem, jsonBody } from './admin-json-body.js';

const MAX_PAGE = 1000;

const json = (value: unknown, status = 200, headers: Record<string, string> = {}, head = false) => FastResponse.json(JSON.stringify(value), status, { 'Cache-Control': 'no-store', ...headers }, head);

function decode(seg: string, what: string): string {
  try {
    return decodeURIComponent(seg);
  } catch {
    throw new HttpError(400, `Malformed ${what} in the URL`);
  }
}

function intParam(params: URLSearchParams, name: string, fallback: number, min: number, max: number): number {
  const raw = params.get(name);
  if (raw === null || raw === '') return fallback;
  if (!/^\d{1,9}$/.test(raw) || Number(raw) < min || Number(raw) > max) throw new HttpError(400, `${name} must be an integer from ${min} to ${max}`);
  return Number(raw);
}

function listQueryFrom(params: URLSearchParams): ListQuery & { offset: number; limit: number } {
  const offset = intParam(params, 'offset', 0, 0, 1e9);
  const limit = intParam(params, 'limit', 50, 1, MAX_PAGE);
  const filter: Record<string, unknown> = {};
  const rawFilter = params.get('filter');
  if (rawFilter) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(rawFilter);
    } catch {
      throw new HttpError(400, 'filter must be a JSON object ({"done": true}, {"views_gt": 10})');
    }
    if (!isItem(parsed)) throw new HttpError(400, 'filter must be a JSON object ({"done": true}, {"views_gt": 10})');
    assertNoForbiddenKeys(parsed);
    Object.assign(filter, parsed);
  }
  const q = params.get('q');
  if (q) filter.q = q;
  const field = params.get('sort');
  const order = params.get('order') ?? 'asc';
  if (order !== 'asc' && order !== 'desc') throw new HttpError(400, 'order must be asc or desc');
  return { offset, limit, ...(Object.keys(filter).length ? { filter } : {}), ...(field ? { sort: { field, order } } : {}) };
}

/** The store a request works on, and how the page labels it. */
function scopeOf(api: MockApi, params: URLSearchParams): { store: CollectionStore; scope: { session: string | null } } {
  const session = params.get('session');
  if (session) return { store: api.sessions.store(session), scope: { session } };
  return { store: api.app.store, scope: { session: null } };
}

/** The seed of collection `name` for the scope: what a reset brings back. */
async function seedOf(api: MockApi, store: CollectionStore, name: string, session: string | null): Promise<readonly Item[]> {
  if (session !== null) {
    const shared = await api.app.store.all(name);
    if (shared === undefined) throw new HttpError(404, `The shared data has no collection ${JSON.stringify(name)} to reset to`);
    return shared;
  }
  const fs = api.app.fs as { seeded?: (path: string) => Uint8Array | undefined };
  if (typeof fs.seeded !== 'function') {
    throw new HttpError(501, 'Reset is not available for this filesystem: only memoryFs keeps a seed per file (a disk folder is yours: use git)');
  }
  const version = await store.open(name);
  if (version === null) throw new HttpError(404, `No collection ${JSON.stringify(name)}`);
  const bytes = fs.seeded(joinVfsPath(api.options.fsDir ?? '', version.file));
  if (bytes === undefined) throw new HttpError(404, `The seed has no ${version.file}`);
  const seed = parseJsonBytes(bytes);
  if (!Array.isArray(seed)) throw new HttpError(409, `The seed of ${version.file} is not a collection`);
  return seed as Item[];
}

/** Replaces every item of `name` with `items`, in one write (change events for each item). */
function replaceAll(store: CollectionStore, name: string, items: readonly unknown[]): Promise<number> {
  return store.transaction(name, (tx) => {
    tx.removeWhere(() => true);
    for (const item of items) tx.insert(item as Item);
    return tx.items.length;
  });
}

export async function dataRoute(api: MockApi, request: Request, method: string, sub: string, params: URLSearchParams): Promise<Response> {
  const head = method === 'HEAD';
  const allow = (methods: string): never => {
    throw new HttpError(405, `Method ${method} is not allowed here`, { headers: { Allow: methods } });
  };
  const parts = sub.split('/').slice(2); // ['', 'data', name, id, action]
  const { store, scope } = scopeOf(api, params);
  if (parts.length === 0) {
    if (method !== 'GET' && !head) return allow('GET, HEAD');
    const collections = [];
    // No files at all (`mockyard openapi.yaml`: the document alone, no mocks folder): no store
    // collections or objects, and the OpenAPI backend's and GraphQL's below still listed.
    const files = await store.names().then(
      () => true,
      (err: unknown) => (err instanceof HttpError && err.status === 404 ? false : Promise.reject(err)),
    );
    if (files) for (const name of await store.names()) collections.push({ name, count: (await store.all(name))?.length ?? 0 });
    // Singular objects (config.json: { … }): the page edits them as a form through files/<name>.json (with ?session=, in that session's view: the shared file untouched).
    const objects = files ? Object.entries(await store.documents()).filter(([, v]) => isItem(v)).map(([name]) => name).sort() : [];
    // The OpenAPI backend's in-memory resources (`/pet`), after the store's (admin-openapi-data.ts).
    collections.push(...(await openApiCollections(api, store)));
    // A schema-first GraphQL API's entity types (`graphql:Post`), last (admin-graphql-data.ts).
    collections.push(...(await graphqlCollections(api, store)));
    // With `mock.db` the "files" are keys of that one file: the page says what it saved in (db.json's `profile`, no profile.json).
    const db = api.options.db === null ? {} : { db: api.options.db.split(/[\\/]/).pop() };
    return json({ scope, collections, objects, ...db }, 200, {}, head);
  }
  const name = decode(parts[0]!, 'collection name');
  if (name.startsWith('/') || name.startsWith(GRAPHQL_TYPE)) {
    const query = method === 'GET' || head ? listQueryFrom(params) : { offset: 0, limit: 50 };
    const q = typeof query.filter?.q === 'string' ? query.filter.q : undefined;
    const page = { offset: query.offset, limit: query.limit, exportAll: params.get('export') === 'true', ...(query.sort ? { sort: query.sort } : {}), ...(q ? { q } : {}) };
    const rest = parts.slice(1).map((p) => decode(p, 'item id'));
    if (name.startsWith(GRAPHQL_TYPE)) return graphqlDataRoute(store, scope.session, request, method, name, rest, page);
    return openApiDataRoute(api, store, scope.session, request, method, name, rest, page);
  }
  if (parts.length === 1) {
    if (method === 'GET' || head) {
      if (params.get('export') === 'true') {
        const items = await store.all(name);
        if (items === undefined) throw new HttpError(404, `No collection ${JSON.stringify(name)}`);
        const file = `${name.replace(/[^A-Za-z0-9._-]+/g, '-')}.json`;
        return FastResponse.json(JSON.stringify(items, null, 2), 200, { 'Cache-Control': 'no-store', 'Content-Disposition': `attachment; filename="${file}"` }, head);
      }
      const query = listQueryFrom(params);
      const page = await store.list(name, query);
      return json({ scope, name, items: page.items, etags: page.items.map(etagOfValue), total: page.total, offset: query.offset, limit: query.limit, idField: store.idField }, 200, {}, head);
    }
    if (method === 'POST') {
      const item = await jsonBody(request, ITEM_LIMIT);
      if (!isItem(item)) throw new HttpError(400, 'The body must be a JSON object (the item)');
      const stored = await store.insert(name, item);
      return json(stored, 201, { ETag: etagOfValue(stored) });
    }
    if (method === 'PUT') {
      const items = await jsonBody(request, IMPORT_LIMIT);
      if (!Array.isArray(items)) throw new HttpError(400, 'The body must be a JSON array of items (what GET ?export=true gives)');
      const count = await replaceAll(store, name, items);
      return json({ scope, name, count });
    }
    return allow('GET, HEAD, POST, PUT');
  }
  if (parts.length === 2 && parts[1] === 'reset') {
    if (method !== 'POST') return allow('POST');
    const seed = await seedOf(api, store, name, scope.session);
    const count = await replaceAll(store, name, seed);
    return json({ scope, name, count });
  }
  const id = decode(parts[1]!, 'item id');
  const action = parts.slice(2).join('/');
  const what = `Item ${JSON.stringify(id)} of ${name}`;
  if (action === 'duplicate') {
    if (method !== 'POST') return allow('POST');
    const copy = await store.transaction(name, (tx) => {
      const found = tx.get(id);
      if (found === undefined) throw new HttpError(404, `${what} does not exist`);
      const { [store.idField]: _, ...rest } = found;
      return tx.insert(structuredClone(rest));
    });
    return json(copy, 201, { ETag: etagOfValue(copy) });
  }
  if (action !== '') throw new HttpError(404, 'Not Found');
  switch (method) {
    case 'GET':
    case 'HEAD': {
      const item = await store.get(name, id);
      if (item === undefined) throw new HttpError(404, `${what} does not exist`);
      return json(item, 200, { ETag: etagOfValue(item) }, head);
    }
    case 'PATCH':
    case 'PUT': {
      const changes = await jsonBody(request, ITEM_LIMIT);
      if (!isItem(changes)) throw new HttpError(400, 'The body must be a JSON object');
      const updated = await store.transaction(name, (tx) => {
        const current = tx.get(id);
        checkPreconditions(request, current === undefined ? undefined : etagOfValue(current), what);
        if (current === undefined) throw new HttpError(404, `${what} does not exist`);
        return tx.update(id, changes, { replace: method === 'PUT' });
      });
      if (updated === undefined) throw new HttpError(404, `${what} does not exist`);
      return json(updated, 200, { ETag: etagOfValue(updated) });
    }
    case 'DELETE': {
      // REST's delete (remove-with-dependants.ts): under the json-server preset a post's comments go too.
      const collection = await store.open(name);
      if (collection === null) throw new HttpError(404, `${what} does not exist`);
      const result = await removeWithDependants(store, collection, id, api.options.preset === 'json-server' ? 'next-to' : 'none', (current) => {
        checkPreconditions(request, current === undefined ? undefined : etagOfValue(current), what);
        if (current === undefined) throw new HttpError(404, `${what} does not exist`);
      });
      return FastResponse.empty(204, { 'X-Deleted-Count': String(result?.deleted ?? 0) });
    }
    default:
      return allow('GET, HEAD, PATCH, PUT, DELETE');
  }
}
