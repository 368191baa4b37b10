/**
 * The devtools admin API: an Engine under `/_mockyard/api/`, host-neutral (a WHATWG
 * Request → Response), put first in every host's engine list by host/engine-set.ts when the
 * guard (guard.ts) allows it. JSON in and out; every error is the one JSON error body.
 *
 *   GET    (the base itself)  an index: the page's URL and these routes (INDEX_ROUTES)
 *   GET    requests           journal entries, newest first; ?method= ?status= (404 | 4xx)
 *                             ?path= (URL path prefix) ?since= (epoch ms or ISO time) ?limit=
 *   DELETE requests           empties the journal (204)
 *   GET    requests/stream    Server-Sent Events: `event: request` + the entry as JSON, for each
 *                             new entry (a `: ping` comment every 15 s keeps proxies from closing it)
 *   GET    routes             mock API (prefixes, files tree with sizes, collections with their
 *                             item counts, handlers, WebSocket handlers with their live
 *                             connections, scenarios) and collector routes
 *   GET    scenario           { current, scenarios, saved: { <name>: overrides } } (saved: made at run time)
 *   PUT    scenario           body { "name": "empty-cart" | null } → switches (400 unknown)
 *   …      overrides…         the shared route overrides; scenarios/<name>…: saved scenarios (admin-overrides.ts)
 *   POST   reset              restores the seed of a memory / IndexedDB filesystem (`reset()`)
 *                             and of the OpenAPI backend's state in memory, and empties the
 *                             journal; a filesystem without reset (disk) → 501; no mocks folder
 *                             (fsDir: null): the states in memory and the journal only
 *   …      sessions…          the sessions (admin-sessions.ts)
 *   …      data…              the collections, read and written through the store (admin-data.ts)
 *   …      files…             the mock files: read, create, edit with If-Match (admin-files.ts)
 *   POST   routes             a new static route (status, headers, JSON or text) as a mock file (admin-files.ts)
 *   GET    openapi            the OpenAPI document's operations, responses and examples (admin-openapi.ts)
 *   GET    events/export      the collector's events of ?since=&until= as JSON Lines (admin-events.ts)
 *   DELETE events             the collector's events of ?from=&to= (to excluded) deleted → { deleted }
 *   GET    record / PUT record  recording through the proxy, started and stopped; what was recorded (admin-record.ts)
 *   GET    record/har         the recording as a HAR 1.2 file (admin-record.ts)
 *   GET    webhooks           { target, pending, configured: [{ on, url }], document: [{ name, method,
 *                             on, payload }] } (the OpenAPI document's 3.1 webhooks, payloads drawn)
 *   PUT    webhooks/target    body { "url": "http://…" | null }: where `x-mockyard-on` webhooks go
 *   POST   webhooks/send      body { "name", "method"?, "url"?, "body"? }: sends the document's
 *                             webhook (drawn or edited payload) to `url` (default: the target) → 202
 * `requests` also takes ?session=<id> (that session's entries only), ?violations=true|false
 * (only the answers that broke the OpenAPI document, `openapi.validateResponses`; or the others)
 * ?outgoing=true|false (only the webhooks the mock sent; or only the requests it received) and
 * ?operation=<label or operationId> (the entries the openapi layer tied to that operation).
 * */
import type { Engine } from '../core/engine.js';
import { underPrefix } from '../core/engine.js';
import { HttpError, responseForError } from '../core/errors.js';
import { FastResponse } from '../core/fast-response.js';
import { readBody } from '../core/body.js';
import { assertNoForbiddenKeys, parseJsonBytes } from '../core/json-safety.js';
import type { MockApi } from '../engine/create-mock-api.js';
import { ADMIN_BASE, DEVTOOLS_BASE } from './paths.js';
import type { Journal, JournalFilter } from './journal.js';
import { describeCollector, describeMock } from './routes-info.js';
import { isMockApi } from '../engine/is-mock-api.js';
import { sessionRoute } from './admin-sessions.js';
import { dataRoute } from './admin-data.js';
import { createStaticRoute, filesRoute } from './admin-files.js';
import { describeOpenApi } from './admin-openapi.js';
import { deleteEvents, exportEvents } from './admin-events.js';
import { recordRoute } from './admin-record.js';
import { overridesRoute } from './admin-overrides.js';
import { fileQueueOf } from '../engine/file-queue.js';
import { schemaFirstTypesOf } from '../engine/graphql/types-view.js';
import { openApiResourcesOf } from '../engine/openapi-backend/resources-view.js';
import { createResourceMap, type ResourceMapSource } from '../engine/resource-map.js';

