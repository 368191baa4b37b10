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
 * Files and handlers keep winning: an item route is taken only when the full path names no file
 * (handlers run before this layer). A path this layer does not take goes on to file mode, which
 * answers as the spec says (a missing item ends as the JSON 404).
 *
 * Fast path (`peek`): a GET/HEAD of an item of a cached collection, whose own path is known to
 * name no file (file mode's lookup cache), is answered synchronously; so is a json-server query
 * without `_embed`/`_expand`.
 */
import { carriesBody, hasBody } from '../../core/body.js';
import { readDecodedBody } from '../../core/content-encoding.js';
import { HttpError } from '../../core/errors.js';
import { FastResponse } from '../../core/fast-response.js';
import { assertNoForbiddenKeys, parseJsonBytes } from '../../core/json-safety.js';
import { parseMediaType } from '../../core/media-type.js';
import { requestPathToVfs, type RequestPath } from '../../vfs/path.js';
import type { RequestContext } from '../context.js';
import { LOOKUP_TTL_MS, type FileEntry } from '../fs/file-cache.js';
import { configFor, relativeToFsDir, type FsEnv } from '../fs/fs-call.js';
import { MSG } from '../fs/messages.js';
import { applyPatchDocument, patchKindFor, preparePatch, validatePatch } from '../fs/patch-document.js';
import { enqueueMutation, mutationPending, type MutationScope } from '../store/writes.js';
import type { FilesLayer } from '../fs/layer.js';
import type { ResolvedMockApiOptions } from '../options.js';
import { PASS, type Layer } from '../pipeline/layer.js';
import { idKeyOf, indexOf, nextId } from '../store/item-id.js';
import { referencedIds } from '../store/references.js';
import { collectionFile } from '../store/collection-file.js';
import { queryEntry } from './json-server-scan.js';
import { linkHeader, parseJsonServerQuery, runJsonServerQuery, type JsonServerQuery, type QueryResult } from './json-server-query.js';
import { embed, expand } from './relations.js';
import { expandField, relationField } from '../store/relations.js';

const NAME = 'collections';

const itemJson = new WeakMap<object, string>();
const MAX_REMEMBERED_ANSWERS = 32;
const MAX_REMEMBERED_ANSWER = 256 * 1024;

/** The JSON text of an array of items: JSON.stringify's, from the items' memoised texts. */
function arrayJson(items: readonly unknown[]): string {
  let out = '[';
  for (let i = 0; i < items.length; i++) out += (i === 0 ? '' : ',') + jsonOf(items[i]);
  return `${out}]`;
}

/** The JSON text of an item (memoised: stored items are never mutated, only replaced). */
function jsonOf(item: unknown): string {
  if (item === null || typeof item !== 'object') return JSON.stringify(item);
  let text = itemJson.get(item);
  if (text === undefined) itemJson.set(item, (text = JSON.stringify(item)));
  return text;
}

interface Target {
  readonly rel: string;
  readonly trailingSlash: boolean;
}

/** The safe decoded form of a request key (file mode's lookup input), or undefined (400 there). */
function safePath(key: string): Target | undefined {
  let p: RequestPath;
  try {
    p = requestPathToVfs(key);
  } catch {
    return undefined;
  }
  return { rel: p.path, trailingSlash: p.trailingSlash };
}

function decodeSegment(seg: string): string | undefined {
  if (seg === '') return undefined;
  try {
    return decodeURIComponent(seg);
  } catch {
    return undefined;
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** Name of a collection from its request key (`/v1/posts` → `v1/posts`, the store's name). */
function nameOf(key: string): string {
  return key.slice(1).split('/').map((seg) => decodeSegment(seg) ?? '').join('/');
}

/**
 * The layer for `options.collections` (and `options.preset`), over the files layer's caches and
 * write queue (`files.mode()`): collections are files, so both always agree.
 */
export function createCollectionsLayer(options: ResolvedMockApiOptions, files: FilesLayer): Layer {
  const idField = options.collections?.idField ?? 'id';
  const jsonServer = options.preset === 'json-server';
  const naming = options.relations;
  /** What answered, for observers: the file below fsDir, `#id` for an item, `?` for a query. */
  const answered = (ctx: RequestContext, env: FsEnv, entry: FileEntry, suffix: string) =>
    ctx.answered(NAME, `${relativeToFsDir(env, entry.path)}${suffix}`);

  /** A collection (JSON array file) for a request key, or null. */
  function collection(env: FsEnv, key: string): Promise<FileEntry | null> {
    return collectionFile(env, key);
  }

  /** A sibling collection of `key` named `name` (`/v1/posts` + `comments` → `/v1/comments`). */
  function siblingKey(key: string, name: string): string {
    return `${key.slice(0, key.lastIndexOf('/'))}/${encodeURIComponent(name)}`;
  }

  async function withRelations(env: FsEnv, key: string, items: unknown[], q: JsonServerQuery): Promise<unknown[]> {
    let out = items;
    const parentsToo: string[] = [];
    const own = nameOf(key);
    for (const name of q.embed) {
      const childKey = siblingKey(key, name);
      const children = await collection(env, childKey);
      const fk = children ? relationField(naming, nameOf(childKey), own) : undefined;
      if (children) {
        if (fk !== undefined) out = embed(out, name, children.array!, fk, idField);
      } else parentsToo.push(name); // json-server 1.x: `_embed=post` on comments embeds the parent
    }
    for (const name of [...q.expand, ...parentsToo]) {
      const rel = expandField(naming, own, name);
      for (const candidate of rel?.parents ?? []) {
        const parents = await collection(env, siblingKey(key, candidate));
        if (parents) {
          out = expand(out, name, parents.array!, rel!.field, idField);
          break;
        }
      }
    }
    return out;
  }

  /** The answer to a json-server query: the items (0.17, with X-Total-Count and Link) or 1.x's page envelope. */
  function queryResponse(ctx: RequestContext, q: JsonServerQuery, r: QueryResult, items: unknown[], head: boolean): Response {
    const headers: Record<string, string> = { 'X-Total-Count': String(r.total) };
    if (q.page) {
      const link = linkHeader(ctx.request.url, q.page, r.total);
      if (link) headers.Link = link;
    }
    const body = r.envelope ? JSON.stringify({ ...r.envelope, data: items }) : arrayJson(items);
    return FastResponse.json(body, 200, headers, head);
  }

  /** A json-server query on `items` (sync part: filters, sort, page); scanned when they are the entry's stored array. */
  function queryAnswer(ctx: RequestContext, entry: FileEntry, items: readonly unknown[], q: JsonServerQuery, head: boolean): Response {
    if (items !== entry.array) {
      const r = runJsonServerQuery(items, q);
      return queryResponse(ctx, q, r, r.items, head);
    }
    const r = queryEntry(entry, q);
    const headers: Record<string, string> = { 'X-Total-Count': String(r.total) };
    if (q.page) {
      const link = linkHeader(ctx.request.url, q.page, r.total);
      if (link) headers.Link = link;
    }
    const body = r.envelope ? JSON.stringify({ ...r.envelope, data: r.items }) : arrayJson(r.items);
    rememberAnswer(entry, ctx.request.url, body, Object.freeze(headers));
    return FastResponse.json(body, 200, headers, head);
  }

  /**
   * Answers to json-server queries of a stored array, by full URL (the Link header names it):
   * the same query on the same version of the file is the same answer. They live and die with
   * the cache entry (any change to the file makes a new one).
   */
  const answers = new WeakMap<FileEntry, Map<string, { body: string; headers: Readonly<Record<string, string>> }>>();
  function rememberAnswer(entry: FileEntry, url: string, body: string, headers: Readonly<Record<string, string>>): void {
    if (body.length > MAX_REMEMBERED_ANSWER) return;
    let byUrl = answers.get(entry);
    if (byUrl === undefined) answers.set(entry, (byUrl = new Map()));
    if (byUrl.size >= MAX_REMEMBERED_ANSWERS) byUrl.delete(byUrl.keys().next().value!);
    byUrl.set(url, { body, headers });
  }
  function rememberedAnswer(ctx: RequestContext, entry: FileEntry, head: boolean): Response | undefined {
    const hit = answers.get(entry)?.get(ctx.request.url);
    return hit === undefined ? undefined : FastResponse.json(hit.body, 200, hit.headers, head);
  }

  async function queryCollection(ctx: RequestContext, env: FsEnv, key: string, entry: FileEntry, items: readonly unknown[], head: boolean): Promise<Response> {
    answered(ctx, env, entry, ctx.search);
    const q = parseJsonServerQuery(ctx.searchParams);
    if (q.embed.length === 0 && q.expand.length === 0) return queryAnswer(ctx, entry, items, q, head);
    const r = items === entry.array ? queryEntry(entry, q) : runJsonServerQuery(items, q);
    return queryResponse(ctx, q, r, await withRelations(env, key, r.items, q), head);
  }

  async function jsonBody(ctx: RequestContext, env: FsEnv, what: string): Promise<unknown> {
    const bytes = await readDecodedBody(ctx.request, env.bodyLimit, env.inflate); // Content-Encoding as file mode reads it
    if (bytes.byteLength === 0) throw new HttpError(400, MSG.noData);
    if (jsonServer && parseMediaType(ctx.request.headers.get('content-type')).type === 'application/x-www-form-urlencoded') {
      // json-server 0.17 stores a form's fields (as strings; a repeated field as a list).
      const form: Record<string, unknown> = {};
      for (const [k, v] of new URLSearchParams(new TextDecoder().decode(bytes))) {
        const had = form[k];
        form[k] = had === undefined ? v : Array.isArray(had) ? [...had, v] : [had, v];
      }
      assertNoForbiddenKeys(form, what);
      return form;
    }
    const value = parseJsonBytes(bytes, what, env.maxJsonDepth);
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

  /** POST <collection>: append (id assigned when missing). `extra` sets a foreign key (nested). */
  async function append(ctx: RequestContext, env: FsEnv, entry: FileEntry, key: string, extra?: Record<string, unknown>): Promise<Response> {
    requireJsonType(ctx);
    const body = await jsonBody(ctx, env, 'POST body');
    if (!isObject(body)) throw new HttpError(400, 'A collection item must be a JSON object');
    answered(ctx, env, entry, '');
    return enqueueMutation(env, entry.path, idField, (scope) => {
      let item: Record<string, unknown> = extra ? { ...body, ...extra } : { ...body };
      const given = item[idField];
      if (given === undefined || given === null) {
        const assigned = nextId(scope.items, idField);
        item = { [idField]: assigned, ...item }; // the id first, as json-server writes it
        item[idField] = assigned;
      }
      const id = idKeyOf(item, idField);
      if (id === undefined) throw new HttpError(400, `The "${idField}" of an item must be a string or a number`);
      if (scope.ids.find(scope.items, id) !== -1) throw new HttpError(409, `An item with ${idField} ${JSON.stringify(id)} already exists in ${ctx.prefix}${key}`);
      scope.items.push(item);
      scope.ids.appended(id, scope.items.length - 1);
      scope.changed();
      return FastResponse.json(jsonOf(item), 201, { Location: itemUrl(ctx, key, id) });
    });
  }

  function findItem(scope: MutationScope, id: string): number {
    const i = scope.ids.find(scope.items, id);
    if (i === -1) throw new HttpError(404, `No item with ${idField} ${JSON.stringify(id)}`);
    return i;
  }

  /** GET/HEAD/PUT/PATCH/DELETE of an item of `entry`. */
  async function itemRoute(ctx: RequestContext, env: FsEnv, entry: FileEntry, key: string, id: string): Promise<Response | undefined> {
    const items = entry.array!;
    switch (ctx.method) {
      case 'GET':
      case 'HEAD': {
        const head = ctx.method === 'HEAD';
        if (await carriesBody(ctx.request, env.bodyLimit)) throw new HttpError(400, head ? MSG.headWithBody : MSG.getWithBody);
        const i = indexOf(items, idField).find(items, id);
        if (i === -1) return undefined;
        if (jsonServer && ctx.search.length > 1) {
          const q = parseJsonServerQuery(ctx.searchParams);
          if (q.embed.length > 0 || q.expand.length > 0) {
            const [one] = await withRelations(env, key, [items[i]], q);
            return FastResponse.json(JSON.stringify(one), 200, undefined, head);
          }
        }
        return FastResponse.json(jsonOf(items[i]), 200, undefined, head);
      }
      case 'PUT': {
        requireJsonType(ctx);
        const body = await jsonBody(ctx, env, 'PUT body');
        if (!isObject(body)) throw new HttpError(400, 'A collection item must be a JSON object');
        return enqueueMutation(env, entry.path, idField, (scope) => {
          const i = findItem(scope, id);
          // The item keeps its id whatever the body says (json-server's rule).
          const item = { ...body, [idField]: (scope.items[i] as Record<string, unknown>)[idField] };
          scope.items[i] = item;
          scope.changed();
          return FastResponse.json(jsonOf(item), 200);
        });
      }
      case 'PATCH': {
        const type = parseMediaType(ctx.request.headers.get('content-type')).type;
        const kind = jsonServer && type === 'application/x-www-form-urlencoded' ? 'merge' : patchKindFor(type);
        if (kind === undefined) throw new HttpError(415, MSG.patchUnsupported);
        const patch = await jsonBody(ctx, env, 'PATCH body');
        validatePatch(kind, patch);
        await preparePatch(kind);
        return enqueueMutation(env, entry.path, idField, (scope) => {
          const i = findItem(scope, id);
          const current = scope.items[i] as Record<string, unknown>;
          const result = applyPatchDocument(kind, JSON.parse(jsonOf(current)) as unknown, patch); // a deep copy (the patch mutates it): one parse of the memoised text
          if (!isObject(result)) throw new HttpError(409, 'A collection item must stay a JSON object');
          // The item keeps its id (json-server's rule); a patch cannot move it.
          const item = { ...result, [idField]: current[idField] };
          scope.items[i] = item;
          scope.changed();
          return FastResponse.json(jsonOf(item), 200);
        });
      }
      case 'DELETE': {
        if (await carriesBody(ctx.request, env.bodyLimit)) throw new HttpError(400, MSG.deleteWithBody);
        const res = await enqueueMutation(env, entry.path, idField, (scope) => {
          const i = findItem(scope, id);
          const [removed] = scope.items.splice(i, 1);
          scope.changed(true);
          return FastResponse.json(jsonOf(removed), 200, { 'X-Deleted-Count': '1' });
        });
        // The children of the deleted item go too (each collection in one write of its own, after
        // the item): those `?_dependent=comments` names (json-server 1.x), else, under the preset,
        // every other collection's (json-server 0.17 removes the dependants of a deleted parent).
        if (jsonServer) {
          const named = ctx.search.length > 1 ? ctx.searchParams.getAll('_dependent').flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean) : [];
          for (const name of named.length > 0 ? named : await siblingNames(env, entry, key)) {
            const children = await collection(env, siblingKey(key, name));
            if (!children) continue;
            const fk = relationField(naming, nameOf(siblingKey(key, name)), nameOf(key));
            if (fk === undefined) continue;
            // No child of this item in the stored array, and no write queued that could add one: nothing to write.
            if (!referencedIds(children.array!, fk).has(id) && !mutationPending(env, children.path)) continue;
            await enqueueMutation(env, children.path, idField, (scope) => {
              const kept = scope.items.filter((c) => idKeyOf(c, fk) !== id);
              if (kept.length !== scope.items.length) {
                scope.items.length = 0;
                scope.items.push(...kept);
                scope.changed(true);
              }
              return res;
            });
          }
        }
        return res;
      }
      default:
        return undefined;
    }
  }

  /** GET/POST <parent>/<id>/<name>: the children of one parent item (json-server's nested routes). */
  async function nested(ctx: RequestContext, env: FsEnv, parentPath: string, childSeg: string): Promise<Response | undefined> {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD' && ctx.method !== 'POST') return undefined;
    const cut = parentPath.lastIndexOf('/');
    if (cut <= 0) return undefined;
    const parentKey = parentPath.slice(0, cut);
    const parentId = decodeSegment(parentPath.slice(cut + 1));
    const childName = decodeSegment(childSeg);
    if (parentId === undefined || childName === undefined) return undefined;
    const parents = await collection(env, parentKey);
    if (!parents) return undefined;
    const childKey = siblingKey(parentKey, childName);
    const children = await collection(env, childKey);
    if (!children) return undefined;
    const fk = relationField(naming, nameOf(childKey), nameOf(parentKey));
    if (fk === undefined) return undefined;
    if (ctx.method === 'POST') {
      const p = indexOf(parents.array!, idField).find(parents.array!, parentId);
      if (p === -1) throw new HttpError(404, `No item with ${idField} ${JSON.stringify(parentId)}`);
      return append(ctx, env, children, childKey, { [fk]: (parents.array![p] as Record<string, unknown>)[idField] });
    }
    const mine = children.array!.filter((c) => idKeyOf(c, fk) === parentId);
    return queryCollection(ctx, env, childKey, children, mine, ctx.method === 'HEAD');
  }

  /** The other JSON files next to a collection's (`posts.json` → `comments`, `profile`, …). */
  async function siblingNames(env: FsEnv, entry: FileEntry, key: string): Promise<string[]> {
    const dir = entry.path.slice(0, Math.max(0, entry.path.lastIndexOf('/')));
    const own = decodeSegment(key.slice(key.lastIndexOf('/') + 1)) ?? '';
    return (await jsonNamesIn(env, dir)).filter((n) => n !== own);
  }

  /**
   * The names of the JSON files in `dir`, kept between deletes: until the Vfs reports a file
   * there that the list lacks (rewriting a listed file changes no name; a name that went is
   * found missing when its collection is read), and on drivers whose files change behind our
   * back (disk) for at most the lookup TTL, as file lookups are.
   */
  const listings = new WeakMap<FsEnv, { byDir: Map<string, { names: string[]; at: number }>; changes: number }>();
  async function jsonNamesIn(env: FsEnv, dir: string): Promise<string[]> {
    let kept = listings.get(env);
    if (kept === undefined) {
      const own = (kept = { byDir: new Map(), changes: 0 });
      listings.set(env, own);
      env.vfs.onChange((path) => {
        const cut = path.lastIndexOf('/');
        const at = cut === -1 ? '' : path.slice(0, cut);
        const name = path.slice(cut + 1);
        if (own.byDir.get(at)?.names.includes(name.toLowerCase().endsWith('.json') ? name.slice(0, -5) : '\u0000') === true) return;
        own.byDir.delete(at);
        own.changes++; // a listing read meanwhile may lack it
      });
    }
    const known = kept.byDir.get(dir);
    if (known !== undefined && (env.vfs.exclusive || performance.now() - known.at < LOOKUP_TTL_MS)) return known.names;
    const before = kept.changes;
    const names: string[] = [];
    for (const e of await env.vfs.readdir(dir)) {
      if (e.kind === 'file' && e.name.toLowerCase().endsWith('.json')) names.push(e.name.slice(0, -5));
    }
    if (kept.changes === before) {
      if (kept.byDir.size >= 256) kept.byDir.clear();
      kept.byDir.set(dir, { names, at: performance.now() });
    }
    return names;
  }

  /** json-server's `GET /db`: every top-level JSON file of the folder as one object (when no file is named db). */
  async function wholeDb(ctx: RequestContext, env: FsEnv): Promise<Response> {
    const out: Record<string, unknown> = {};
    for (const e of await env.vfs.readdir(env.fsDir)) {
      if (e.kind !== 'file' || !e.name.toLowerCase().endsWith('.json')) continue;
      const key = `/${encodeURIComponent(e.name.slice(0, -5))}`;
      const target = safePath(key);
      const entry = target ? await env.cache.lookupEntry(key, target) : null;
      if (!entry || !entry.isJson) continue;
      try {
        out[e.name.slice(0, -5)] = entry.array ?? JSON.parse(new TextDecoder().decode(entry.bytes));
      } catch {
        // malformed JSON on disk: left out
      }
    }
    ctx.answered(NAME, 'db');
    return FastResponse.json(JSON.stringify(out), 200, undefined, ctx.method === 'HEAD');
  }

  async function handleAsync(ctx: RequestContext, env: FsEnv): Promise<Response | undefined> {
    const method = ctx.method;
    const sub = ctx.subPath;
    const target = safePath(sub);
    if (!target || target.trailingSlash) return undefined;
    if (await files.namesFile(sub, target)) {
      // The path names a file: file mode answers, except collection-level operations.
      if (method === 'POST') {
        if (configFor(options.pagination, 'POST') || configFor(options.filters, 'POST')) return undefined;
        const entry = await collection(env, sub);
        return entry ? append(ctx, env, entry, sub) : undefined;
      }
      if (jsonServer && ctx.search.length > 1 && (method === 'GET' || method === 'HEAD')) {
        if (hasBody(ctx.request)) return undefined;
        const entry = await collection(env, sub);
        return entry ? queryCollection(ctx, env, sub, entry, entry.array!, method === 'HEAD') : undefined;
      }
      return undefined;
    }
    const cut = sub.lastIndexOf('/');
    if (jsonServer && cut === 0 && sub === '/db' && (method === 'GET' || method === 'HEAD')) return wholeDb(ctx, env);
    if (cut <= 0) return undefined;
    const parentKey = sub.slice(0, cut);
    const seg = sub.slice(cut + 1);
    const parent = await collection(env, parentKey);
    if (parent) {
      if (method === 'POST') return undefined;
      const id = decodeSegment(seg);
      if (id === undefined) return undefined;
      const r = await itemRoute(ctx, env, parent, parentKey, id);
      if (r !== undefined) answered(ctx, env, parent, `#${id}`);
      return r;
    }
    return jsonServer ? nested(ctx, env, parentKey, seg) : undefined;
  }

  return {
    name: 'collections',

    async handle(ctx) {
      const method = ctx.method;
      if (method === 'OPTIONS' || ctx.subPath.length < 2 || ctx.subPath.endsWith('/')) return undefined;
      let mode = files.mode();
      if (!mode) {
        await files.ready;
        mode = files.mode();
        if (!mode) return undefined;
      }
      return handleAsync(ctx, mode.env);
    },

    peek(ctx) {
      const method = ctx.method;
      if (method !== 'GET' && method !== 'HEAD') return undefined;
      const sub = ctx.subPath;
      if (sub.length < 2 || sub.endsWith('/')) return PASS;
      const mode = files.mode();
      if (!mode) return undefined;
      const cache = mode.env.cache;
      const own = files.namesFileNow(sub);
      if (own === undefined) return undefined;
      const search = ctx.search.length > 1;
      if (own) {
        if (!jsonServer || !search) return PASS;
        const entry = cache.lookupEntryNow(sub);
        if (entry === undefined) return undefined;
        if (entry.array === undefined) return PASS;
        try {
          if (hasBody(ctx.request)) return undefined;
          const remembered = rememberedAnswer(ctx, entry, method === 'HEAD');
          if (remembered !== undefined) {
            answered(ctx, mode.env, entry, ctx.search);
            return remembered;
          }
          const q = parseJsonServerQuery(ctx.searchParams);
          if (q.embed.length > 0 || q.expand.length > 0) return undefined;
          const r = queryAnswer(ctx, entry, entry.array, q, method === 'HEAD');
          answered(ctx, mode.env, entry, ctx.search);
          return r;
        } catch {
          return undefined; // a 400: the promise path answers it
        }
      }
      const cut = sub.lastIndexOf('/');
      if (cut <= 0) return jsonServer && sub === '/db' ? undefined : PASS; // GET /db: the promise path reads the folder
      const parentKey = sub.slice(0, cut);
      const parentIsFile = files.namesFileNow(parentKey);
      if (parentIsFile === undefined) return undefined;
      if (!parentIsFile) return jsonServer ? undefined : PASS;
      const entry = cache.lookupEntryNow(parentKey);
      if (entry === undefined) return undefined;
      if (entry.array === undefined) return jsonServer ? undefined : PASS;
      if (search && jsonServer) return undefined;
      const id = decodeSegment(sub.slice(cut + 1));
      if (id === undefined) return PASS;
      const items = entry.array;
      const i = indexOf(items, idField).find(items, id);
      if (i === -1) return PASS;
      if (hasBody(ctx.request)) return undefined;
      answered(ctx, mode.env, entry, `#${id}`);
      return FastResponse.json(jsonOf(items[i]), 200, undefined, method === 'HEAD');
    },
  };
}
