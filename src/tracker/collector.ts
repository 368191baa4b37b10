/**
 * createCollector: the event collector engine (the tracker's storage backend), host-neutral.
 *
 * Routes under `basePath` (default `/_tracker`):
 *   POST {base}/events   ingest (JSON or gzip; beacons may pass the key as `?key=`)
 *   GET  {base}          read a time window (gzip level 1 unless the client refuses gzip)
 *   GET  {base}/events   the same read (same query, auth, CORS): the tracker client derives its
 *                        read URL from a write URL that carries `?key=`, and then reads here
 *   GET  {base}/ping     { ok: true, appId, mode: 'middleware', version } while the store answers
 *                        (never needs the key); 503 with the JSON error while it cannot be reached
 *   WS   {base}/ws       ingest / events:query / push (ws-session.ts)
 *   OPTIONS on each      CORS preflight
 * Anything else under the base path is a JSON 404; paths outside it are not ours (`undefined`).
 *
 * The collector folder (src/tracker/) in detail:
 * `createCollector(options)` → Engine at `basePath` (default `/_tracker`): ingest, read, ping, ws.
 * Storage: the `EventStore` interface (`store.ts`: load, append a batch → stored lines, read a
 * window → selection, retention, size, onBatch change feed, flush, close). Default: the embedded
 * `VfsEventStore` on a Vfs (JSONL segments + in-memory time index, `time-index.ts`; batch markers
 * make a batch all-or-nothing on disk; `batch-ids.ts` for client batchIds); its reads are
 * synchronous index selections with cached gzip hours. PostgreSQL (`src/node/postgres/`, Node
 * only: `postgresStore()` in `index.ts` is tiny and is Node's runtime's `postgresStore` for
 * `storage.postgres`; `store.ts`, `schema.ts`, `sql-client.ts` over postgres.js or PGlite are
 * imported on first use) streams its reads (`read-stream.ts`, on demand) and announces batches to
 * other processes with LISTEN/NOTIFY.
 * Availability (`storage-state.ts`; its states and their moves: `loading-state.ts`): the store is
 * loaded in the background and retried with a capped backoff until it answers (`load()`, then `probe()`); a store throws `storageUnavailable()`
 * when its storage cannot be reached (PostgreSQL: `src/node/postgres/unreachable.ts` classifies the
 * client's errors), the collector then answers 503 + Retry-After (ping too) and logs each change of
 * state once. The ingest spool (`spool.ts`: the `IngestSpool` interface; `spooled-ingest.ts`: spool
 * while unavailable, drain in order when back, idempotent by batch id) has one implementation, files
 * on disk in the Node host (`src/node/tracker-spool.ts`, the `spool` of Node's runtime object,
 * `src/node/runtime.ts`).
 * Files: `collector.ts` (routes, auth, CORS glue), `options.ts`, `ingest-batch.ts` +
 * `core/inflate-bounded.ts` (decode/validate), `event-store.ts` (in-memory time index, retention) +
 * `event-segments.ts` (one segment per UTC hour, group-commit appends), `read-query.ts`
 * (since/until/limit/page/cursor), `selection-json.ts` (plain reads), `read-encoder.ts` +
 * `gzip-pieces.ts` (gzip from per-hour deflated pieces, background deflate), `read-encoding.ts`
 * (how reads are encoded, settled at start-up: plain | gzip | streamed | broken), `ws-session.ts`
 * (WebSocket protocol), `timestamp.ts`, `event-id.ts` (UUIDv7), `auth.ts`, `cors.ts`.
 * Loaded on demand (dynamic `import()`, own chunks in browser bundles): `event-segments.ts` (with
 * storage), `read-stream.ts` (stores that stream reads), `read-encoder.ts` (gzip reads), `ws-session.ts` (first socket), `core/inflate-bounded.ts`
 * (first compressed body, both engines); likewise the mock API's `ws/layer.ts` (only with `enableWs`; its handlers are
 * checked with the options by `ws/routes.ts`). `ready` / `ready()` wait for what start-up loads.
 */
