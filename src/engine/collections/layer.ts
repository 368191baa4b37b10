/**
 * The collections layer (`mock.collections`): a JSON array of objects served as a
 * json-server collection, on top of file mode.
 *
 *   GET/HEAD/PUT/PATCH/DELETE <prefix>/<name>/<id>   the item whose id matches (`itemRoute` below;
 *                                                    ids matched as item-id.ts says)
 *   POST <prefix>/<name>                             appends, assigns an id (`append` below)
 * and with `preset: 'json-server'`:
 *   GET <prefix>/<name>?<json-server query>          json-server-query.ts (+ _embed/_expand)
 *   GET/POST <prefix>/<parent>/<id>/<name>           nested children (relations.ts)
 *   DELETE <prefix>/<name>/<id>?_dependent=children  the item and its children
 *
 * An HTTP layer over the collection store (store/store.ts): the store finds collections (a
 * request path `/v1/posts` is the collection `v1/posts`), gets items, runs queries (its compiled
 * scan), lists the files next to a collection, and takes every write in its transaction (the
 * per-file queue: REST, handlers' `req.app.store` and GraphQL never race). Relations are named as
 * the store names them (`mock.store.relations`; json-server's `postId` ⇄ `posts` by default).
 *
 * Files and handlers keep winning: an item route is taken only when the full path names no file
 * (the files layer says: `namesFile`; handlers run before this layer). A path this layer does not
 * take goes on to file mode, which answers as the spec says (a missing item ends as the JSON 404).
 *
 * Fast path (`peek`): a GET/HEAD of an item of a collection the store has at hand (`store.peek`),
 * whose own path is known to name no file, is answered synchronously; so is a json-server query
 * without `_embed`/`_expand` (answers remembered per collection version and URL).
 * Order: after handlers and graphql, before files: an item route is taken only where no file
 *   claims the path; everything else goes on to file mode.
 */
import { carriesBody, hasBody } from '../../core/body.js';
import { readDecodedBody } from '../../core/content-encoding.js';
import { HttpError, isHttpError } from '../../core/errors.js';
import { FastResponse } from '../../core/fast-response.js';
import { assertNoForbiddenKeys, parseJsonBytes } from '../../core/json-safety.js';
import { parseMediaType } from '../../core/media-type.js';
import type { BoundedSyncInflate } from '../../core/inflate-bounded.js';
import type { RequestContext } from '../context.js';
import type { FilterConfig, PaginationConfig, PerMethod } from '../types.js';
import { configFor } from '../file-cache/fs-call.js';
import { lookupTarget } from '../file-cache/lookup.js';
import { MSG } from '../file-cache/messages.js';
import { applyPatchDocument, patchKindFor, preparePatch, validatePatch } from '../file-cache/patch-document.js';
import type { FilesLayer } from '../file-cache/files-layer.js';
import { PASS, type Layer } from '../pipeline/layer.js';
import type { CollectionSnapshot, CollectionStore, QueryResult } from '../store-contract/contract.js';
import { idKeyOf } from '../store/item-id.js';
import { arrayJson, jsonOf } from '../store/item-json.js';
import { runQuery } from '../store/query.js';
import { removeWithDependants } from '../store/remove-with-dependants.js';
import { linkHeader, parseJsonServerQuery, type JsonServerQuery } from './json-server-query.js';
import { embed, expand } from './relations.js';
import { expandField, holdsField, relationField } from '../store/relations.js';
import { isObj } from '../../core/json-object.js';
import { collectFields } from '../handler-api/fields.js';

const NAME = 'collections';

const MAX_REMEMBERED_ANSWERS = 32;
const MAX_REMEMBERED_ANSWER = 256 * 1024;

/** What the collections layer reads of the resolved options (the option list passes them whole). */
export interface CollectionsLayerOptions {
  readonly collections: { idField: string } | null;
  readonly preset: 'json-server' | null;
  readonly bodyLimit: number;
  readonly maxJsonDepth: number;
  readonly pagination: PerMethod<PaginationConfig> | null;
  readonly filters: PerMethod<FilterConfig> | null;
}

/** What the layer is built from: the options, the files layer (which paths name files), the store. */
export interface CollectionsSources {
  readonly options: CollectionsLayerOptions;
  readonly files: FilesLayer;
  readonly store: CollectionStore;
  /** The runtime's native inflate for compressed request bodies (content-encoding.ts). */
  readonly inflate?: BoundedSyncInflate;
}

