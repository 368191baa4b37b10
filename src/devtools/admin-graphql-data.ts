/**
 * The admin data routes for a schema-first GraphQL API's types (admin-data.ts hands a collection
 * name starting with `graphql:` here: `data/graphql%3APost`). The type's entities are read from
 * the schema-first state (engine/graphql/types-view.ts), a page at a time, with the values a
 * GraphQL query answers; every write takes the path the schema's own mutations take (the same
 * state, the same ids), checked against the SDL's field types first (400 naming the field).
 * The state is per pipeline: the shared one, and a session's own (`?session=`), which starts from
 * the seed (it is not a copy of the shared state). Import replaces a type's entities; reset brings
 * the seed back (ids "1"…"10", seeded values).
 */
import { HttpError } from '../core/errors.js';
import { FastResponse } from '../core/fast-response.js';
import type { MockApi } from '../engine/create-mock-api.js';
import type { CollectionStore } from '../engine/store-contract/contract.js';
import { schemaFirstTypesOf, type SchemaFirstType } from '../engine/graphql/types-view.js';
import { checkPreconditions, etagOfValue } from './etag.js';
import { IMPORT_LIMIT, ITEM_LIMIT, jsonBody, jsonObjectBody, type JsonObject as Obj } from './admin-json-body.js';

/** The prefix of a schema-first type's name in the data routes (`graphql:Post`). */
export const GRAPHQL_TYPE = 'graphql:';

const json = (value: unknown, status = 200, headers: Record<string, string> = {}, head = false) => FastResponse.json(JSON.stringify(value), status, { 'Cache-Control': 'no-store', ...headers }, head);

/** The types for `GET data` of the scope whose collection store is `store`. */
export async function graphqlCollections(api: MockApi, store: CollectionStore): Promise<Array<{ name: string; count: number; backend: 'graphql' }>> {
  if (api.options.graphql?.schema === undefined) return [];
  const view = await schemaFirstTypesOf(store);
  // A broken SDL is the GraphQL endpoint's 500 to report; the Data tab lists no types then.
  const types = view ? await view.list().catch(() => []) : [];
  return types.map((t) => ({ name: `${GRAPHQL_TYPE}${t.name}`, count: t.count(), backend: 'graphql' as const }));
}

async function typeOf(store: CollectionStore, name: string): Promise<SchemaFirstType> {
  const view = await schemaFirstTypesOf(store);
  const type = name.slice(GRAPHQL_TYPE.length);
  const t = (await view?.list())?.find((x) => x.name === type);
  if (!t) throw new HttpError(404, `No type ${JSON.stringify(type)} with an id in the GraphQL schema`);
  return t;
}

export async function graphqlDataRoute(store: CollectionStore, session: string | null, request: Request, method: string, name: string, rest: string[], page: { offset: number; limit: number; exportAll: boolean; sort?: { readonly field: string; readonly order?: 'asc' | 'desc' }; q?: string }): Promise<Response> {
  const t = await typeOf(store, name);
  const head = method === 'HEAD';
  const scope = { session, backend: 'graphql' };
  if (rest.length === 0) {
    if (method === 'GET' || head) {
      if (page.exportAll) return json(t.all(), 200, { 'Content-Disposition': `attachment; filename="${t.name}.json"` }, head);
      let items: Obj[];
      let total: number;
      if (page.sort || page.q) {
        let all = t.all();
        if (page.q) {
          const q = page.q.toLowerCase();
          all = all.filter((it) => Object.values(it).some((v) => v !== null && typeof v !== 'object' && String(v).toLowerCase().includes(q)));
        }
        if (page.sort) {
          const { field, order } = page.sort;
          const sign = order === 'desc' ? -1 : 1;
          // Ids are strings ("2" before "10" as numbers): numeric text sorts as a number.
          const key = (v: unknown) => (typeof v === 'string' && /^-?\d{1,15}$/.test(v) ? Number(v) : v);
          all = [...all].sort((a, b) => {
            const x = key(a[field]);
            const y = key(b[field]);
            return x === y ? 0 : x === undefined ? 1 : y === undefined ? -1 : (x as number) < (y as number) ? -sign : sign;
          });
        }
        total = all.length;
        items = all.slice(page.offset, page.offset + page.limit);
      } else {
        total = t.count();
        items = t.slice(page.offset, page.limit);
      }
      return json({ scope, name, items, etags: items.map(etagOfValue), total, offset: page.offset, limit: page.limit, idField: 'id' }, 200, {}, head);
    }
    if (method === 'POST') {
      const item = t.insert(await jsonObjectBody(request, ITEM_LIMIT));
      return json(item, 201, { ETag: etagOfValue(item) });
    }
    if (method === 'PUT') {
      const items = await jsonBody(request, IMPORT_LIMIT);
      if (!Array.isArray(items)) throw new HttpError(400, 'The body must be a JSON array of items (what GET ?export=true gives)');
      return json({ scope, name, count: t.replaceAll(items) });
    }
    throw new HttpError(405, `Method ${method} is not allowed here`, { headers: { Allow: 'GET, HEAD, POST, PUT' } });
  }
  if (rest.length === 1 && rest[0] === 'reset') {
    if (method !== 'POST') throw new HttpError(405, `Method ${method} is not allowed here`, { headers: { Allow: 'POST' } });
    t.reset();
    return json({ scope, name, count: t.count() });
  }
  const id = rest[0]!;
  const what = `${t.name} ${JSON.stringify(id)}`;
  if (rest.length > 1) {
    if (rest[1] === 'duplicate' && rest.length === 2) {
      if (method !== 'POST') throw new HttpError(405, `Method ${method} is not allowed here`, { headers: { Allow: 'POST' } });
      const current = t.get(id);
      if (current === undefined) throw new HttpError(404, `${what} does not exist`);
      const { id: _, ...copy } = current;
      const item = t.insert(copy);
      return json(item, 201, { ETag: etagOfValue(item) });
    }
    throw new HttpError(404, 'Not Found');
  }
  // The state is synchronous: the If-Match check and the write run with nothing in between.
  const current = t.get(id);
  switch (method) {
    case 'GET':
    case 'HEAD':
      if (current === undefined) throw new HttpError(404, `${what} does not exist`);
      return json(current, 200, { ETag: etagOfValue(current) }, head);
    case 'PATCH':
    case 'PUT': {
      const changes = await jsonObjectBody(request, ITEM_LIMIT);
      const now = t.get(id);
      checkPreconditions(request, now === undefined ? undefined : etagOfValue(now), what);
      const item = t.update(id, changes, method === 'PUT');
      if (item === undefined) throw new HttpError(404, `${what} does not exist`);
      return json(item, 200, { ETag: etagOfValue(item) });
    }
    case 'DELETE':
      checkPreconditions(request, current === undefined ? undefined : etagOfValue(current), what);
      if (!t.remove(id)) throw new HttpError(404, `${what} does not exist`);
      return FastResponse.empty(204, { 'X-Deleted-Count': '1' });
    default:
      throw new HttpError(405, `Method ${method} is not allowed here`, { headers: { Allow: 'GET, HEAD, PATCH, PUT, DELETE' } });
  }
}
