/**
 * The `openapi-mock` layer (`mock.openapi` with `mock` on): the document's operations answered
 * from a stateful, generated backend, after handlers and files (they win where present).
 *
 *   collections (resources.ts)  a seeded population (state.ts) listed with the document's own
 *                               paging and filters (list-query.ts), read by id, created (POST:
 *                               documented success status + Location), replaced, updated,
 *                               deleted; an unknown id is the document's 404
 *   singletons                  generated once, then kept (PUT replaces, PATCH merges)
 *   actions                     the documented success answer (its example, else generated)
 *   `Prefer: code=N`            the documented answer for N; `example=name` picks a named
 *                               example; `dynamic=true` draws a new value instead of the seeded one
 *
 * The document and the faker are loaded at start-up (`ready`); afterwards every request without
 * a body to read is answered on the synchronous fast path (`peek`).
 * Order: after files, before static and proxy: handlers and files win where present; what the
 *   document describes is answered before static files and the network.
 */
import type { Faker } from '@faker-js/faker';
import { bufferedBody, hasBody, keepBody, keptJson, readBody } from '../../core/body.js';
import { decodedBody } from '../../core/content-encoding.js';
import type { BoundedSyncInflate } from '../../core/inflate-bounded.js';
import { errorResponse, HttpError } from '../../core/errors.js';
import { FastResponse, type FastHeaders } from '../../core/fast-response.js';
import { assertNoForbiddenKeys, parseJsonBytes } from '../../core/json-safety.js';
import type { KeyedQueue } from '../../core/keyed-queue.js';
import type { Logger } from '../../core/logger.js';
import { OptionsError } from '../../core/options.js';
import type { DefaultFsFactory } from '../../vfs/default-fs.js';
import type { Vfs } from '../../vfs/types.js';
import { isJsonMediaType, parseMediaType } from '../../core/media-type.js';
import type { RequestContext } from '../context.js';
import { PASS, type Layer } from '../pipeline/layer.js';
import { loadFaker, seedOf } from '../schema-faker/faker.js';
import { generate } from '../schema-faker/generate.js';
import { documentModel, sharedOpenApiDocument, type DocumentLoader } from '../openapi-document/document-loader.js';
import { fillPageFields, filtersOf, listPage, pagingOf, type Paging } from './list-query.js';
import { isObj } from '../../core/json-object.js';
import type { MediaContent, Operation, ResponseSpec } from '../openapi-document/operations.js';
import type { BackendOptions } from './options.js';
import type { Deref } from '../openapi-document/refs.js';
import { envelopeOf, inferRoles, jsonContent, scopePath, successSchemaOf, topLevelProperties, type Collection, type Role } from './resources.js';
import { chooseResponse, isSuccess, missingExample, parsePrefer, type Chosen, type Prefer } from './prefer.js';
import { toXml } from './xml.js';
import { negotiate } from '../../core/accept.js';
import type { RouteMatch } from '../openapi-document/routes.js';
import { createState, type BackendState, type Scope } from './state.js';
import { createStateFolder, type StateFolder } from './state-folder.js';
import type { FilesFactory } from '../file-cache/files-layer.js';
import type { RelationNaming, StoreChange } from '../store-contract/contract.js';
import { jsonOf } from '../store/item-json.js';
import { createResourcesView, type OpenApiResources, type ViewFiles } from './resources-view.js';
import { pageWriteOf } from '../page-write.js';

export const OPENAPI_MOCK_LAYER = 'openapi-mock';

const isXmlType = (type: string) => type === 'application/xml' || type === 'text/xml' || type.endsWith('+xml');
/** JSON first when the Accept header likes several types as much. */
const jsonFirst = (type: string) => type === '*/*' || isJsonMediaType(parseMediaType(type).type);