function decodeSegment(seg: string): string | undefined {
  if (seg === '') return undefined;
  try {
    return decodeURIComponent(seg);
  } catch {
    return undefined;
  }
}

/** Name of a collection from its request key (`/v1/posts` → `v1/posts`, the store's name). */
function nameOf(key: string): string {
  return key.slice(1).split('/').map((seg) => decodeSegment(seg) ?? '').join('/');
}

/** The layer for `options.collections` (and `options.preset`), over the collection store. */
export function createCollectionsLayer({ options, files, store, inflate }: CollectionsSources): Layer {
  const idField = options.collections?.idField ?? 'id';
  const jsonServer = options.preset === 'json-server';
  const naming = store.relations;
  const bodyLimit = options.bodyLimit;
  /** What answered, for observers: the file below fsDir, `#id` for an item, `?` for a query. */
  const answered = (ctx: RequestContext, c: CollectionSnapshot, suffix: string) => ctx.answered(NAME, `${c.file}${suffix}`);

  /** The collection at request path `key`: at once when the store has it at hand, else read. */
  function collection(key: string): CollectionSnapshot | null | Promise<CollectionSnapshot | null> {
    const c = store.peek(key);
    return c === undefined ? store.open(key) : c;
  }

  /** A sibling collection of `key` named `name` (`/v1/posts` + `comments` → `/v1/comments`). */
  function siblingKey(key: string, name: string): string {
    return `${key.slice(0, key.lastIndexOf('/'))}/${encodeURIComponent(name)}`;
  }

  async function withRelations(key: string, items: readonly unknown[], q: JsonServerQuery): Promise<unknown[]> {
    let out = items as unknown[];
    const parentsToo: string[] = [];
    const own = nameOf(key);
    for (const name of q.embed) {
      const childKey = siblingKey(key, name);
      const children = await collection(childKey);
      if (children) {
        const fk = relationField(naming, nameOf(childKey), own, holdsField(children.items));
        if (fk !== undefined) out = embed(out, name, children.items, fk, idField);
      } else parentsToo.push(name); // json-server 1.x: `_embed=post` on comments embeds the parent
    }
    for (const name of [...q.expand, ...parentsToo]) {
      const rel = expandField(naming, own, name, holdsField(items));
      for (const candidate of rel?.parents ?? []) {
        const parents = await collection(siblingKey(key, candidate));
        if (parents) {
          out = expand(out, name, parents.items, rel!.field, idField);
          break;
        }
      }
    }
    return out;
  }

  /** The text and headers of a json-server query's answer: the items (0.17, with X-Total-Count and Link) or 1.x's page envelope. */
  function queryText(ctx: RequestContext, q: JsonServerQuery, r: QueryResult, items: readonly unknown[]): { body: string; headers: Record<string, string> } {
    const headers: Record<string, string> = { 'X-Total-Count': String(r.total) };
    if (q.page) {
      const link = linkHeader(ctx.request.url, q.page, r.total);
      if (link) headers.Link = link;
    }
    return { body: r.envelope ? JSON.stringify({ ...r.envelope, data: items }) : arrayJson(items), headers };
  }

  function queryResponse(ctx: RequestContext, q: JsonServerQuery, r: QueryResult, items: readonly unknown[], head: boolean): Response {
    const { body, headers } = queryText(ctx, q, r, items);
    return FastResponse.json(body, 200, headers, head);
  }

  /** A json-server query on a whole collection (sync part: filters, sort, page), through the store's scan; the answer is remembered. */
  function queryAnswer(ctx: RequestContext, c: CollectionSnapshot, q: JsonServerQuery, head: boolean): Response {
    const r = c.query(q);
    const { body, headers } = queryText(ctx, q, r, r.items);
    rememberAnswer(c, ctx.request.url, body, Object.freeze(headers));
    return FastResponse.json(body, 200, headers, head);
  }

  /**
   * Answers to json-server queries of a collection, by full URL (the Link header names it): the
   * same query on the same version of the collection is the same answer. They live and die with
   * the store's snapshot (any change to the collection makes a new one).
   */
  const answers = new WeakMap<CollectionSnapshot, Map<string, { body: string; headers: Readonly<Record<string, string>> }>>();
  function rememberAnswer(c: CollectionSnapshot, url: string, body: string, headers: Readonly<Record<string, string>>): void {
    if (body.length > MAX_REMEMBERED_ANSWER) return;
    let byUrl = answers.get(c);
    if (byUrl === undefined) answers.set(c, (byUrl = new Map()));
    if (byUrl.size >= MAX_REMEMBERED_ANSWERS) byUrl.delete(byUrl.keys().next().value!);
    byUrl.set(url, { body, headers });
  }
  function rememberedAnswer(ctx: RequestContext, c: CollectionSnapshot, head: boolean): Response | undefined {
    const hit = answers.get(c)?.get(ctx.request.url);
    return hit === undefined ? undefined : FastResponse.json(hit.body, 200, hit.headers, head);
  }

  /** A json-server query on collection `c` (`within`: only these of its items, a nested route's children). */
  async function queryCollection(ctx: RequestContext, key: string, c: CollectionSnapshot, within: readonly unknown[] | undefined, head: boolean): Promise<Response> {
    answered(ctx, c, ctx.search);
    const q = parseJsonServerQuery(ctx.searchParams);
    if (within === undefined && q.embed.length === 0 && q.expand.length === 0) return queryAnswer(ctx, c, q, head);
    const r = within === undefined ? c.query(q) : runQuery(within, q);
    return queryResponse(ctx, q, r, await withRelations(key, r.items, q), head);
  }

  async function jsonBody(ctx: RequestContext, what: string): Promise<unknown> {
    const bytes = await readDecodedBody(ctx.request, bodyLimit, inflate); // Content-Encoding as file mode reads it
    if (bytes.byteLength === 0) throw new HttpError(400, MSG.noData);
    if (jsonServer && parseMediaType(ctx.request.headers.get('content-type')).type === 'application/x-www-form-urlencoded') {
      // json-server 0.17 stores a form's fields (as strings; a repeated field as a list).
      const form = collectFields(new URLSearchParams(new TextDecoder().decode(bytes)));
      assertNoForbiddenKeys(form, what);
      return form;
    }
    const value = parseJsonBytes(bytes, what, options.maxJsonDepth);
    assertNoForbiddenKeys(value, what);
    return value;
  }

  function requireJsonType(ctx: RequestContext): void {
    const type = parseMediaType(ctx.request.headers.get('content-type')).type;
    if (type === 'multipart/form-data' || (type === 'application/x-www-form-urlencoded' && !jsonServer)) {
      throw new HttpError(415, 'A collection item must be sent as JSON (Content-Type: application/json)');
    }
  }

  function itemUrl(ctx: RequestContext, key: string, id: string): string {
    return `${ctx.prefix}${key}/${encodeURIComponent(id)}`;
  }

  const noItem = (id: string) => new HttpError(404, `No item with ${idField} ${JSON.stringify(id)}`);

  /** POST <collection>: append (id assigned when missing). `extra` sets a foreign key (nested). */
  async function append(ctx: RequestContext, c: CollectionSnapshot, key: string, extra?: Record<string, unknown>): Promise<Response> {
    requireJsonType(ctx);
    const body = await jsonBody(ctx, 'POST body');
    if (!isObj(body)) throw new HttpError(400, 'A collection item must be a JSON object');
    answered(ctx, c, '');
    const item = await store.transaction(c, (tx) => {
      try {
        return tx.insert(extra ? { ...body, ...extra } : body);
      } catch (err) {
        // A taken id: the store's 409, naming the collection's URL.
        if (isHttpError(err) && err.status === 409) throw new HttpError(409, `${err.message} in ${ctx.prefix}${key}`);
        throw err;
      }
    });
    return FastResponse.json(jsonOf(item), 201, { Location: itemUrl(ctx, key, idKeyOf(item, idField)!) });
  }

  /** GET/HEAD/PUT/PATCH/DELETE of an item of collection `c`. */
  async function itemRoute(ctx: RequestContext, c: CollectionSnapshot, key: string, id: string): Promise<Response | undefined> {
    switch (ctx.method) {
      case 'GET':
      case 'HEAD': {
        const head = ctx.method === 'HEAD';
        if (await carriesBody(ctx.request, bodyLimit)) throw new HttpError(400, head ? MSG.headWithBody : MSG.getWithBody);
        const item = c.get(id);
        if (item === undefined) return undefined;
        if (jsonServer && ctx.search.length > 1) {
          const q = parseJsonServerQuery(ctx.searchParams);
          if (q.embed.length > 0 || q.expand.length > 0) {
            const [one] = await withRelations(key, [item], q);
            return FastResponse.json(JSON.stringify(one), 200, undefined, head);
          }
        }
        return FastResponse.json(jsonOf(item), 200, undefined, head);
      }
      case 'PUT': {
        requireJsonType(ctx);
        const body = await jsonBody(ctx, 'PUT body');
        if (!isObj(body)) throw new HttpError(400, 'A collection item must be a JSON object');
        // The item keeps its id whatever the body says (json-server's rule).
        const item = await store.transaction(c, (tx) => tx.update(id, body, { replace: true }) ?? throwError(noItem(id)));
        return FastResponse.json(jsonOf(item), 200);
      }
      case 'PATCH': {
        const type = parseMediaType(ctx.request.headers.get('content-type')).type;
        const kind = jsonServer && type === 'application/x-www-form-urlencoded' ? 'merge' : patchKindFor(type);
        if (kind === undefined) throw new HttpError(415, MSG.patchUnsupported);
        const patch = await jsonBody(ctx, 'PATCH body');
        validatePatch(kind, patch);
        await preparePatch(kind);
        const item = await store.transaction(c, (tx) => {
          const current = tx.get(id) ?? throwError(noItem(id));
          const result = applyPatchDocument(kind, JSON.parse(jsonOf(current)) as unknown, patch); // a deep copy (the patch mutates it): one parse of the memoised text
          if (!isObj(result)) throw new HttpError(409, 'A collection item must stay a JSON object');
          // The item keeps its id (json-server's rule); a patch cannot move it.
          return tx.update(id, result, { replace: true })!;
        });
        return FastResponse.json(jsonOf(item), 200);
      }
      case 'DELETE': {
        // json-server ignores a DELETE's body (axios's `delete(url, { data: {} })` sends one); file mode keeps the spec's 400.
        if (!jsonServer && (await carriesBody(ctx.request, bodyLimit))) throw new HttpError(400, MSG.deleteWithBody);
        // The children of the deleted item go too (remove-with-dependants.ts): those `?_dependent=comments`
        // names (json-server 1.x), else, under the preset, every other collection's (json-server 0.17).
        const named = jsonServer && ctx.search.length > 1 ? ctx.searchParams.getAll('_dependent').flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean) : [];
        const { removed, deleted } = (await removeWithDependants(store, c, id, !jsonServer ? 'none' : named.length > 0 ? named : 'next-to')) ?? throwError(noItem(id));
        return FastResponse.json(jsonOf(removed), 200, { 'X-Deleted-Count': String(deleted) }); // the item and its dependants
      }
      default:
        return undefined;
    }
  }

  /** GET/POST <parent>/<id>/<name>: the children of one parent item (json-server's nested routes). */
  async function nested(ctx: RequestContext, parentPath: string, childSeg: string): Promise<Response | undefined> {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD' && ctx.method !== 'POST') return undefined;
    const cut = parentPath.lastIndexOf('/');
    if (cut <= 0) return undefined;
    const parentKey = parentPath.slice(0, cut);
    const parentId = decodeSegment(parentPath.slice(cut + 1));
    const childName = decodeSegment(childSeg);
    if (parentId === undefined || childName === undefined) return undefined;
    const parents = await collection(parentKey);
    if (!parents) return undefined;
    const childKey = siblingKey(parentKey, childName);
    const children = await collection(childKey);
    if (!children) return undefined;
    const fk = relationField(naming, nameOf(childKey), nameOf(parentKey), holdsField(children.items));
    if (fk === undefined) return undefined;
    if (ctx.method === 'POST') {
      const parent = parents.get(parentId);
      if (parent === undefined) throw noItem(parentId);
      return append(ctx, children, childKey, { [fk]: parent[idField] });
    }
    return queryCollection(ctx, childKey, children, children.referring(fk, parentId), ctx.method === 'HEAD');
  }

  /** json-server's `GET /db`: every top-level JSON file of the folder as one object (when no file is named db). */
  async function wholeDb(ctx: RequestContext): Promise<Response> {
    const out = await store.documents();
    ctx.answered(NAME, 'db');
    return FastResponse.json(JSON.stringify(out), 200, undefined, ctx.method === 'HEAD');
  }

  async function handleAsync(ctx: RequestContext): Promise<Response | undefined> {
    const method = ctx.method;
    const sub = ctx.subPath;
    const target = lookupTarget(sub);
    if (!target || target.trailingSlash) return undefined;
    if (files.namesFileNow(sub) ?? (await files.namesFile(sub, target))) {
      // The path names a file: file mode answers, except collection-level operations.
      if (method === 'POST') {
        if (configFor(options.pagination, 'POST') || configFor(options.filters, 'POST')) return undefined;
        const c = await collection(sub);
        return c ? append(ctx, c, sub) : undefined;
      }
      if (jsonServer && ctx.search.length > 1 && (method === 'GET' || method === 'HEAD')) {
        if (hasBody(ctx.request)) return undefined;
        const c = await collection(sub);
        return c ? queryCollection(ctx, sub, c, undefined, method === 'HEAD') : undefined;
      }
      return undefined;
    }
    const cut = sub.lastIndexOf('/');
    if (jsonServer && cut === 0 && sub === '/db' && (method === 'GET' || method === 'HEAD')) return wholeDb(ctx);
    if (cut <= 0) return undefined;
    const parentKey = sub.slice(0, cut);
    const seg = sub.slice(cut + 1);
    const parent = await collection(parentKey);
    if (parent) {
      if (method === 'POST') return undefined;
      const id = decodeSegment(seg);
      if (id === undefined) return undefined;
      const r = await itemRoute(ctx, parent, parentKey, id);
      if (r !== undefined) answered(ctx, parent, `#${id}`);
      return r;
    }
    return jsonServer ? nested(ctx, parentKey, seg) : undefined;
  }

  return {
    name: 'collections',

    async handle(ctx) {
      const method = ctx.method;
      if (method === 'OPTIONS' || ctx.subPath.length < 2 || ctx.subPath.endsWith('/')) return undefined;
      if (!files.mode()) {
        // File routing not on (yet): the store has no collections to answer from.
        await files.ready;
        if (!files.mode()) return undefined;
      }
      return handleAsync(ctx);
    },

    peek(ctx) {
      const method = ctx.method;
      if (method !== 'GET' && method !== 'HEAD') return undefined;
      const sub = ctx.subPath;
      if (sub.length < 2 || sub.endsWith('/')) return PASS;
      const own = files.namesFileNow(sub);
      if (own === undefined) return undefined;
      const search = ctx.search.length > 1;
      if (own) {
        if (!jsonServer || !search) return PASS;
        const c = store.peek(sub);
        if (c === undefined) return undefined;
        if (c === null) return PASS;
        try {
          if (hasBody(ctx.request)) return undefined;
          const remembered = rememberedAnswer(ctx, c, method === 'HEAD');
          if (remembered !== undefined) {
            answered(ctx, c, ctx.search);
            return remembered;
          }
          const q = parseJsonServerQuery(ctx.searchParams);
          if (q.embed.length > 0 || q.expand.length > 0) return undefined;
          const r = queryAnswer(ctx, c, q, method === 'HEAD');
          answered(ctx, c, ctx.search);
          return r;
        } catch {
          return undefined; // a 400: the promise path answers it
        }
      }
      const cut = sub.lastIndexOf('/');
      if (cut <= 0) return jsonServer && sub === '/db' ? undefined : PASS; // GET /db: the promise path reads the folder
      const parentKey = sub.slice(0, cut);
      const parent = store.peek(parentKey);
      if (parent === undefined) return undefined;
      if (parent === null) return jsonServer ? undefined : PASS;
      if (search && jsonServer) return undefined;
      const id = decodeSegment(sub.slice(cut + 1));
      if (id === undefined) return PASS;
      const item = parent.get(id);
      if (item === undefined) return PASS;
      if (hasBody(ctx.request)) return undefined;
      answered(ctx, parent, `#${id}`);
      return FastResponse.json(jsonOf(item), 200, undefined, method === 'HEAD');
    },
  };
}

function throwError(err: Error): never {
  throw err;
}