import { JSON_CONTENT_TYPE } from '../core/media-type.js';
import { readBody } from '../core/body.js';
import { DEFAULT_MESSAGES, errorResponse, HttpError, toHttpError } from '../core/errors.js';
import { underPrefix } from '../core/engine.js';
import { FastResponse } from '../core/fast-response.js';
import { withMessageLimit, type SocketAccept, type UpgradeResult } from '../core/socket.js';
import { keyChecker } from './auth.js';
import { corsHeaders, preflightHeaders } from './cors.js';
import { VfsEventStore } from './event-store.js';
import { partBatchId } from './batch-ids.js';
import { decodeIngestBody, validateBatch, type ValidBatch } from './ingest-batch.js';
import { resolveCollectorOptions } from './options.js';
import type { CollectorRuntime } from './runtime.js';
import { loadReadEncoding, type ReadEncoding } from './read-encoding.js';
import { parseReadQuery, selectEvents } from './read-query.js';
import { selectionJson } from './selection-json.js';
import { StorageState, unavailableError } from './storage-state.js';
import { SpooledIngest, type IngestResult } from './spooled-ingest.js';
import type { EventStore } from './store.js';
import type { Collector, CollectorOptions } from './types.js';
import { VERSION } from '../core/version.js';
import type { PushTarget, SocketContext, TrackerSocket } from './ws-session.js';

type Route = 'read' | 'events' | 'ping' | 'ws';
const ROUTES: Record<string, Route> = { '': 'read', '/': 'read', '/events': 'events', '/events/': 'events', '/ping': 'ping', '/ping/': 'ping', '/ws': 'ws', '/ws/': 'ws' };
const METHODS: Record<Route, string> = { read: 'GET, HEAD, OPTIONS', events: 'GET, HEAD, POST, OPTIONS', ping: 'GET, HEAD, OPTIONS', ws: 'GET, OPTIONS' };