const SSE_PING_MS = 15_000;

/** `GET /_mockyard/api/` answers this index (the URL the CLI prints), so the API can be found with curl. */
const INDEX_ROUTES: ReadonlyArray<readonly [string, string]> = [
  ['GET, DELETE', 'requests'], ['GET', 'requests/stream'], ['GET, POST', 'routes'], ['GET, PUT', 'scenario'],
  ['GET, POST, DELETE', 'overrides'], ['POST', 'scenarios/<name>/overrides'], ['GET, DELETE', 'scenarios/<name>'],
  ['GET, POST', 'sessions'], ['GET, DELETE', 'sessions/<id>'], ['POST', 'sessions/<id>/reset'], ['PUT', 'sessions/<id>/scenario'],
  ['GET, POST, DELETE', 'sessions/<id>/overrides'], ['GET', 'sessions/<id>/requests'], ['GET', 'data'], ['GET, PUT, POST', 'data/<name>'], ['POST', 'data/<name>/reset'],
  ['GET, PATCH, PUT, DELETE', 'data/<name>/<id>'], ['POST', 'data/<name>/<id>/duplicate'], ['GET, PUT, DELETE', 'files/<path>'],
  ['GET', 'openapi'], ['GET, PUT', 'record'], ['GET', 'record/har'], ['GET', 'webhooks'], ['PUT', 'webhooks/target'],
  ['POST', 'webhooks/send'], ['GET', 'events/export'], ['DELETE', 'events'], ['POST', 'reset'],
];
const BODY_LIMIT = 64 * 1024;

export interface AdminOptions {
  mock?: Engine;
  tracker?: Engine;
  /** The request journal the host keeps (src/host/journal.ts), or null when it is off. */
  journal?: Journal | null;
}

const json = (value: unknown, status = 200, head = false) => FastResponse.json(JSON.stringify(value), status, { 'Cache-Control': 'no-store' }, head);

function parseSince(value: string | null): number | undefined {
  if (value === null || value === '') return undefined;
  const n = /^\d+$/.test(value) ? Number(value) : Date.parse(value);
  if (!Number.isFinite(n)) throw new HttpError(400, 'since must be epoch milliseconds or an ISO 8601 time');
  return n;
}

function filterFrom(params: URLSearchParams): JournalFilter {
  const f: JournalFilter = {};
  const method = params.get('method');
  if (method) f.method = method;
  const status = params.get('status');
  if (status) {
    if (!/^([1-5]\d\d|[1-5]xx)$/i.test(status)) throw new HttpError(400, 'status must be a status code (404) or a class (4xx)');
    f.status = status.toLowerCase();
  }
  const path = params.get('path');
  if (path) f.path = path;
  const session = params.get('session');
  if (session) f.session = session;
  const violations = params.get('violations');
  if (violations) {
    if (violations !== 'true' && violations !== 'false') throw new HttpError(400, 'violations must be true or false');
    f.violations = violations === 'true';
  }
  const outgoing = params.get('outgoing');
  if (outgoing) {
    if (outgoing !== 'true' && outgoing !== 'false') throw new HttpError(400, 'outgoing must be true or false');
    f.outgoing = outgoing === 'true';
  }
  const operation = params.get('operation');
  if (operation) f.operation = operation;
  f.since = parseSince(params.get('since'));
  const limit = params.get('limit');
  if (limit) {
    if (!/^\d{1,7}$/.test(limit) || Number(limit) < 1) throw new HttpError(400, 'limit must be a positive integer');
    f.limit = Number(limit);
  }
  return f;
}

/** A JSON object body (400 otherwise). */
async function jsonBody(request: Request): Promise<Record<string, unknown>> {
  const value = parseJsonBytes(await readBody(request, BODY_LIMIT));
  assertNoForbiddenKeys(value);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new HttpError(400, 'The body must be a JSON object');
  return value as Record<string, unknown>;
}

