/**
 * What an OpenAPI document asks the mock to send:
 *   - an operation's `callbacks` (3.0 and 3.1): `{ name: { '<runtime expression>': pathItem } }`,
 *     each path item's operations sent after the operation answered 2xx, to the URL the
 *     expression gives (runtime-expression.ts);
 *   - 3.1's top-level `webhooks`: `{ newPet: pathItem }`, sent on demand (admin API) to a URL
 *     given then, or after a request pattern named by `x-mockyard-on` (`POST /pets`).
 * Payloads: the media type's example (or first named example, or the schema's), else drawn from
 * the schema with the document's seeded generator (`openapi.seed`; each send draws the next
 * value of its own sequence: the same run sends the same payloads). Header parameters the
 * callback declares are sent with their example (or a drawn value).
 */
import { loadFaker, seedOf } from '../schema-faker/faker.js';
import { generate } from '../schema-faker/generate.js';
import { parseTemplate, type Template } from './runtime-expression.js';
import type { Logger } from '../../core/logger.js';
import { isObj } from '../../core/json-object.js';
import { METHODS, parametersOf } from '../openapi-document/operations.js';
import type { Deref } from '../openapi-document/refs.js';

type Obj = Record<string, unknown>;

/**
 * The document as the assembly hands it over (create-mock-api.ts, from the document the OpenAPI
 * layers share): a layer never imports another layer, so this surface never reads the OpenAPI
 * layers' model itself.
 */
export interface WebhookDocument {
  doc: Obj;
  /** Follows `$ref`s of `doc`. */
  deref: Deref;
  /** The operations: label (`POST /streams`) and the operation object as written. */
  operations: Array<{ label: string; op: Obj }>;
  /** (method, path below the prefix) → the operation's label and path parameters, or undefined. */
  route(method: string, subPath: string): { label: string; params: Record<string, string> } | undefined;
  /** The document's data seed (`openapi.seed`). */
  seed: number | string;
  /** Problems of `value` against `schema` (`<pointer> <message>`), [] when it fits. */
  check(schema: unknown, value: unknown): string[];
}

/** One request a document describes (a callback's or a webhook's operation). */
export interface DocumentRequest {
  /** `onData` (callback) or `newPet` (webhook). */
  name: string;
  method: string;
  /** The callback's URL expression (undefined for webhooks: the URL is given when sent). */
  url?: Template;
  /** The expression as written (`{$request.query.callbackUrl}/data`). */
  key?: string;
  /** The JSON request body's schema and example, when the operation has one. */
  media?: { type: string; schema: unknown; example?: unknown };
  /** Declared header parameters: name → schema / example. */
  headers: Array<{ name: string; schema: unknown; example?: unknown }>;
  /** Declared query parameters that are required or have an example (`DELETE ?id=` of a webhook). */
  query: Array<{ name: string; schema: unknown; example?: unknown }>;
  /** `x-mockyard-on` (webhooks): the request pattern it follows. */
  on?: string;
}

export interface DocumentHooks {
  /** Callbacks by the operation's label (`POST /streams`). */
  callbacks: Map<string, DocumentRequest[]>;
  /** 3.1 webhooks, in document order. */
  webhooks: DocumentRequest[];
  /** (method, subPath) → the operation's label and path parameters, or undefined. */
  route(method: string, subPath: string): { label: string; params: Record<string, string> } | undefined;
  /** A payload for `request` (its example, else drawn with the seeded generator). */
  payload(request: DocumentRequest): unknown;
  /** Header values for `request`'s declared headers. */
  headerValues(request: DocumentRequest): Record<string, string>;
  /** `url` with `request`'s declared query parameters added (those the URL does not carry yet). */
  withQuery(request: DocumentRequest, url: string): string;
  /** What `payload` breaks in `request`'s body schema ([] when it fits, or when there is no schema). */
  problems(request: DocumentRequest, payload: unknown): string[];
}

function exampleOf(media: Obj, deref: Deref): unknown {
  if (media.example !== undefined) return media.example;
  if (isObj(media.examples)) {
    for (const e0 of Object.values(media.examples)) {
      const e = deref(e0);
      if (isObj(e) && 'value' in e) return e.value;
    }
  }
  return undefined;
}

