/**
 * What recorded traffic (a HAR log: a browser's, Playwright's, `mockyard record`'s) adds to the
 * contract of data: the bodies of its answers widen the collections' and objects' schemas (a
 * field some answers lack becomes optional, another type joins a union), and the document gets
 * the query parameters, request headers, statuses and answer headers it did not name, and the
 * paths it did not have (their answers' schemas inferred from the bodies seen). So the traffic a
 * document was learned from is traffic it accepts (`mockyard check`).
 */
import { base64ToBytes } from '../core/base64.js';
import type { DataModel } from './data-model.js';
import { addValue, emptyShape, shapeToSchema, type Schema, type Shape } from './value-shape.js';
import { isObj } from '../core/json-object.js';

type Obj = Record<string, unknown>;

export interface Exchange {
  method: string;
  /** The path below the prefix (`/todos/1`), decoded as sent. */
  path: string;
  query: string[];
  requestHeaders: string[];
  status: number;
  responseHeaders: string[];
  /** The JSON answer, or undefined (none, or not JSON). */
  body?: unknown;
  bodyIsJson: boolean;
}

/** Headers every client or server sends: not part of an API's contract. */
const COMMON = new Set([
  'accept', 'accept-encoding', 'accept-language', 'cache-control', 'connection', 'content-length', 'content-type', 'cookie', 'date', 'etag',
  'host', 'if-modified-since', 'if-none-match', 'keep-alive', 'last-modified', 'origin', 'pragma', 'referer', 'sec-ch-ua', 'sec-ch-ua-mobile',
  'sec-ch-ua-platform', 'sec-fetch-dest', 'sec-fetch-mode', 'sec-fetch-site', 'set-cookie', 'transfer-encoding', 'user-agent', 'vary',
  'x-mockyard-session', 'x-mockyard-scenario', 'access-control-allow-origin', 'access-control-allow-credentials', 'access-control-expose-headers',
  'content-encoding', 'server', 'x-powered-by', 'priority', 'authorization', 'upgrade-insecure-requests', 'x-deleted-count', 'location',
]);

const names = (headers: unknown): string[] => (Array.isArray(headers) ? headers.filter(isObj).map((h) => String(h.name)).filter((n) => !COMMON.has(n.toLowerCase()) && !n.startsWith(':')) : []);

/**
 * A running server's devtools journal (`GET /_mockyard/api/requests`: `{ entries }`, newest first)
 * as a HAR log of the requests it answered: bodies the journal cut short (`truncated`) are left
 * out (their status is still learned), webhooks it sent are not its API.
 */
export function journalAsHar(journal: unknown, origin: string): { log: { entries: Obj[] } } {
  const list = isObj(journal) && Array.isArray(journal.entries) ? journal.entries.filter(isObj) : [];
  const headers = (h: unknown) => (isObj(h) ? Object.entries(h).map(([name, value]) => ({ name, value: String(value) })) : []);
  const entries: Obj[] = [];
  for (const e of [...list].reverse()) {
    if (e.outgoing !== undefined || typeof e.status !== 'number' || typeof e.url !== 'string') continue;
    const request = isObj(e.request) ? e.request : {};
    const response = isObj(e.response) ? e.response : {};
    const body = isObj(response.body) && typeof response.body.text === 'string' && response.body.truncated !== true ? response.body.text : undefined;
    const type = isObj(response.headers) ? Object.entries(response.headers).find(([k]) => k.toLowerCase() === 'content-type')?.[1] : undefined;
    entries.push({
      request: { method: e.method, url: new URL(e.url, origin).href, headers: headers(request.headers) },
      response: { status: e.status, headers: headers(response.headers), content: { mimeType: String(type ?? ''), ...(body !== undefined ? { text: body } : {}) } },
    });
  }
  return { log: { entries } };
}

/** The exchanges of a HAR log under `prefix`. */
export function harExchanges(har: unknown, prefix: string): Exchange[] {
  const entries = isObj(har) && isObj(har.log) && Array.isArray(har.log.entries) ? har.log.entries : [];
  const base = prefix.replace(/\/+$/, '');
  const out: Exchange[] = [];
  for (const e of entries) {
    if (!isObj(e) || !isObj(e.request) || !isObj(e.response)) continue;
    let url: URL;
    try {
      url = new URL(String(e.request.url));
    } catch {
      continue;
    }
    if (base && url.pathname !== base && !url.pathname.startsWith(`${base}/`)) continue;
    const content = isObj(e.response.content) ? e.response.content : {};
    const type = String(content.mimeType ?? '');
    let body: unknown;
    let bodyIsJson = false;
    if (/json/i.test(type) && typeof content.text === 'string' && content.text !== '') {
      try {
        const text = content.encoding === 'base64' ? new TextDecoder().decode(base64ToBytes(content.text)) : content.text;
        body = JSON.parse(text);
        bodyIsJson = true;
      } catch {
        // a body that is not JSON after all: its status is still learned
      }
    }
    out.push({
      method: String(e.request.method).toUpperCase(),
      path: url.pathname.slice(base.length) || '/',
      query: [...new Set(url.searchParams.keys())],
      requestHeaders: names(e.request.headers),
      status: Number(e.response.status),
      responseHeaders: names(e.response.headers),
      body,
      bodyIsJson,
    });
  }
  return out;
}