export interface AdminApi extends Engine {
  close(): Promise<void>;
}

export function createAdminApi(options: AdminOptions): AdminApi {
  const mock: MockApi | undefined = isMockApi(options.mock) ? options.mock : undefined;
  const tracker = options.tracker;
  const streams = new Set<() => void>();
  let resources: ResourceMapSource | undefined;

  function needMock(): MockApi {
    if (!mock) throw new HttpError(404, 'No mock API is configured on this host');
    return mock;
  }
  function needJournal(): Journal {
    needMock();
    const j = options.journal;
    if (!j) throw new HttpError(404, 'The request journal is off (mock.journal: false)');
    return j;
  }

  function stream(): Response {
    const journal = needJournal();
    const encoder = new TextEncoder();
    let stop = () => {};
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        const send = (text: string) => {
          try {
            controller.enqueue(encoder.encode(text));
          } catch {
            stop();
          }
        };
        const off = journal.subscribe((entry) => send(`id: ${entry.id}\nevent: request\ndata: ${JSON.stringify(entry)}\n\n`));
        const ping = setInterval(() => send(': ping\n\n'), SSE_PING_MS);
        (ping as { unref?: () => void }).unref?.();
        const end = () => {
          stop();
          try {
            controller.close();
          } catch {
            // already closed
          }
        };
        stop = () => {
          off();
          clearInterval(ping);
          streams.delete(end);
        };
        streams.add(end);
        send(': connected\n\n'); // flushes the headers at once
      },
      cancel() {
        stop();
      },
    });
    return new Response(body, { status: 200, headers: { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-store', 'X-Accel-Buffering': 'no' } });
  }

  async function route(request: Request, method: string, sub: string, params: URLSearchParams): Promise<Response> {
    const head = method === 'HEAD';
    const allow = (methods: string) => {
      throw new HttpError(405, `Method ${method} is not allowed here`, { headers: { Allow: methods } });
    };
    if (sub === '/sessions' || sub.startsWith('/sessions/')) return sessionRoute(needMock(), options.journal, request, method, sub, params, filterFrom);
    if (sub === '/data' || sub.startsWith('/data/')) return dataRoute(needMock(), request, method, sub, params);
    if (sub.startsWith('/files/')) return filesRoute(needMock(), fileQueueOf(needMock().app), request, method, sub);
    if (sub === '/overrides' || sub.startsWith('/overrides/') || sub.startsWith('/scenarios/')) return overridesRoute(needMock(), request, method, sub);
    switch (sub) {
      case '':
      case '/':
        if (method === 'GET' || head) return json({ page: `${DEVTOOLS_BASE}/`, routes: INDEX_ROUTES.map(([methods, path]) => ({ methods, path: `${ADMIN_BASE}/${path}` })) }, 200, head);
        return allow('GET, HEAD');
      case '/record':
      case '/record/har':
        return recordRoute(needMock(), request, method, sub);
      case '/events':
        if (method !== 'DELETE') return allow('DELETE');
        if (!tracker) throw new HttpError(404, 'No event collector is configured on this host');
        return deleteEvents(tracker, request, params);
      case '/events/export':
        if (method !== 'GET') return allow('GET');
        if (!tracker) throw new HttpError(404, 'No event collector is configured on this host');
        return exportEvents(tracker, request, params);
      case '/openapi':
        if (method === 'GET' || head) return json(await describeOpenApi(needMock()), 200, head);
        return allow('GET, HEAD');
      case '/requests':
        if (method === 'GET' || head) return json({ entries: needJournal().list(filterFrom(params)) }, 200, head);
        if (method === 'DELETE') {
          needJournal().clear();
          return FastResponse.empty(204);
        }
        return allow('GET, HEAD, DELETE');
      case '/requests/stream':
        if (method === 'GET') return stream();
        return allow('GET');
      case '/routes':
        if (method === 'GET' || head) {
          return json({ mock: mock ? await describeMock(mock, (resources ??= createResourceMap(mock))) : null, collector: tracker ? describeCollector(tracker) : null }, 200, head);
        }
        if (method === 'POST') return createStaticRoute(needMock(), fileQueueOf(needMock().app), await jsonBody(request));
        return allow('GET, HEAD, POST');
      case '/scenario': {
        const api = needMock();
        const saved = () => Object.fromEntries(api.routeOverrides.saved);
        if (method === 'GET' || head) return json({ current: api.scenario, scenarios: api.scenarios, saved: saved() }, 200, head);
        if (method === 'PUT') {
          const value = parseJsonBytes(await readBody(request, BODY_LIMIT));
          assertNoForbiddenKeys(value);
          const name = (value as { name?: unknown } | null)?.name;
          if (typeof value !== 'object' || value === null || Array.isArray(value) || (name !== null && typeof name !== 'string')) {
            throw new HttpError(400, 'The body must be {"name": "<scenario>"} or {"name": null}');
          }
          api.useScenario(name as string | null);
          return json({ current: api.scenario, scenarios: api.scenarios, saved: saved() });
        }
        return allow('GET, HEAD, PUT');
      }
      case '/webhooks': {
        if (method !== 'GET' && !head) return allow('GET, HEAD');
        const api = needMock();
        const configured = api.options.webhooks.map((w) => ({ on: w.on, url: typeof w.url === 'string' ? w.url : null }));
        return json({ target: api.webhooks.target, pending: api.webhooks.pending, configured, document: await api.webhooks.documentWebhooks() }, 200, head);
      }
      case '/webhooks/target': {
        if (method !== 'PUT') return allow('PUT');
        const api = needMock();
        const value = await jsonBody(request);
        const url = value.url;
        if (url !== null && typeof url !== 'string') throw new HttpError(400, 'The body must be {"url": "http://…"} or {"url": null}');
        api.webhooks.target = url as string | null;
        return json({ target: api.webhooks.target });
      }
      case '/webhooks/send': {
        if (method !== 'POST') return allow('POST');
        const api = needMock();
        const value = await jsonBody(request);
        const { name, url, body } = value as { name?: unknown; url?: unknown; body?: unknown };
        const wanted = (value as { method?: unknown }).method;
        if (typeof name !== 'string' || (url !== undefined && typeof url !== 'string') || (wanted !== undefined && typeof wanted !== 'string')) throw new HttpError(400, 'The body must be {"name": "<webhook>", "url"?: "http://…", "method"?: "POST", "body"?: …}');
        const target = (url as string | undefined) ?? api.webhooks.target;
        if (target === null) throw new HttpError(400, 'No "url" given and no target set (PUT webhooks/target)');
        const deliveryId = await api.webhooks.sendDocumentWebhook(name, { url: target, body, method: wanted as string | undefined });
        if (deliveryId === undefined) throw new HttpError(503, 'The webhook queue is full; try again when it drains');
        return json({ deliveryId }, 202);
      }
      case '/reset': {
        if (method !== 'POST') return allow('POST');
        const api = needMock();
        const fs = api.options.fs as { reset?: () => Promise<void> } | undefined;
        // No mocks folder at all (fsDir: null, `mockyard openapi.yaml`) and no seeded filesystem: no file to restore, the states in memory below still are.
        if (fs && typeof fs.reset === 'function') await fs.reset();
        else if (api.options.fsDir !== null) {
          throw new HttpError(501, 'Reset is not available for this filesystem: only memoryFs and indexedDbFs keep a seed to restore (a disk folder is yours: use git)');
        }
        (await openApiResourcesOf(api.app.store))?.resetAll(); // the OpenAPI backend's state in memory: its seed again
        (await schemaFirstTypesOf(api.app.store))?.resetAll(); // a schema-first GraphQL API's state: its seed again
        options.journal?.clear();
        return json({ reset: true });
      }
      default:
        throw new HttpError(404, 'Not Found');
    }
  }

  return {
    prefixes: [ADMIN_BASE],
    async handle(request) {
      const url = new URL(request.url);
      if (!underPrefix(url.pathname, ADMIN_BASE)) return undefined;
      const method = request.method.toUpperCase();
      try {
        let sub = url.pathname.slice(ADMIN_BASE.length);
        if (sub.length > 1 && sub.endsWith('/')) sub = sub.slice(0, -1);
        return await route(request, method, sub, url.searchParams);
      } catch (err) {
        return responseForError(err, url.pathname, method === 'HEAD');
      }
    },
    async close() {
      for (const end of [...streams]) end();
      streams.clear();
      resources?.close();
    },
  };
}