export interface OpenApiBackendLayerOptions {
  source: string | object;
  /** The option object the document belongs to (layers reading the same option load it once). */
  option?: object;
  root?: string;
  backend: BackendOptions;
  bodyLimit: number;
  logger: Logger;
  /** The runtime's loader for a document given by its path (openapi-document/document-loader.ts). */
  loadDocument?: DocumentLoader;
  /** For `state` (a folder of collection files, state-folder.ts): the engine's write queue and limits, and the runtime's filesystem factory. */
  queue: KeyedQueue;
  /** For `state`: makes the files layer over the folder (layers.ts hands `createFilesLayer`). */
  openFiles: FilesFactory;
  maxJsonDepth: number;
  /** THE relation rule's naming (`mock.store`, store/relations.ts): which fields the generated data links. */
  relations?: RelationNaming;
  defaultFs?: DefaultFsFactory;
  /** The runtime's native inflate for compressed request bodies (runtime.ts). */
  inflate?: BoundedSyncInflate;
  /**
   * Tells the pipeline's store change feed (store/change-feed.ts) what a write changed in the
   * in-memory state, as `pet.updated` (collection: the path without its leading `/`, a scope's
   * parameters filled in: `users/7/orders`). Not with `state` (a folder): those are files.
   */
  announce?: (changes: readonly StoreChange[] | (() => readonly StoreChange[])) => void;
}

type Obj = Record<string, unknown>;

interface Built {
  faker: Faker;
  deref: Deref;
  route: (method: string, subPath: string) => RouteMatch;
  roles: Map<Operation, Role>;
  state: BackendState;
  lists: Map<Operation, { paging: Paging; filters: string[] }>;
  envelopes: Map<Operation, string | null>;
  /** What the devtools' Data tab reads and writes of the state (in memory, or a state folder's files: resources-view.ts). */
  view: OpenApiResources;
}

const NEEDS_BODY = new Set(['create', 'replace', 'update', 'write-by-body', 'singleton']);

/** The folder the collections live in with `state`, or undefined (memory). */
function stateFolderOf(options: OpenApiBackendLayerOptions): StateFolder | undefined {
  const state = options.backend.state;
  if (state === undefined) return undefined;
  let vfs: Vfs;
  if (typeof state === 'string') {
    if (!options.defaultFs) throw new OptionsError('mock.openapi.state', 'a folder path needs the Node entry (in a page, give a Vfs)');
    vfs = options.defaultFs(state, options.root);
  } else vfs = state;
  return createStateFolder({ vfs, owned: typeof state === 'string', queue: options.queue, logger: options.logger, bodyLimit: options.bodyLimit, maxJsonDepth: options.maxJsonDepth, openFiles: options.openFiles });
}

/**
 * A missing state file's population: drawn from the seed again, not the scope last loaded into
 * memory, so a file deleted while the server runs starts its collection over (as on a restart).
 */
function drawn(state: BackendState, c: Collection, values: string[]): unknown[] {
  state.reset(c, values);
  return state.scope(c, values).items.values();
}

const FOLDER_WRITES = new Set<Role['kind']>(['create', 'replace', 'update', 'delete', 'write-by-body']);

/**
 * What the devtools read and write of the collections a state folder keeps (resources-view.ts): a
 * read puts the scope as its file holds it into the state (as a request does), a write is stored
 * in the file in its write queue (state-folder.ts), as a request's write is.
 */
function filesOf(folder: StateFolder, state: BackendState): ViewFiles {
  return {
    holds: (c) => folder.holds(c),
    nameable(c, values) {
      try {
        folder.nameOf(c, values);
        return true;
      } catch {
        return false;
      }
    },
    async load(c, values) {
      const scope = await folder.peek(folder.nameOf(c, values), c);
      // No file (never written, or deleted): the population the next request draws and writes.
      if (scope) state.adopt(c, values, scope);
      else state.reset(c, values);
    },
    store(c, values, change) {
      return folder.write(folder.nameOf(c, values), c, () => drawn(state, c, values), (scope) => {
        state.adopt(c, values, scope);
        const result = change();
        const now = state.scope(c, values);
        if (now !== scope) {
          // The scope the change left (drawn again, imported): what the file stores.
          for (const id of scope.items.keys()) scope.items.delete(id);
          for (const id of now.items.keys()) scope.items.set(id, now.items.get(id));
          scope.next = now.next;
          state.adopt(c, values, scope);
        }
        return result;
      });
    },
  };
}