/** The model with the items and objects the 2xx answers showed added to the values its schemas come from. */
export function widenModel(model: DataModel, exchanges: readonly Exchange[]): DataModel {
  const collections = new Map(model.collections.map((c) => [c.name, [...c.items] as unknown[]]));
  const objects = new Map(model.objects.map((o) => [o.name, [o.value]]));
  for (const x of exchanges) {
    if (x.status < 200 || x.status > 299 || !x.bodyIsJson) continue;
    const segments = x.path.split('/').filter(Boolean).map(decodeURIComponent);
    const name = segments[0];
    if (name === undefined) continue;
    const items = collections.get(name);
    if (items) {
      if (segments.length === 1 && Array.isArray(x.body)) items.push(...x.body.filter(isObj));
      else if (segments.length === 1 && isObj(x.body) && Array.isArray(x.body.data)) items.push(...x.body.data.filter(isObj));
      else if (segments.length <= 2 && isObj(x.body)) items.push(x.body);
    } else if (segments.length === 1 && objects.has(name) && x.method !== 'DELETE') objects.get(name)!.push(x.body);
  }
  const shapeOf = (values: unknown[]): Schema => {
    const shape: Shape = emptyShape();
    for (const v of values) addValue(shape, v);
    return shapeToSchema(shape);
  };
  return {
    ...model,
    collections: model.collections.map((c) => ({ ...c, schema: shapeOf(collections.get(c.name)!) })),
    objects: model.objects.map((o) => ({ ...o, schema: objects.get(o.name)!.length > 1 ? shapeOf(objects.get(o.name)!) : o.schema })),
  };
}

/** The document's path template that `path` is (`/todos/1` → `/todos/{id}`), or undefined. */
function templateOf(paths: Obj, path: string): string | undefined {
  if (Object.hasOwn(paths, path)) return path;
  const segs = path.split('/');
  for (const template of Object.keys(paths)) {
    const t = template.split('/');
    if (t.length === segs.length && t.every((s, i) => (s.startsWith('{') && s.endsWith('}') ? segs[i] !== '' : s === segs[i]))) return template;
  }
  return undefined;
}

/** A new path's template: numbers and ids after a known name become parameters (`/users/1/todos` → `/users/{usersId}/todos`). */
function newTemplate(path: string): string {
  const segs = path.split('/');
  return segs.map((s, i) => (i > 1 && /^(\d+|[0-9a-f-]{8,})$/i.test(s) ? `{${segs[i - 1]!.replace(/[^A-Za-z0-9]/g, '') || 'p'}Id}` : s)).join('/');
}

/** A path parameter documented as a number that traffic sent as other text (`/todos/abc` → 404) becomes a string. */
function widenPathParams(item: Obj, template: string, path: string): void {
  const t = template.split('/');
  const segs = path.split('/');
  const params = Array.isArray(item.parameters) ? (item.parameters as Obj[]) : [];
  t.forEach((s, i) => {
    if (!s.startsWith('{')) return;
    const p = params.find((q) => q.in === 'path' && `{${String(q.name)}}` === s);
    const schema = p && isObj(p.schema) ? p.schema : undefined;
    if (schema && (schema.type === 'integer' || schema.type === 'number') && !/^-?\d+(\.\d+)?$/.test(segs[i] ?? '')) p!.schema = { type: 'string' };
  });
}

/** Adds what the exchanges show and `document` (an OpenAPI 3.1 document) does not name. */
export function addObserved(document: Obj, exchanges: readonly Exchange[]): void {
  const paths = (isObj(document.paths) ? document.paths : (document.paths = {})) as Obj;
  const bodies = new Map<string, Shape>();
  for (const x of exchanges) {
    let template = templateOf(paths, x.path);
    if (template === undefined) {
      template = newTemplate(x.path);
      const params = [...template.matchAll(/\{([^}]+)\}/g)].map((m) => ({ name: m[1], in: 'path', required: true, schema: { type: 'string' } }));
      paths[template] = { ...(params.length ? { parameters: params } : {}), 'x-mockyard-observed': true };
    }
    const item = paths[template] as Obj;
    widenPathParams(item, template, x.path);
    const method = x.method.toLowerCase();
    const op = (isObj(item[method]) ? item[method] : (item[method] = { summary: 'Observed in recorded traffic', 'x-mockyard-observed': true, responses: {} })) as Obj;
    const parameters = (Array.isArray(op.parameters) ? op.parameters : (op.parameters = [])) as Obj[];
    const pathParams = Array.isArray(item.parameters) ? (item.parameters as Obj[]) : [];
    const has = (name: string, where: string) => [...parameters, ...pathParams].some((p) => String(p.name).toLowerCase() === name.toLowerCase() && p.in === where);
    for (const q of x.query) if (!has(q, 'query')) parameters.push({ name: q, in: 'query', required: false, description: 'Observed in recorded traffic.', schema: {} });
    for (const h of x.requestHeaders) if (!has(h, 'header')) parameters.push({ name: h, in: 'header', required: false, description: 'Observed in recorded traffic.', schema: { type: 'string' } });
    if (parameters.length === 0) delete op.parameters;
    const responses = (isObj(op.responses) ? op.responses : (op.responses = {})) as Obj;
    const code = String(x.status);
    const key = `${template} ${method} ${code}`;
    if (!isObj(responses[code]) || bodies.has(key)) {
      // A status the document did not name: its schema is what its bodies showed.
      let shape = bodies.get(key);
      if (!shape) bodies.set(key, (shape = emptyShape()));
      if (x.bodyIsJson) addValue(shape, x.body);
      responses[code] = { description: 'Observed in recorded traffic', ...(x.bodyIsJson || (isObj(responses[code]) && isObj((responses[code] as Obj).content)) ? { content: { 'application/json': { schema: shapeToSchema(shape) } } } : {}) };
    }
    const response = responses[code] as Obj;
    for (const h of x.responseHeaders) {
      const headers = (isObj(response.headers) ? response.headers : (response.headers = {})) as Obj;
      if (!Object.keys(headers).some((n) => n.toLowerCase() === h.toLowerCase())) headers[h] = { description: 'Observed in recorded traffic.', schema: { type: 'string' } };
    }
  }
}