export function createCollector(options: CollectorOptions, runtime: CollectorRuntime = {}): Collector {
  const o = resolveCollectorOptions(options, runtime);
  const { logger, basePath } = o;
  // The embedded store (default) or one from `storage.store` / `storage.postgres` (store.ts).
  const store: EventStore = o.storeFactory
    ? o.storeFactory({ appId: o.appId, logger, maxAgeMs: o.maxAgeMs, retainEvents: o.retainEvents })
    : new VfsEventStore({ fs: o.fs, dir: o.dir, logger, maxAgeMs: o.maxAgeMs, retainEvents: o.retainEvents });
  /** The embedded store: reads are synchronous selections with cached gzip hours. */
  const indexed = store instanceof VfsEventStore ? store : undefined;
  const checkKey = keyChecker(o.apiKey);
  const sockets = new Set<PushTarget>();
  const pingBody = JSON.stringify({ ok: true, appId: o.appId, mode: 'middleware', version: VERSION });
  let closed = false;

  // How reads are encoded (read-encoding.ts), settled before the store's first load is over.
  let reads: ReadEncoding | { name: 'loading' } = { name: 'loading' };
  const readsLoaded = loadReadEncoding(indexed, o.gzipReads, logger, runtime).then((r) => {
    if (closed && r.name === 'gzip') r.encoder.close();
    reads = r;
  });
  /** The gzip encoder of the embedded store's reads, when there is one. */
  const gzipEncoder = () => (reads.name === 'gzip' ? reads : undefined);
  /** The streamed reads' module (a store that streams: loaded before the store is ready). */
  const streamer = () => {
    if (reads.name !== 'streamed') throw new Error(`the streamed read encoder is ${reads.name}`);
    return reads.module;
  };

  // The store is loaded (connected) in the background, again and again until it answers, and
  // watched afterwards (storage-state.ts); requests wait only for the first attempt.
  let warmed = false;
  const state = new StorageState(store, logger, store.label ?? (o.fs ? `the events folder ${[o.fs.root, o.dir].filter(Boolean).join('/') || '.'}` : 'the event store'), async () => {
    await store.applyRetention();
    if (warmed) return;
    warmed = true;
    await readsLoaded;
    gzipEncoder()?.encoder.warmAllNow();
  });
  const ready = state.firstAttempt;
  // Batches acknowledged while the store is unreachable wait in the spool (`storage.spool`).
  const spooled = o.spool ? new SpooledIngest(o.spool.factory(o.spool.settings, { logger }), store, state, logger, (lines, from) => stored(lines, from as TrackerSocket | undefined)) : undefined;
  const whenReady = async (spooling = false) => {
    await ready;
    if (closed) throw new HttpError(503, 'Collector is closed');
    if (reads.name === 'broken') throw new HttpError(503, 'Event storage could not be loaded', { cause: reads.error });
    if (!spooling) state.assertReady();
  };

  let retentionTimer: ReturnType<typeof setInterval> | undefined;
  if (o.maxAgeMs !== undefined) {
    retentionTimer = setInterval(() => {
      void Promise.resolve(store.applyRetention()).catch((err: unknown) => logger.warn(`tracker: retention failed: ${(err as Error)?.message ?? err}`));
    }, Math.min(60_000, Math.max(1000, o.maxAgeMs)));
    (retentionTimer as { unref?: () => void }).unref?.();
  }

  /** Sends a stored batch to every authenticated client except `from`. */
  const push = (lines: string[], from?: PushTarget) => {
    if (sockets.size === 0 || (sockets.size === 1 && from)) return;
    const text = `{"type":"push","events":[${lines.join(',')}]}`;
    for (const s of sockets) if (s !== from && s.authenticated) s.send(text);
  };

  /** What follows a batch the store stored: pushes (unless a retry of a stored batchId), warming. */
  const stored = (lines: string[], from?: TrackerSocket) => {
    if (lines.length === 0) return;
    push(lines, from);
    gzipEncoder()?.encoder.scheduleWarm();
  };

  /** Stores one atomic batch (or spools it while the store is unreachable). */
  const storeValid = async (batch: ValidBatch, from?: TrackerSocket): Promise<IngestResult> => {
    if (spooled) return spooled.write(batch, from);
    try {
      const { saved, lines } = await store.append(batch);
      stored(lines, from);
      return { saved, spooled: false };
    } catch (err) {
      state.failed(err);
      throw err;
    }
  };

  /**
   * Validates and stores an ingest body. Over HTTP more than maxEvents events is a 413. Over
   * WebSocket (`from`) a message within maxWsMessageBytes is stored whole, in order, as
   * consecutive atomic batches of at most maxEvents (their batch ids derived from the message's),
   * answered with one total; a failing part stops the rest (the client retries the message, and
   * with a batchId the parts already stored are not stored again).
   */
  // Batches stored by other processes sharing the store (PostgreSQL LISTEN/NOTIFY).
  store.onBatch?.((lines) => push(lines));

  const storeBatch = async (body: unknown, from?: TrackerSocket): Promise<IngestResult> => {
    const batch = validateBatch(body, from ? Infinity : o.maxEvents);
    await whenReady(spooled !== undefined);
    const n = batch.events.length;
    if (n <= o.maxEvents) return storeValid(batch, from);
    const parts = Math.ceil(n / o.maxEvents);
    let saved = 0;
    let wasSpooled = false;
    for (let i = 0; i < parts; i++) {
      const a = i * o.maxEvents;
      const b = Math.min(n, a + o.maxEvents);
      const r = await storeValid({ events: batch.events.slice(a, b), times: batch.times.slice(a, b), batchId: partBatchId(batch.batchId, i, parts) }, from);
      saved += r.saved;
      wasSpooled ||= r.spooled;
    }
    return { saved, spooled: wasSpooled };
  };

  const socketContext: SocketContext = {
    requiresAuth: o.apiKey !== undefined,
    checkKey,
    maxMessageBytes: o.maxWsMessageBytes,
    authTimeoutMs: o.wsAuthTimeoutMs,
    logger,
    sockets,
    ingest: async (message, from) => (await storeBatch(message, from)).saved,
    async select(q) {
      await whenReady();
      if (indexed) return selectionJson(selectEvents(indexed, q));
      try {
        const sel = await store.read(q);
        return sel.kind === 'index' ? selectionJson(sel) : streamer().selectionText(sel);
      } catch (err) {
        state.failed(err);
        throw err;
      }
    },
  };

  const fail = (err: unknown, path: string, extra: Record<string, string>, head = false): Response => {
    const e = toHttpError(err);
    // An unreachable store is logged once per change of state (storage-state.ts), not per request.
    if (!state.failed(err) && e.status >= 500 && e.status !== 503) logger.error(`tracker: ${e.message}`, e.cause ?? '');
    const message = e.expose ? e.message : DEFAULT_MESSAGES[e.status] ?? 'Internal Server Error';
    return errorResponse(e.status, message, path, { headers: { ...e.headers, ...extra }, details: e.details, head });
  };

  const authorize = (request: Request, url: URL | undefined) => authorizeKey(request.headers.get('x-tracker-key') ?? url?.searchParams.get('key'));
  const authorizeKey = (given: string | null | undefined) => {
    if (!checkKey(given)) {
      throw new HttpError(401, given === null || given === undefined ? 'Missing API key (send the X-Tracker-Key header)' : 'Invalid API key');
    }
  };

  const routeOf = (pathname: string): Route | null | undefined => {
    if (!underPrefix(pathname, basePath)) return undefined;
    return ROUTES[pathname.slice(basePath.length)] ?? null;
  };

  async function handle(request: Request): Promise<Response | undefined> {
    const url = new URL(request.url);
    const path = url.pathname;
    const route = routeOf(path);
    if (route === undefined) return undefined;
    const method = request.method.toUpperCase();
    const origin = request.headers.get('origin');
    const cors = corsHeaders(o.cors, origin);
    const head = method === 'HEAD';
    try {
      if (route === null) throw new HttpError(404, 'Not Found');
      if (method === 'OPTIONS') {
        const preflight = origin !== null && request.headers.get('access-control-request-method') !== null;
        if (!preflight || !o.cors) return FastResponse.empty(204, { Allow: METHODS[route], ...cors });
        const headers = preflightHeaders(o.cors, request, origin);
        if (!headers) throw new HttpError(403, `Origin ${origin} is not allowed`);
        return FastResponse.empty(204, headers);
      }
      if (!METHODS[route].split(', ').includes(method)) {
        throw new HttpError(405, `Method ${method} is not allowed on ${path}`, { headers: { Allow: METHODS[route] } });
      }
      // GET/HEAD {base}/events reads, exactly as GET {base} does.
      const action = route === 'events' && method !== 'POST' ? 'read' : route;
      switch (action) {
        case 'ping': {
          // 200: reads can be answered now (the store answers); 503 with the reason otherwise.
          await ready;
          const status = await state.check();
          if (status.state !== 'ready') throw unavailableError(status);
          return FastResponse.json(pingBody, 200, { 'Cache-Control': 'no-store', ...cors }, head);
        }
        case 'events': {
          authorize(request, url);
          const bytes = await readBody(request, o.maxBodyBytes);
          const body = await decodeIngestBody(bytes, request.headers.get('content-encoding'), o.maxDecompressedBytes, runtime.inflate);
          const { saved, spooled: inSpool } = await storeBatch(body);
          return inSpool ? FastResponse.json(`{"ok":true,"saved":${saved},"spooled":true}`, 202, cors) : FastResponse.json(`{"ok":true,"saved":${saved}}`, 200, cors);
        }
        case 'read': {
          authorize(request, undefined);
          const q = parseReadQuery((name) => url.searchParams.get(name));
          await whenReady();
          const vary = o.cors ? 'Origin, Accept-Encoding' : 'Accept-Encoding';
          if (!indexed) {
            const zipped = o.gzipReads && streamer().acceptsGzip(request.headers.get('accept-encoding'));
            const streamed = await store.read(q, { gzip: zipped });
            if (streamed.kind === 'stream') {
              const headers: Record<string, string> = { 'Content-Type': JSON_CONTENT_TYPE, 'Cache-Control': 'no-store', ...cors, Vary: vary };
              if (zipped) headers['Content-Encoding'] = 'gzip';
              const body = streamer().selectionBody(streamed, zipped, runtime);
              if (head) {
                void body.cancel();
                return new Response(null, { status: 200, headers });
              }
              return new Response(body, { status: 200, headers });
            }
            return FastResponse.json(selectionJson(streamed), 200, { 'Cache-Control': 'no-store', ...cors, Vary: vary }, head);
          }
          const sel = selectEvents(indexed, q);
          const gzip = gzipEncoder();
          if (gzip && gzip.module.acceptsGzip(request.headers.get('accept-encoding'))) {
            const bytes = gzip.encoder.gzip(sel);
            return FastResponse.bytes(bytes, 200, { 'Content-Type': JSON_CONTENT_TYPE, 'Content-Encoding': 'gzip', 'Cache-Control': 'no-store', ...cors, Vary: vary }, head);
          }
          return FastResponse.json(selectionJson(sel), 200, { 'Cache-Control': 'no-store', ...cors, Vary: vary }, head);
        }
        case 'ws':
          throw new HttpError(426, `${path} is a WebSocket endpoint`, { headers: { Upgrade: 'websocket' } });
      }
    } catch (err) {
      return fail(err, path, cors, head);
    }
  }

  // The WebSocket protocol (ws-session.ts) is imported on the first accepted handshake: its own
  // chunk in browser bundles, fetched only by a page that opens a collector socket. The page host
  // shows the socket open before the handshake is decided, so while the code loads a stand-in
  // collects the pushes the client is owed (batches stored meanwhile) and hands them to its session.
  let Session: typeof TrackerSocket | undefined;
  const accept = (early?: string[]): SocketAccept =>
    withMessageLimit((peer) => {
      const session = new Session!(peer, socketContext);
      if (early) for (const text of early) session.send(text);
      return session;
    }, o.maxWsMessageBytes);

  function upgrade(request: Request): UpgradeResult | Promise<UpgradeResult> {
    const url = new URL(request.url);
    const route = routeOf(url.pathname);
    if (route !== 'ws') return route === undefined ? undefined : fail(new HttpError(404, 'Not Found'), url.pathname, {});
    const origin = request.headers.get('origin');
    if (o.cors && origin !== null && !o.cors.allow(origin)) return fail(new HttpError(403, `Origin ${origin} is not allowed`), url.pathname, {});
    if (closed) return fail(new HttpError(503, 'Collector is closed'), url.pathname, {});
    if (Session) return accept();
    const early: string[] = [];
    const standIn: PushTarget = { authenticated: o.apiKey === undefined, send: (text) => early.push(text), shutdown() {} };
    sockets.add(standIn);
    return import('./ws-session.js').then(
      (m) => {
        Session = m.TrackerSocket;
        sockets.delete(standIn);
        return closed ? fail(new HttpError(503, 'Collector is closed'), url.pathname, {}) : accept(early);
      },
      (err: unknown) => {
        sockets.delete(standIn);
        return fail(err, url.pathname, {});
      },
    );
  }

  return {
    kind: 'collector',
    basePath,
    prefixes: [basePath],
    ready,
    get size() {
      return store.size;
    },
    status() {
      const s = state.status();
      return spooled ? { ...s, spool: spooled.status() } : s;
    },
    onStatus(listener) {
      return state.onChange(() => listener(this.status()));
    },
    handle,
    upgrade,
    async deleteRange(from, to, apiKey) {
      authorizeKey(apiKey);
      if (!(from < to)) throw new HttpError(400, '"from" must be earlier than "to"');
      await whenReady();
      if (!store.deleteRange) throw new HttpError(501, 'This event store cannot delete events');
      try {
        return await store.deleteRange(from, to);
      } catch (err) {
        state.failed(err);
        throw err;
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      if (retentionTimer) clearInterval(retentionTimer);
      for (const s of [...sockets]) s.shutdown();
      gzipEncoder()?.encoder.close();
      state.close();
      await ready;
      await spooled?.close();
      await store.close();
    },
  };
}