/** The layer, and what the devtools read of its state (in memory, or with `state` the folder's files: `filesOf`). */
export function createOpenApiBackendLayer(options: OpenApiBackendLayerOptions): Layer & { resources: Promise<OpenApiResources | undefined> } {
  const { logger, bodyLimit, backend } = options;
  let built: Built | undefined;
  const folder = stateFolderOf(options);
  const ready = (async () => {
    try {
      const [doc, faker] = await Promise.all([sharedOpenApiDocument(options.option ?? options, options.source, options.root, options.loadDocument), loadFaker()]);
      const { deref, model, route } = documentModel(doc);
      const { roles, collections } = inferRoles(model.operations, deref);
      const count = (c: Collection) => backend.count[c.name] ?? c.count ?? backend.count['*']!;
      const state = createState({ faker, deref, seed: backend.seed, collections, count, relations: options.relations });
      const lists = new Map<Operation, { paging: Paging; filters: string[] }>();
      for (const [op, role] of roles) {
        if (role.kind !== 'list') continue;
        const paging = pagingOf(op.parameters, deref);
        const fields = new Set(topLevelProperties(role.collection.itemSchema, deref).map(([name]) => name));
        lists.set(op, { paging, filters: filtersOf(op.parameters, paging, fields) });
      }
      const view = createResourcesView({ roles, collections, state, count, doc, deref, announce: folder ? undefined : options.announce, files: folder && filesOf(folder, state) });
      built = { faker, deref, route, roles, state, lists, envelopes: new Map(), view };
      await folder?.ready;
      return true;
    } catch (err) {
      logger.error(`openapi: the document could not be loaded for the mock backend: ${(err as Error)?.message ?? String(err)}`);
      return false;
    }
  })();

  function json(ctx: RequestContext, value: unknown, status: number, headers: FastHeaders = {}, type?: string): Response {
    ctx.answered(OPENAPI_MOCK_LAYER, ctx.method);
    if (value === undefined || status === 204 || status === 304) return FastResponse.empty(status, headers);
    return FastResponse.json(jsonOf(value), status, { ...(type ? { 'Content-Type': type } : {}), ...headers }, ctx.method === 'HEAD');
  }

  /** The content of a response the request's `Accept` picks (JSON first on a tie; the contract refused what none fits). */
  function contentFor(ctx: RequestContext, response: ResponseSpec | undefined): MediaContent | undefined {
    if (!response || response.contents.length === 0) return undefined;
    const type = negotiate(ctx.request.headers.get('accept'), response.contents.map((c) => c.type), jsonFirst);
    return response.contents.find((c) => c.type === type) ?? jsonContent(response.contents) ?? response.contents[0];
  }

  /** `value` in the content's media type: JSON, XML (serialised by the schema's names unless already text), else text. */
  function send(b: Built, ctx: RequestContext, value: unknown, status: number, headers: FastHeaders, content: MediaContent | undefined): Response {
    const type = content ? parseMediaType(content.type).type : '';
    if (!content || type === '*/*' || isJsonMediaType(type)) return json(ctx, value, status, headers, content && type !== '*/*' ? content.type : undefined);
    ctx.answered(OPENAPI_MOCK_LAYER, ctx.method);
    if (value === undefined || status === 204 || status === 304) return FastResponse.empty(status, { 'Content-Type': content.type, ...headers });
    const text = typeof value === 'string' ? value : isXmlType(type) ? toXml(value, content.schema, b.deref) : JSON.stringify(value);
    return FastResponse.bytes(new TextEncoder().encode(text), status, { 'Content-Type': content.type, ...headers }, ctx.method === 'HEAD');
  }

  /** A `Prefer` the document cannot satisfy (prefer.ts): 404 naming what was asked and what exists. */
  function unsatisfiable(ctx: RequestContext, message: string): Response {
    ctx.answered(OPENAPI_MOCK_LAYER, 'unsatisfiable Prefer');
    return errorResponse(404, message, ctx.pathname, { head: ctx.method === 'HEAD' });
  }

  /** The documented answer: its example (named by Prefer), else generated from its schema, in the negotiated media type. */
  function documented(b: Built, ctx: RequestContext, op: Operation, response: ResponseSpec, prefer: Prefer, status: number, headers: FastHeaders = {}): Response {
    const content = contentFor(ctx, response);
    const missing = missingExample(op, response, content, prefer);
    if (missing) return unsatisfiable(ctx, missing);
    if (!content) return json(ctx, undefined, status, headers);
    let value: unknown;
    if (prefer.example !== undefined) value = content.examples[prefer.example];
    else if (!prefer.dynamic && content.example) value = content.example.value;
    else if (!prefer.dynamic && Object.keys(content.examples).length) value = Object.values(content.examples)[0];
    else if (content.schema !== undefined) {
      b.faker.seed(prefer.dynamic ? Math.floor(Math.random() * 2 ** 32) : seedOf(backend.seed, op.label, response.code));
      value = generate(content.schema, { faker: b.faker, deref: b.deref, useExamples: !prefer.dynamic });
    }
    return send(b, ctx, value, status, headers, content);
  }

  /** The status of the success answer: the one chosen, else `fallback` (201 for a create, 204 for a delete without a documented answer). */
  function statusFor(chosen: Chosen | undefined, fallback: number, prefer: Prefer): number {
    if (!chosen || 'unsatisfiable' in chosen) return fallback;
    return chosen.response.code === 'DEFAULT' && prefer.code === undefined ? fallback : chosen.status;
  }

  /**
   * The devtools page's `If-Match` (page-write.ts), checked against the item as it stands, in the
   * same turn as the write (a state folder's: inside its file's queue): a 412 when it changed since
   * the page read it, else undefined.
   */
  function stale(ctx: RequestContext, current: unknown): Response | undefined {
    const check = pageWriteOf(ctx.request)?.precondition;
    if (!check || check(current)) return undefined;
    ctx.answered(OPENAPI_MOCK_LAYER, 'precondition failed');
    return errorResponse(412, 'The item was changed since it was read', ctx.pathname);
  }

  function notFound(b: Built, ctx: RequestContext, op: Operation, what: string): Response {
    const documented404 = op.responses.find((r) => r.code === '404') ?? op.responses.find((r) => r.code === '4XX');
    if (documented404 && jsonContent(documented404.contents)) return documented(b, ctx, op, documented404, {}, 404);
    ctx.answered(OPENAPI_MOCK_LAYER, ctx.method);
    return errorResponse(404, `${what} not found`, ctx.pathname, { head: ctx.method === 'HEAD' });
  }

  /** `{ data: item }` when the operation answers its item in an envelope (resources.ts). */
  function wrap(b: Built, op: Operation, item: unknown): unknown {
    let env = b.envelopes.get(op);
    if (env === undefined) b.envelopes.set(op, (env = envelopeOf(successSchemaOf(op, b.deref), b.deref) ?? null));
    return env === null ? item : { [env]: item };
  }

  /** The success answer with `item` as its body (when the documented answer has a body), in the negotiated media type. */
  function withItem(b: Built, ctx: RequestContext, op: Operation, item: unknown, status: number, headers: FastHeaders, chosen: Chosen | undefined, list = false): Response {
    if (!list) item = wrap(b, op, item);
    const response = chosen && 'response' in chosen ? chosen.response : undefined;
    if (response && response.contents.length === 0) return json(ctx, undefined, status, headers);
    return send(b, ctx, item, status, headers, contentFor(ctx, response));
  }

  function locationOf(ctx: RequestContext, id: unknown): string {
    const base = ctx.prefix === '/' ? '' : ctx.prefix;
    return `${base}${ctx.subPath.replace(/\/+$/, '')}/${encodeURIComponent(String(id))}`;
  }

  function scopeValues(c: Collection, params: Record<string, string>): string[] {
    return c.scopeParams.map((p) => params[p] ?? '');
  }

  /** A write's change, told to the store's change feed (in memory only: a state folder's files are the store's own). */
  const announce = folder ? undefined : options.announce;
  function changed(c: Collection, values: string[], type: StoreChange['type'], id: unknown, item: unknown, previous?: unknown): void {
    if (!announce || !isObj(item)) return;
    announce(() => [{ collection: scopePath(c, values).slice(1), type, id: String(id), item, ...(isObj(previous) ? { previous } : {}) }]); // made only when someone listens
  }

  /** The fields a created item gets drawn when the client leaves them out: required and readOnly ones (the id apart). */
  const drawables = new WeakMap<Collection, string[]>();
  function drawableFields(b: Built, c: Collection): string[] {
    let fields = drawables.get(c);
    if (fields === undefined) {
      const required = new Set(Array.isArray(c.itemSchema.required) ? (c.itemSchema.required as string[]) : []);
      const props = isObj(c.itemSchema.properties) ? c.itemSchema.properties : {};
      fields = [...new Set([...required, ...Object.keys(props)])].filter((k) => {
        if (k === c.idField) return false;
        const p = b.deref(props[k]);
        return required.has(k) || (isObj(p) && p.readOnly === true);
      });
      drawables.set(c, fields);
    }
    return fields;
  }

  /** `ids: 'any'`: an item for an id the population lacks, drawn from the id (the same item for the same id). */
  function drawnFor(b: Built, c: Collection, values: string[], id: string): unknown {
    b.faker.seed(seedOf(backend.seed, c.key, values.join('/'), 'any id', id));
    const item = generate(c.itemSchema, { faker: b.faker, deref: b.deref, useExamples: false, maxDepth: 4, field: (name, schema) => b.state.relation(name, schema, c) });
    if (isObj(item) && c.idField) item[c.idField] = c.idKind === 'integer' && /^-?\d{1,15}$/.test(id) ? Number(id) : id;
    return item;
  }

  function createItem(b: Built, c: Collection, scope: ReturnType<BackendState['scope']>, values: string[], body: unknown): { item: Obj; id: unknown } | 'conflict' {
    const given = isObj(body) ? body : {};
    let id = b.state.newId(c, scope, c.idField ? given[c.idField] : undefined);
    // A drawn uuid may meet one kept from before (a state file): draw again.
    for (let i = 0; i < 8 && c.idKind === 'uuid' && scope.items.has(String(id)); i++) id = b.state.newId(c, scope, undefined);
    if (scope.items.has(String(id))) return 'conflict';
    const props = isObj(c.itemSchema.properties) ? c.itemSchema.properties : {};
    const item: Obj = { ...given };
    // Fields the client does not send (readOnly, required ones it left out) are drawn; nothing
    // is drawn when it sent them all.
    const drawable = drawableFields(b, c);
    if (drawable.some((k) => !(k in item))) {
      b.faker.seed(seedOf(backend.seed, c.key, values.join('/'), 'created', String(id)));
      const drawn = generate(c.itemSchema, { faker: b.faker, deref: b.deref, useExamples: false, field: (name, schema) => b.state.relation(name, schema, c) });
      if (isObj(drawn)) for (const k of drawable) if (!(k in item) && k in drawn) item[k] = drawn[k];
    }
    if (c.idField) item[c.idField] = id;
    c.scopeParams.forEach((p, i) => {
      if (p in props && !(p in given)) item[p] = values[i];
    });
    return { item, id };
  }

  function respond(b: Built, ctx: RequestContext, match: Extract<RouteMatch, { operation: Operation }>, body: unknown): Response | undefined {
    const op = match.operation;
    const role = b.roles.get(op) ?? { kind: 'action' as const };
    const prefer = parsePrefer(ctx.prefer ?? ctx.request.headers.get('prefer')); // a route override's Prefer first (context.ts)
    const picked = chooseResponse(op, prefer.code);
    if (picked && 'unsatisfiable' in picked) return unsatisfiable(ctx, picked.unsatisfiable);
    // An error asked for (Prefer: code=404), or an action documenting no success: what it documents.
    // A collection's operations keep the state's answers (POST /pet of the Swagger Petstore
    // documents only 405, and creates).
    if (picked && !isSuccess(picked.status) && (prefer.code !== undefined || !('collection' in role))) return documented(b, ctx, op, picked.response, prefer, picked.status);
    const chosen = picked && isSuccess(picked.status) ? picked : undefined;
    const response = chosen?.response;
    if (response && (prefer.dynamic || prefer.example !== undefined)) return documented(b, ctx, op, response, prefer, chosen.status);
    if (role.kind === 'action') {
      if (!response) return json(ctx, undefined, op.method === 'POST' ? 201 : 200);
      return documented(b, ctx, op, response, prefer, chosen.status);
    }
    if (role.kind === 'singleton') {
      const getOp = op.method === 'GET' ? op : undefined;
      const key = op.template;
      const slot = b.state.singleton(key, () => {
        const content = response ? jsonContent(response.contents) : undefined;
        if (!content) return undefined;
        if (content.example) return structuredClone(content.example.value);
        if (Object.keys(content.examples).length) return structuredClone(Object.values(content.examples)[0]);
        b.faker.seed(seedOf(backend.seed, op.label, 'singleton'));
        return generate(content.schema, { faker: b.faker, deref: b.deref });
      });
      if (!getOp && body !== undefined) slot.value = op.method === 'PATCH' && isObj(slot.value) && isObj(body) ? { ...slot.value, ...body } : body;
      if (!response) return json(ctx, slot.value, 200);
      // The kept value is JSON; another media type asked for (CSV, XML) answers its own example where it has one.
      const content = contentFor(ctx, response);
      if (content && !jsonFirst(content.type) && (content.example || Object.keys(content.examples).length)) return documented(b, ctx, op, response, prefer, chosen.status);
      return withItem(b, ctx, op, slot.value, chosen.status, {}, chosen, true);
    }
    const c = role.collection;
    const values = scopeValues(c, match.params);
    const scope = b.state.scope(c, values);
    switch (role.kind) {
      case 'list': {
        const list = b.lists.get(op)!;
        const page = listPage([...scope.items.values()], ctx.searchParams, list.paging, list.filters);
        const headers: FastHeaders = { 'X-Total-Count': String(page.total) };
        const links: string[] = [];
        for (const [rel, q] of [['next', page.next], ['prev', page.prev]] as const) {
          if (!q) continue;
          const params = new URLSearchParams(ctx.searchParams);
          for (const [k, v] of Object.entries(q)) params.set(k, v);
          links.push(`<${ctx.pathname}?${params}>; rel="${rel}"`);
        }
        if (links.length) headers.Link = links.join(', ');
        let value: unknown = page.items;
        if (role.shape.arrayProperty) {
          b.faker.seed(seedOf(backend.seed, op.label, 'page'));
          const wrapper = generate(role.shape.schema, { faker: b.faker, deref: b.deref, maxDepth: 2 });
          const out: Obj = isObj(wrapper) ? wrapper : {};
          out[role.shape.arrayProperty] = page.items;
          fillPageFields(out, page, list.paging);
          value = out;
        }
        return withItem(b, ctx, op, value, statusFor(chosen, 200, prefer), headers, chosen, true);
      }
      case 'create': {
        const created = createItem(b, c, scope, values, body);
        if (created === 'conflict') {
          ctx.answered(OPENAPI_MOCK_LAYER, ctx.method);
          return errorResponse(409, `${c.name} ${String((body as Obj)[c.idField!])} already exists`, ctx.pathname);
        }
        scope.items.set(String(created.id), created.item);
        changed(c, values, 'created', created.id, created.item);
        return withItem(b, ctx, op, created.item, statusFor(chosen, 201, prefer), { Location: locationOf(ctx, created.id) }, chosen);
      }
      case 'write-by-body': {
        const id = isObj(body) && c.idField ? body[c.idField] : undefined;
        const current = id === undefined ? undefined : scope.items.get(String(id));
        if (current === undefined) return notFound(b, ctx, op, `${c.name} ${String(id)}`);
        const refused = stale(ctx, current);
        if (refused) return refused;
        const next = role.merge && isObj(current) ? { ...current, ...(body as Obj) } : { ...(body as Obj) };
        next[c.idField!] = (current as Obj)[c.idField!] ?? id;
        scope.items.set(String(id), next);
        changed(c, values, 'updated', id, next, current);
        return withItem(b, ctx, op, next, statusFor(chosen, 200, prefer), {}, chosen);
      }
      default: {
        const id = c.idParam ? match.params[c.idParam] ?? '' : '';
        const current = scope.items.get(id) ?? (backend.ids === 'any' && id !== '' ? drawnFor(b, c, values, id) : undefined);
        if (current === undefined) return notFound(b, ctx, op, `${c.name} ${id}`);
        if (role.kind === 'read' || role.kind === 'item-action') {
          if (role.kind === 'item-action') {
            if (response && response.contents.length === 0) return json(ctx, undefined, statusFor(chosen, 200, prefer));
            if (response) return documented(b, ctx, op, response, prefer, statusFor(chosen, 200, prefer));
          }
          return withItem(b, ctx, op, current, statusFor(chosen, 200, prefer), {}, chosen);
        }
        const refused = stale(ctx, current);
        if (refused) return refused;
        if (role.kind === 'delete') {
          const held = scope.items.delete(id);
          if (held) changed(c, values, 'removed', id, current);
          return withItem(b, ctx, op, current, statusFor(chosen, 204, prefer), {}, chosen);
        }
        const given = isObj(body) ? body : {};
        const next: Obj = role.kind === 'update' && isObj(current) ? { ...current, ...given } : { ...given };
        if (c.idField) next[c.idField] = (current as Obj)[c.idField];
        const held = scope.items.has(id);
        scope.items.set(id, next);
        changed(c, values, held ? 'updated' : 'created', id, next, held ? current : undefined);
        return withItem(b, ctx, op, next, statusFor(chosen, 200, prefer), {}, chosen);
      }
    }
  }

  async function bodyOf(ctx: RequestContext): Promise<unknown> {
    const kept = bufferedBody(ctx.request);
    const bytes = kept ?? (await readBody(ctx.request, bodyLimit));
    if (kept === undefined) keepBody(ctx.request, bytes);
    if (bytes.byteLength === 0) return undefined;
    const type = parseMediaType(ctx.request.headers.get('content-type')).type;
    const parsed = keptJson(ctx.request, bytes); // the validator's parse, when it made one
    if (parsed === undefined && type !== 'application/x-www-form-urlencoded' && type !== '' && !isJsonMediaType(type)) return undefined;
    const decoded = parsed === undefined ? await decodedBody(ctx.request, bytes, bodyLimit, options.inflate) : bytes; // gzip/deflate undone
    if (type === 'application/x-www-form-urlencoded') return Object.fromEntries(new URLSearchParams(new TextDecoder().decode(decoded)));
    const value = parsed !== undefined ? parsed.value : parseJsonBytes(decoded);
    assertNoForbiddenKeys(value);
    return value;
  }

  return {
    name: OPENAPI_MOCK_LAYER,
    ready,
    resources: ready.then((ok) => (ok && built ? built.view : undefined)),
    async close() {
      await folder?.close();
    },
    peek(ctx) {
      const b = built;
      if (!b) return undefined;
      const match = b.route(ctx.method, ctx.subPath);
      if (!('operation' in match)) return PASS;
      const role = b.roles.get(match.operation);
      if (role && NEEDS_BODY.has(role.kind) && hasBody(ctx.request)) return undefined;
      if (folder && role && 'collection' in role && folder.holds(role.collection)) return undefined; // the file is read on the promise path
      return respond(b, ctx, match, undefined) ?? PASS;
    },
    async handle(ctx) {
      await ready;
      const b = built;
      if (!b) throw new HttpError(500, 'The OpenAPI document could not be loaded', { expose: true });
      const match = b.route(ctx.method, ctx.subPath);
      if (!('operation' in match)) return undefined;
      const role = b.roles.get(match.operation);
      const body = role && NEEDS_BODY.has(role.kind) && hasBody(ctx.request) ? await bodyOf(ctx) : undefined;
      if (folder && role && 'collection' in role && folder.holds(role.collection)) {
        // The scope as its state file holds it; a write stores what the answer changed.
        const c = role.collection;
        const values = scopeValues(c, match.params);
        const name = folder.nameOf(c, values);
        const population = () => drawn(b.state, c, values);
        const answer = (scope: Scope) => {
          b.state.adopt(c, values, scope);
          return respond(b, ctx, match, body);
        };
        return FOLDER_WRITES.has(role.kind) ? folder.write(name, c, population, answer) : folder.read(name, c, population, answer);
      }
      return respond(b, ctx, match, body);
    },
  };
}
