/**
 * The admin data routes for the OpenAPI backend's resources (admin-data.ts hands a collection
 * name starting with `/` here: `data/%2Fpet`). Reads come from the backend's state
 * (engine/openapi-backend/resources-view.ts: in memory, or with `state` as its files hold it), a
 * page at a time; every write is a request to the
 * mock API on the document's own operation (`PUT /pet` for an edit of a pet, `POST /pet` for an
 * add, `DELETE /pet/{petId}`), so it walks the same path a client's request walks: the openapi
 * layer validates it against the document's schema, the backend assigns the id. What the document
 * does not describe (no operation that writes the item) is 405 naming what is missing.
 * A collection under a path parameter is one resource per parent (`/users/7/orders`): its writes
 * fill the parent's value in (`PUT /users/7/orders/3`).
 * Two writes are the state's own, not an operation's (none writes a whole collection): an import
 * (`PUT data/<name>`, a JSON array, every item checked against the resource's item schema by the
 * openapi layer's payload check first: a bad item is 400 naming it and its fields, and nothing is
 * imported) and a reset (`POST data/<name>/reset`: drawn again from the backend's seed).
 * The request is marked as the page's write (engine/page-write.ts: a mark on the Request object,
 * which no HTTP client can send): the openapi layer takes it for the operation's credentials
 * (apiKey, Basic, bearer alike), and the backend checks the page's `If-Match` against the item in
 * the same turn as its write, so two writes from the same view cannot both pass (one `412`).
 * The backend keeps one state per pipeline: the shared one, and a session's own (its requests,
 * and these writes with `?session=`, carry `X-Mockyard-Session`).
 */
import { HttpError } from '../core/errors.js';
import { FastResponse } from '../core/fast-response.js';
import type { MockApi } from '../engine/create-mock-api.js';
import type { CollectionStore } from '../engine/store-contract/contract.js';
import { openApiResourcesOf, type OpenApiResource, type OpenApiResources } from '../engine/openapi-backend/resources-view.js';
import { payloadChecker, type PayloadCheck } from '../engine/openapi/payload-check.js';
import { markPageWrite, type PageWrite } from '../engine/page-write.js';
import { checkPreconditions, etagOfValue } from './etag.js';
import { IMPORT_LIMIT, jsonBody, jsonObjectBody, isJsonObject as isObj, type JsonObject as Obj } from './admin-json-body.js';

const json = (value: unknown, status = 200, headers: Record<string, string> = {}, head = false) => FastResponse.json(JSON.stringify(value), status, { 'Cache-Control': 'no-store', ...headers }, head);

/** The resources for `GET data` of the scope whose collection store is `store` (with `state`, a folder: as its files hold them). */
export async function openApiCollections(api: MockApi, store: CollectionStore): Promise<Array<{ name: string; count: number; backend: 'openapi' }>> {
  if (!api.options.openapi) return [];
  const view = await openApiResourcesOf(store);
  if (!view) return [];
  return Promise.all((await view.list()).map(async (r) => ({ name: r.name, count: await r.count(), backend: 'openapi' as const })));
}

async function resourceOf(store: CollectionStore, name: string): Promise<{ r: OpenApiResource; view: OpenApiResources }> {
  const view = await openApiResourcesOf(store);
  const r = view?.find(name);
  if (!r || !view) throw new HttpError(404, `No collection ${JSON.stringify(name)} in the OpenAPI backend`);
  return { r, view };
}

/** The openapi layer's check of a value against one schema of the document, made once per view. */
const checkers = new WeakMap<OpenApiResources, PayloadCheck>();
function checkerOf(view: OpenApiResources): PayloadCheck {
  let check = checkers.get(view);
  if (!check) checkers.set(view, (check = payloadChecker(view.doc, view.deref)));
  return check;
}

/** An import: every item an object matching the resource's item schema, else 400 naming the first bad item and its fields (nothing imported). */
function checkedImport(view: OpenApiResources, r: OpenApiResource, items: unknown): Obj[] {
  if (!Array.isArray(items)) throw new HttpError(400, 'The body must be a JSON array of items (what GET ?export=true gives)');
  const check = checkerOf(view);
  items.forEach((item, i) => {
    if (!isObj(item)) throw new HttpError(400, `Item ${i} of ${r.name} is not a JSON object: nothing was imported`, { details: { item: i } });
    const problems = check(r.itemSchema, item);
    if (problems.length > 0) throw new HttpError(400, `Item ${i} of ${r.name} does not match the document's schema: ${problems.join('; ')}; nothing was imported`, { details: { item: i, errors: problems } });
  });
  return items as Obj[];
}