function requestsOf(name: string, item0: unknown, deref: Deref, key: string | undefined, logger: Logger): DocumentRequest[] {
  const item = deref(item0);
  if (!isObj(item)) return [];
  let url: Template | undefined;
  if (key !== undefined) {
    try {
      url = parseTemplate(key);
    } catch (err) {
      logger.warn(`openapi: callback "${name}" is skipped: ${(err as Error).message}`);
      return [];
    }
  }
  const out: DocumentRequest[] = [];
  for (const method of METHODS) {
    const op = deref(item[method]);
    if (!isObj(op)) continue;
    const body = deref(op.requestBody);
    let media: DocumentRequest['media'];
    if (isObj(body) && isObj(body.content)) {
      const entries = Object.entries(body.content);
      const json = entries.find(([t]) => /json/i.test(t)) ?? entries[0];
      if (json) {
        const m = deref(json[1]);
        if (isObj(m)) media = { type: json[0], schema: m.schema, example: exampleOf(m, deref) };
      }
    }
    const headers: DocumentRequest['headers'] = [];
    const query: DocumentRequest['query'] = [];
    for (const p of parametersOf(item, op, deref)) {
      const example = p.example ?? (isObj(p.schema) ? p.schema.example : undefined);
      if (p.in === 'header') headers.push({ name: p.name, schema: p.schema, example });
      else if (p.in === 'query' && (p.required === true || example !== undefined)) {
        const i = query.findIndex((q) => q.name === p.name); // the operation's own overrides the path item's
        query.splice(i === -1 ? query.length : i, 1, { name: p.name, schema: p.schema, example });
      }
    }
    const on = typeof op['x-mockyard-on'] === 'string' ? op['x-mockyard-on'] : undefined;
    out.push({ name, method: method.toUpperCase(), url, key, media, headers, query, ...(on ? { on } : {}) });
  }
  return out;
}

/** The callbacks and webhooks of the document. */
export async function loadDocumentHooks(load: () => Promise<WebhookDocument>, logger: Logger): Promise<DocumentHooks> {
  const [{ doc, deref, operations, route, seed, check }, faker] = await Promise.all([load(), loadFaker()]);
  const callbacks = new Map<string, DocumentRequest[]>();
  for (const op of operations) {
    const cbs = deref(op.op.callbacks);
    if (!isObj(cbs)) continue;
    const list: DocumentRequest[] = [];
    for (const [name, cb0] of Object.entries(cbs)) {
      const cb = deref(cb0);
      if (!isObj(cb)) continue;
      for (const [key, item] of Object.entries(cb)) list.push(...requestsOf(name, item, deref, key, logger));
    }
    if (list.length > 0) callbacks.set(op.label, list);
  }
  const webhooks = isObj(doc.webhooks) ? Object.entries(doc.webhooks).flatMap(([name, item]) => requestsOf(name, item, deref, undefined, logger)) : [];
  const drawn = new Map<string, number>();
  const draw = (what: string, schema: unknown): unknown => {
    const n = (drawn.get(what) ?? 0) + 1;
    drawn.set(what, n);
    faker.seed(seedOf(seed, 'webhook', what, n));
    return generate(schema, { faker, deref, direction: 'request' });
  };
  return {
    callbacks,
    webhooks,
    route,
    payload(r) {
      if (!r.media) return undefined;
      if (r.media.example !== undefined) return r.media.example;
      return draw(`${r.name} ${r.method} ${r.key ?? ''}`, r.media.schema);
    },
    problems: (r, payload) => (r.media?.schema === undefined || payload === undefined ? [] : check(r.media.schema, payload)),
    headerValues(r) {
      const out: Record<string, string> = {};
      for (const h of r.headers) {
        const v = h.example !== undefined ? h.example : draw(`${r.name} header ${h.name}`, h.schema ?? { type: 'string' });
        out[h.name] = typeof v === 'string' ? v : JSON.stringify(v);
      }
      return out;
    },
    withQuery(r, url) {
      if (r.query.length === 0) return url;
      const u = new URL(url);
      for (const q of r.query) {
        if (u.searchParams.has(q.name)) continue;
        const v = q.example !== undefined ? q.example : draw(`${r.name} ${r.method} query ${q.name}`, q.schema ?? { type: 'string' });
        u.searchParams.set(q.name, typeof v === 'string' ? v : JSON.stringify(v));
      }
      return u.href;
    },
  };
}