/** Sends `method path` with `body` through the mock API, marked as the page's write: what a client's request with credentials would get. */
async function dispatch(api: MockApi, session: string | null, method: string, template: string, r: OpenApiResource, id: string | undefined, body: unknown, mark: PageWrite = {}): Promise<Response> {
  const prefix = (api.prefixes.find((p) => p !== '/') ?? '').replace(/\/$/, '');
  const path = template.replace(/\{([^}]+)\}/g, (_m, p: string) => (p === r.idParam && id !== undefined ? encodeURIComponent(id) : p in r.params ? encodeURIComponent(r.params[p]!) : `{${p}}`));
  const request = new Request(`http://mockyard.devtools${prefix}${path}`, {
    method,
    headers: { Accept: 'application/json', ...(session === null ? {} : { 'X-Mockyard-Session': session }), ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const res = await api.handle(markPageWrite(request, mark));
  if (!res) throw new HttpError(502, `Nothing answered ${method} ${path}`);
  return res;
}

/** A refused write: the backend's (or the openapi layer's) own answer, its status and body, passed on. */
async function refused(res: Response, what: string): Promise<Response> {
  const text = await res.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  const message = isObj(body) && typeof body.message === 'string' ? body.message : `${what}: ${res.status}`;
  return json({ ...(isObj(body) ? body : {}), message, status: res.status }, res.status);
}

/** The page's `If-Match`, for the backend to check against the item in the same turn as its write. */
function preconditionOf(request: Request, what: string): PageWrite {
  if (request.headers.get('if-match') === null) return {};
  return {
    precondition: (current) => {
      try {
        checkPreconditions(request, current === undefined ? undefined : etagOfValue(current), what);
        return true;
      } catch {
        return false;
      }
    },
  };
}

/** A write the backend refused: a 412 from the page's precondition (the item changed meanwhile) is told as the admin API tells it; anything else is passed on. */
async function refusedWrite(res: Response, request: Request, r: OpenApiResource, id: string, what: string, label: string): Promise<Response> {
  if (res.status === 412) {
    const now = await r.get(id);
    checkPreconditions(request, now === undefined ? undefined : etagOfValue(now), what); // throws the 412 naming the current tag
  }
  return refused(res, label);
}

async function stored(r: OpenApiResource, id: string, what: string): Promise<Obj> {
  const item = await r.get(id);
  if (!isObj(item)) throw new HttpError(404, `${what} does not exist`);
  return item;
}

export async function openApiDataRoute(api: MockApi, store: CollectionStore, session: string | null, request: Request, method: string, name: string, rest: string[], page: { offset: number; limit: number; exportAll: boolean; sort?: { readonly field: string; readonly order?: 'asc' | 'desc' }; q?: string }): Promise<Response> {
  const { r, view } = await resourceOf(store, name);
  const head = method === 'HEAD';
  const scope = { session, backend: 'openapi' };
  const idField = r.idField ?? 'id';
  // An item's body: read within the mock API's body limit (the write goes to it), by the JSON rule of every body (core/json-safety.ts).
  const bodyOf = (): Promise<Obj> => jsonObjectBody(request, api.options.bodyLimit);
  if (rest.length === 0) {
    if (method === 'GET' || head) {
      if (page.exportAll) return json(await r.all(), 200, { 'Content-Disposition': `attachment; filename="${name.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-/, '')}.json"` }, head);
      let items: unknown[];
      let total: number;
      if (page.sort || page.q) {
        let all = await r.all();
        if (page.q) {
          const q = page.q.toLowerCase();
          all = all.filter((it) => isObj(it) && Object.values(it).some((v) => v !== null && typeof v !== 'object' && String(v).toLowerCase().includes(q)));
        }
        if (page.sort) {
          const { field, order } = page.sort;
          const sign = order === 'desc' ? -1 : 1;
          all = [...all].sort((a, b) => {
            const x = isObj(a) ? a[field] : undefined;
            const y = isObj(b) ? b[field] : undefined;
            return x === y ? 0 : x === undefined ? 1 : y === undefined ? -1 : (x as number) < (y as number) ? -sign : sign;
          });
        }
        total = all.length;
        items = all.slice(page.offset, page.offset + page.limit);
      } else {
        total = await r.count();
        items = await r.slice(page.offset, page.limit);
      }
      return json({ scope, name, items, etags: items.map(etagOfValue), total, offset: page.offset, limit: page.limit, idField }, 200, {}, head);
    }
    if (method === 'POST') {
      if (!r.ops.create) throw new HttpError(405, `The document has no operation that creates an item of ${name}`);
      const res = await dispatch(api, session, r.ops.create.method, r.ops.create.template, r, undefined, await bodyOf());
      if (!res.ok) return refused(res, `${r.ops.create.method} ${r.ops.create.template}`);
      const id = decodeURIComponent(res.headers.get('location')?.split('/').pop() ?? '');
      const item = await stored(r, id, `The created item of ${name}`);
      return json(item, 201, { ETag: etagOfValue(item) });
    }
    if (method === 'PUT') {
      const items = checkedImport(view, r, await jsonBody(request, IMPORT_LIMIT));
      return json({ scope, name, count: await r.replace(items) });
    }
    throw new HttpError(405, `Method ${method} is not allowed here`, { headers: { Allow: 'GET, HEAD, POST, PUT' } });
  }
  if (rest.length === 1 && rest[0] === 'reset' && method === 'POST') {
    await r.reset();
    return json({ scope, name, count: await r.count() });
  }
  const id = rest[0]!;
  const what = `Item ${JSON.stringify(id)} of ${name}`;
  if (rest.length > 1) {
    if (rest[1] === 'duplicate' && rest.length === 2 && method === 'POST') {
      if (!r.ops.create) throw new HttpError(405, `The document has no operation that creates an item of ${name}`);
      const { [idField]: _, ...copy } = await stored(r, id, what);
      const res = await dispatch(api, session, r.ops.create.method, r.ops.create.template, r, undefined, copy);
      if (!res.ok) return refused(res, `${r.ops.create.method} ${r.ops.create.template}`);
      const newId = decodeURIComponent(res.headers.get('location')?.split('/').pop() ?? '');
      const item = await stored(r, newId, `The copy of ${what}`);
      return json(item, 201, { ETag: etagOfValue(item) });
    }
    throw new HttpError(404, 'Not Found');
  }
  switch (method) {
    case 'GET':
    case 'HEAD': {
      const item = await stored(r, id, what);
      return json(item, 200, { ETag: etagOfValue(item) }, head);
    }
    case 'PATCH':
    case 'PUT': {
      const changes = await bodyOf();
      for (let attempt = 1; ; attempt++) {
        const current = await r.get(id);
        checkPreconditions(request, current === undefined ? undefined : etagOfValue(current), what);
        if (!isObj(current)) throw new HttpError(404, `${what} does not exist`);
        const whole = { ...(method === 'PATCH' ? current : {}), ...changes, [idField]: current[idField] };
        // A PATCH goes to a documented partial update by path when there is one; else the whole item to the replacing operation.
        const op = method === 'PATCH' && r.ops.update && !r.ops.update.byBody ? r.ops.update : (r.ops.replace ?? r.ops.update);
        if (!op) throw new HttpError(405, `The document has no operation that writes an item of ${name} (PUT or PATCH on it, or on ${name} with the item as its body)`);
        const partial = op === r.ops.update && !op.byBody && method === 'PATCH';
        // Without If-Match, a PATCH merged here onto `current` is stored only while the item still is
        // `current` (checked in the backend's turn); else it is merged again onto the item as it then is.
        const merged = method === 'PATCH' && !partial && request.headers.get('if-match') === null;
        const mark: PageWrite = merged ? { precondition: (now) => now !== undefined && etagOfValue(now) === etagOfValue(current) } : preconditionOf(request, what);
        const res = await dispatch(api, session, op.method, op.template, r, id, partial ? changes : whole, mark);
        if (res.status === 412 && merged && attempt < 3) {
          await res.body?.cancel();
          continue;
        }
        if (!res.ok) return refusedWrite(res, request, r, id, what, `${op.method} ${op.template}`);
        const item = await stored(r, id, what);
        return json(item, 200, { ETag: etagOfValue(item) });
      }
    }
    case 'DELETE': {
      const current = await r.get(id);
      checkPreconditions(request, current === undefined ? undefined : etagOfValue(current), what);
      if (current === undefined) throw new HttpError(404, `${what} does not exist`);
      if (!r.ops.delete) throw new HttpError(405, `The document has no operation that deletes an item of ${name}`);
      const res = await dispatch(api, session, r.ops.delete.method, r.ops.delete.template, r, id, undefined, preconditionOf(request, what));
      if (!res.ok) return refusedWrite(res, request, r, id, what, `${r.ops.delete.method} ${r.ops.delete.template}`);
      return FastResponse.empty(204);
    }
    default:
      throw new HttpError(405, `Method ${method} is not allowed here`, { headers: { Allow: 'GET, HEAD, PATCH, PUT, DELETE' } });
  }
}
