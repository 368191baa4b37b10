/**
 * The request journal: a bounded ring of the last N exchanges an engine saw (devtools).
 * Host-neutral (no node:*): fed by the mock API's observer hook (`api.observe`), read by the
 * admin API (`/_mockyard/api/requests`) and its live stream.
 *
 * What an entry captures (documented in docs/devtools.md, "Request journal"):
 *   - time (epoch ms), method, URL (path + query as sent), status (null = passed on / forwarded),
 *     duration (ms until the engine had its Response; the body is not yet sent), what answered
 *     (`answeredBy`: layer + detail, e.g. `files` + `users.json`), the fault that fired, what the
 *     answer broke in the OpenAPI document (`violations`, openapi/violations.ts) and the document's
 *     operation the openapi layer refused the request for or found the answer breaking (`operation`);
 *   - request and response headers, with the sensitive ones redacted (SENSITIVE_HEADERS: the
 *     value becomes `[redacted]`, the name stays so one sees it was sent);
 *   - bodies, at most `bodyLimit` bytes each (default 4 KiB), decoded as UTF-8 text when the
 *     content type is textual and the body not encoded (else only the size is kept), `truncated` when cut:
 *       request body: only when the engine read it (handlers, file writes: `readBody` leaves the
 *         bytes on the Request under `kBodyBytes`); recording never reads a stream itself;
 *       response body: only when it is at hand (a FastResponse's bytes/text: every answer of the
 *         files layer, the error bodies, `res.json`/`res.send` of handlers). A native Response
 *         (a stream, a proxied answer) is not cloned: recording must never tee or buffer a
 *         stream the host is sending. Such entries say `body: { captured: false, … }`, except
 *         streams whose producer keeps a bounded preview of what it sent (`sse()`, `ndjson()`,
 *         `textStream()`, recorded-stream replays: core/stream-preview.ts): their first bytes so
 *         far, `truncated` while the stream goes on (the entry is rebuilt on each read until then).
 * Recording is cheap: per request one small record holding references (the request's raw
 * header array or Headers, the response's header object, a body's bytes — copied only when
 * longer than `bodyLimit`); redaction, decoding and the entry object happen when the entry is
 * first read (list, the live stream), never on the request path. What a record would hold that
 * equals what the record before it holds (the raw header list, URL parts, what answered, the
 * session id: a client repeats them request after request) is taken from that record instead,
 * so the ring keeps the older, already-surviving copy and the request's own objects die young:
 * a ring that kept each request's header strings would make every garbage collection copy them.
 */
import { kBodyBytes, kRawHeaders } from '../core/body.js';
import { fastState, NULL_BODY_STATUS } from '../core/fast-response.js';
import { streamPreview, type StreamPreview } from '../core/stream-preview.js';
import type { AnsweredBy, Exchange } from '../core/exchange.js';
import { isTextMediaType, parseMediaType } from '../core/media-type.js';
import { check, describe, isPlainObject, OptionsError } from '../core/options.js';
import { faultFiredOf, type FaultFired } from '../engine/faults/fired.js';
import { contractViolationsOf, openApiOperationOf, type ContractViolations, type OperationRef } from '../engine/openapi/violations.js';
import { webhookCauseOf } from '../engine/webhooks/cause.js';
import type { WebhookAttempt } from '../engine/webhooks/delivery.js';

export const DEFAULT_JOURNAL_SIZE = 1000;
export const DEFAULT_JOURNAL_BODY_LIMIT = 4096;

/** `journal`: false (off), true/undefined (defaults) or { size, bodyLimit }. */
export function resolveJournalOptions(value: unknown, option: string): { size: number; bodyLimit: number } {
  if (value === false) return { size: 0, bodyLimit: 0 };
  if (value === undefined || value === true) return { size: DEFAULT_JOURNAL_SIZE, bodyLimit: DEFAULT_JOURNAL_BODY_LIMIT };
  if (!isPlainObject(value)) throw new OptionsError(option, `must be true, false or { size, bodyLimit } (got ${describe(value)})`);
  check.knownKeys(value, option, ['size', 'bodyLimit']);
  return {
    size: check.number(value.size, `${option}.size`, DEFAULT_JOURNAL_SIZE, { min: 0, max: 1_000_000, integer: true }),
    bodyLimit: check.number(value.bodyLimit, `${option}.bodyLimit`, DEFAULT_JOURNAL_BODY_LIMIT, { min: 0, max: 1024 * 1024, integer: true }),
  };
}

/** Header names (lower case) whose values never enter the journal. */
export const SENSITIVE_HEADERS: ReadonlySet<string> = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-tracker-key', 'x-api-key']);
export const REDACTED = '[redacted]';

export interface CapturedBody {
  /** Whether the body was at hand to record (see the top of this file). */
  readonly captured: boolean;
  /** Size in bytes, when known. */
  readonly size: number | null;
  /** The first `bodyLimit` bytes as text (textual content types only). */
  readonly text?: string;
  /** True when `text` holds only the first `bodyLimit` bytes. */
  readonly truncated?: boolean;
}

export interface JournalEntry {
  /** Increasing number (never reused while the journal lives; survives clear()). */
  readonly id: number;
  /** Epoch milliseconds when the exchange ended. */
  readonly time: number;
  readonly method: string;
  /** Path and query as sent (`/api/users?page=2`). */
  readonly url: string;
  /** The answer's status; null when the engine passed the request on (forward). */
  readonly status: number | null;
  /** Milliseconds until the engine had its Response. */
  readonly ms: number;
  readonly answeredBy: AnsweredBy | null;
  /** The scenario whose pipeline answered, or null (the base). */
  readonly scenario: string | null;
  /** The session the request belonged to (X-Mockyard-Session), or null. */
  readonly session: string | null;
  /** The fault that fired on this request (src/engine/faults/), or null. */
  readonly fault: FaultFired | null;
  /** What the answer broke in the OpenAPI document (`openapi.validateResponses`), or null. */
  readonly violations: ContractViolations | null;
  /**
   * The OpenAPI operation (`{ label: 'GET /pets/{id}', operationId }`) the openapi layer refused
   * the request for (400 invalid, 401, 406, 415) or whose documented answer the response broke;
   * else null.
   */
  readonly operation: OperationRef | null;
  readonly request: { readonly headers: Record<string, string>; readonly body: CapturedBody | null };
  readonly response: { readonly headers: Record<string, string>; readonly body: CapturedBody | null } | null;
  /**
   * Set on the rows of webhooks the mock SENT (src/engine/webhooks/): one row per attempt, `url`
   * the receiver's full URL, `status` its answer (null: unreachable), `request` what was sent.
   */
  readonly outgoing?: OutgoingInfo;
}

/** What an outgoing row adds: which delivery, which attempt, and its cause. */
export interface OutgoingInfo {
  readonly event: string;
  readonly deliveryId: string;
  readonly attempt: number;
  readonly attempts: number;
  /** delivered | retrying | failed | cancelled */
  readonly outcome: string;
  /** Why no status came back (connection refused, timeout). */
  readonly error: string | null;
  /** What caused it: `POST /api/orders`, `orders.updated 3`, `app.webhook`… */
  readonly cause: string;
  /** The journal entry of the request that caused it, when it is still in the journal. */
  readonly causeId: number | null;
}

export interface JournalFilter {
  /** Exact method (case-insensitive). */
  method?: string;
  /** Exact status (`404`) or a class (`4xx`). */
  status?: string;
  /** Entries whose URL path starts with this. */
  path?: string;
  /** Entries strictly after this time (epoch ms). */
  since?: number;
  /** At most this many (newest first). */
  limit?: number;
  /** Entries of this session only. */
  session?: string;
  /** true: only answers that broke the OpenAPI document; false: only the others. */
  violations?: boolean;
  /** true: only the webhooks the mock sent (outgoing rows); false: only the requests it received. */
  outgoing?: boolean;
  /** Only the entries of this OpenAPI operation (its label, `GET /pets/{id}`, or its operationId). */
  operation?: string;
}

export interface JournalOptions {
  /** Ring size (default 1,000); 0 = off. */
  size?: number;
  /** Bytes of each body kept (default 4 KiB); 0 = no bodies. */
  bodyLimit?: number;
}

export type JournalListener = (entry: JournalEntry) => void;

export interface Journal {
  readonly size: number;
  readonly bodyLimit: number;
  /** Records one exchange (what the observer hook gives); `scenario` names the pipeline, `session` the session. */
  record(exchange: Exchange, scenario?: string | null, session?: string | null): void;
  /** Records one attempt of an outgoing webhook (a row linked to the entry of its cause, in its session). */
  recordOutgoing(attempt: WebhookAttempt): void;
  /** Entries matching `filter`, newest first. */
  list(filter?: JournalFilter): JournalEntry[];
  /** Empties the ring (ids keep increasing). */
  clear(): void;
  /** Called with each new entry; returns the unsubscribe function. */
  subscribe(listener: JournalListener): () => void;
}

const decoder = new TextDecoder('utf-8', { fatal: false });
function isTextual(contentType: string | undefined): boolean {
  return contentType !== undefined && isTextMediaType(parseMediaType(contentType).type);
}

/** Copies headers into a plain object, redacting SENSITIVE_HEADERS. Works on Headers and plain records. */
export function redactHeaders(headers: Headers | Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  const put = (name: string, value: string) => {
    const key = name.toLowerCase();
    out[key] = SENSITIVE_HEADERS.has(key) ? REDACTED : value;
  };
  if (typeof (headers as Headers).forEach === 'function' && typeof (headers as Headers).get === 'function') {
    (headers as Headers).forEach((value, name) => put(name, value));
    const cookies = (headers as Headers).getSetCookie?.();
    if (cookies && cookies.length > 0) out['set-cookie'] = REDACTED;
  } else {
    for (const name of Object.keys(headers)) put(name, (headers as Record<string, string>)[name]!);
  }
  return out;
}

/** The body as the journal keeps it: text cut at `limit` bytes (textual types only), and its size. */
export function captureBody(bytes: Uint8Array | string, contentType: string | undefined, limit: number): CapturedBody {
  const data = typeof bytes === 'string' ? new TextEncoder().encode(bytes) : bytes;
  const size = data.byteLength;
  if (limit <= 0 || !isTextual(contentType)) return { captured: true, size };
  const truncated = size > limit;
  // A cut inside a multi-byte character decodes to U+FFFD at the end: fine for a preview.
  const text = decoder.decode(truncated ? data.subarray(0, limit) : data);
  return { captured: true, size, text, truncated };
}

/** Raw header list (`[name, value, …]`) into the redacted record. */
function redactRaw(raw: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const key = raw[i]!.toLowerCase();
    const value = SENSITIVE_HEADERS.has(key) ? REDACTED : raw[i + 1]!;
    out[key] = key in out && key !== 'set-cookie' && !SENSITIVE_HEADERS.has(key) ? `${out[key]}, ${value}` : value;
  }
  return out;
}

/**
 * One ring slot: what record() keeps, references only; the entry is made on first read. Slots
 * are allocated once and overwritten in place when the ring wraps, so recording allocates
 * nothing of its own on the request path (only what it references survives, and that is the
 * request's own header array and strings).
 */
class Raw {
  id = 0;
  time = 0;
  method = '';
  pathname = '';
  search = '';
  status: number | undefined = undefined;
  ms = 0;
  answeredBy: AnsweredBy | undefined = undefined;
  scenario: string | null = null;
  session: string | null = null;
  fault: FaultFired | null = null;
  violations: ContractViolations | null = null;
  operation: OperationRef | null = null;
  reqHeaders: readonly string[] | Headers | null = null;
  /** Request body bytes (short: by reference; long: the first `bodyLimit` copied), or undefined. */
  reqBody: Uint8Array | undefined = undefined;
  reqSize = 0;
  resHeaders: Record<string, string> | Headers | null = null;
  /** undefined: no body; null: a stream (not captured); a string: measured when read (size -1). */
  resBody: Uint8Array | string | null | undefined = undefined;
  /** A stream whose producer keeps a preview (core/stream-preview.ts): what has gone out so far. */
  resPreview: StreamPreview | undefined = undefined;
  resSize = 0;
  entry: JournalEntry | undefined = undefined;
  /** An outgoing webhook's row (its entry made when recorded), else false. */
  out = false;
}

/**
 * Whether a Response that is not a FastResponse has a body, without creating its stream: a
 * platform Response is asked (`body` exists already), a host's own Response class (the node
 * host's StreamResponse builds a WHATWG stream on first `body` read, ≈ 17 µs) is judged by
 * status, method and Content-Length.
 */
function hasBody(response: Response, x: Exchange): boolean {
  if (Object.getPrototypeOf(response) === Response.prototype) return response.body !== null;
  if (x.method === 'HEAD' || NULL_BODY_STATUS.has(response.status)) return false;
  return response.headers.get('content-length') !== '0';
}

/** A body as a slot keeps it: by reference when short, else its first `limit` bytes copied (a big buffer is not retained). */
function keepBytes(body: Uint8Array, limit: number): Uint8Array {
  if (body.byteLength <= limit) return body;
  // A cached file's bytes come back request after request: their kept copy is made once.
  const kept = keptCopies.get(body);
  if (kept !== undefined && kept.byteLength === limit) return kept;
  const copy = body.slice(0, limit);
  keptCopies.set(body, copy);
  return copy;
}

/** The kept first bytes of long bodies, by body (dropped with it). */
const keptCopies = new WeakMap<Uint8Array, Uint8Array>();

/** What the first record is compared with: nothing to take from (its header list is no list). */
const NO_RECORD = new Raw();

/** `list` when it holds the same strings as `before` (then `before`, which the ring keeps already), else `list`. */
function sameList(list: readonly string[], before: Raw['reqHeaders']): readonly string[] {
  if (!Array.isArray(before) || before.length !== list.length) return list;
  for (let i = 0; i < list.length; i++) if (list[i] !== (before as readonly string[])[i]) return list;
  return before as readonly string[];
}

/** `by`, or `before` when it says the same. */
function sameAnswerer(by: AnsweredBy | undefined, before: AnsweredBy | undefined): AnsweredBy | undefined {
  return by !== undefined && before !== undefined && by.layer === before.layer && by.detail === before.detail ? before : by;
}

/** A kept body and its full size (-1: a string, measured when read). */
interface KeptBody {
  data: Uint8Array | string;
  size: number;
}

/**
 * A kept body as an entry shows it. An encoded body (`Content-Encoding: gzip`: a collector ingest,
 * its gzip reads) keeps only its size: its bytes are not text, and the journal never inflates.
 */
function capture(kept: KeptBody, headers: Record<string, string>, limit: number): CapturedBody {
  const coding = headers['content-encoding'];
  if (coding !== undefined && coding.trim().toLowerCase() !== 'identity') return { captured: true, size: kept.size === -1 ? captureBody(kept.data, undefined, 0).size : kept.size };
  const c = captureBody(kept.data, headers['content-type'], limit);
  const size = kept.size === -1 ? (c.size ?? 0) : kept.size;
  return { ...c, size, ...(c.text !== undefined ? { truncated: size > limit } : {}) };
}

function materialize(r: Raw, limit: number): JournalEntry {
  if (r.entry) return r.entry;
  const reqHeaders = r.reqHeaders === null ? {} : Array.isArray(r.reqHeaders) ? redactRaw(r.reqHeaders as readonly string[]) : redactHeaders(r.reqHeaders as Headers);
  let reqBody: CapturedBody | null = null;
  if (r.reqBody !== undefined) reqBody = r.reqSize === 0 ? null : capture({ data: r.reqBody, size: r.reqSize }, reqHeaders, limit);
  else {
    const declared = reqHeaders['content-length'];
    if (declared !== undefined && declared !== '0') reqBody = { captured: false, size: Number(declared) };
  }
  let response: JournalEntry['response'] = null;
  if (r.resHeaders !== null) {
    const headers = redactHeaders(r.resHeaders);
    let body: CapturedBody | null = null;
    if (r.resBody === null && r.resPreview !== undefined) {
      // A stream with a preview: its first bytes so far; the entry is rebuilt until it ends.
      const p = r.resPreview;
      const c = capture({ data: p.bytes, size: p.size }, headers, limit);
      body = c.text === undefined ? c : { ...c, truncated: c.truncated === true || !p.done };
    } else if (r.resBody === null) {
      const declared = headers['content-length'];
      body = { captured: false, size: declared === undefined ? null : Number(declared) };
    } else if (r.resBody !== undefined) body = capture({ data: r.resBody, size: r.resSize }, headers, limit);
    response = { headers, body };
  }
  const entry: JournalEntry = {
    id: r.id,
    time: r.time,
    method: r.method,
    url: r.pathname + r.search,
    status: r.status ?? null,
    ms: Math.round(r.ms * 1000) / 1000,
    answeredBy: r.answeredBy ?? null,
    scenario: r.scenario,
    session: r.session,
    fault: r.fault,
    violations: r.violations,
    operation: r.operation,
    request: { headers: reqHeaders, body: reqBody },
    response,
  };
  if (r.resPreview === undefined || r.resPreview.done) r.entry = entry; // a stream still going: built again next time
  return entry;
}

/** Whether a record matches a filter (without making its entry). */
function matches(r: Raw, f: JournalFilter, method: string | undefined): boolean {
  const x = r;
  if (method !== undefined && x.method !== method) return false;
  if (f.status !== undefined) {
    const s = f.status;
    if (/^[1-5]xx$/i.test(s)) {
      if (x.status === undefined || Math.floor(x.status / 100) !== Number(s[0])) return false;
    } else if (String(x.status ?? null) !== s) return false;
  }
  if (f.path !== undefined && !x.pathname.startsWith(f.path)) return false;
  if (f.session !== undefined && x.session !== f.session) return false;
  if (f.violations !== undefined && (x.violations !== null) !== f.violations) return false;
  if (f.operation !== undefined && (x.operation === null || (x.operation.label !== f.operation && x.operation.operationId !== f.operation))) return false;
  if (f.outgoing !== undefined && x.out !== f.outgoing) return false;
  if (f.since !== undefined && !(r.time > f.since)) return false;
  return true;
}

export function createJournal(options: JournalOptions = {}): Journal {
  const size = options.size ?? DEFAULT_JOURNAL_SIZE;
  const bodyLimit = options.bodyLimit ?? DEFAULT_JOURNAL_BODY_LIMIT;
  const ring: (Raw | undefined)[] = new Array(Math.max(0, size));
  let next = 0; // slot of the next write
  let count = 0;
  let last: Raw | undefined; // the slot written last
  let lastId = 0;
  let listeners: JournalListener[] = [];
  /** Webhook causes (cause.ts numbers) → their entry id and session, the newest `size` kept. */
  const causes = new Map<number, { id: number; session: string | null }>();

  function publish(raw: Raw): void {
    if (listeners.length === 0) return;
    const entry = materialize(raw, bodyLimit);
    for (const l of listeners) {
      try {
        l(entry);
      } catch {
        // a failing listener (a closed stream) must not break recording
      }
    }
  }

  /** The next slot, cleared of what it held. */
  function slot(): Raw {
    let r = ring[next];
    if (r === undefined) ring[next] = r = new Raw();
    return r;
  }

  function advance(): void {
    if (++next === size) next = 0;
    if (count < size) count++;
  }

  return {
    size,
    bodyLimit,

    record(x, scenario = null, session = null) {
      if (size <= 0) return;
      const request = x.request as Request & Record<symbol, unknown>;
      const bytes = request[kBodyBytes] as Uint8Array | undefined;
      const rawHeaders = request[kRawHeaders] as readonly string[] | undefined;
      let r = ring[next];
      if (r === undefined) ring[next] = r = new Raw();
      // What equals the record before this one is taken from it (see the top of this file); read
      // before `r` is written: with a ring of one, `r` is that record.
      const before = last ?? NO_RECORD;
      r.method = x.method === before.method ? before.method : x.method;
      r.pathname = x.pathname === before.pathname ? before.pathname : x.pathname;
      r.search = x.search === before.search ? before.search : x.search;
      r.answeredBy = sameAnswerer(x.answeredBy, before.answeredBy);
      r.session = session === before.session ? before.session : session;
      r.reqHeaders = rawHeaders === undefined ? request.headers : sameList(rawHeaders, before.reqHeaders);
      last = r;
      r.id = ++lastId;
      r.time = Date.now();
      r.status = x.status;
      r.ms = x.ms;
      r.scenario = scenario;
      r.fault = faultFiredOf(request) ?? null;
      r.violations = contractViolationsOf(request) ?? null;
      r.operation = openApiOperationOf(request) ?? null;
      r.reqBody = bytes === undefined ? undefined : keepBytes(bytes, bodyLimit);
      r.reqSize = bytes === undefined ? 0 : bytes.byteLength;
      r.resHeaders = null;
      r.resBody = undefined;
      r.resSize = 0;
      r.resPreview = undefined;
      r.entry = undefined;
      r.out = false;
      const cause = webhookCauseOf(request);
      if (cause !== undefined) {
        causes.set(cause, { id: r.id, session });
        if (causes.size > size) causes.delete(causes.keys().next().value!);
      }
      const response = x.response;
      if (response !== undefined) {
        const state = fastState(response);
        if (state !== undefined) {
          r.resHeaders = state.headers;
          const body = state.body;
          if (body === null) r.resBody = undefined;
          else if (typeof body === 'string') {
            // FastResponse keeps only short texts as strings (≤ 2,048 UTF-16 units): cheap to hold.
            r.resBody = body;
            r.resSize = -1;
          } else {
            r.resBody = keepBytes(body, bodyLimit);
            r.resSize = body.byteLength;
          }
        } else {
          r.resHeaders = response.headers;
          r.resBody = hasBody(response, x) ? null : undefined;
          // A platform Response's body exists already: asking for its preview creates nothing.
          if (r.resBody === null && Object.getPrototypeOf(response) === Response.prototype) r.resPreview = streamPreview(response.body);
        }
      }
      advance();
      publish(r);
    },

    recordOutgoing(a) {
      if (size <= 0) return;
      const r = slot();
      const link = a.cause.token === undefined ? undefined : causes.get(a.cause.token);
      let pathname = a.url;
      let search = '';
      const q = a.url.indexOf('?');
      if (q !== -1) [pathname, search] = [a.url.slice(0, q), a.url.slice(q)];
      Object.assign(r, new Raw());
      r.id = ++lastId;
      r.time = a.time;
      r.method = a.method;
      r.pathname = pathname;
      r.search = search;
      r.status = a.status;
      r.ms = a.ms;
      r.session = link?.session ?? null;
      r.out = true;
      const reqHeaders = redactHeaders(a.headers);
      const body = a.body;
      const responseText = a.responseText;
      r.entry = {
        id: r.id,
        time: r.time,
        method: r.method,
        url: a.url,
        status: a.status ?? null,
        ms: Math.round(a.ms * 1000) / 1000,
        answeredBy: null,
        scenario: null,
        session: r.session,
        fault: null,
        violations: null,
        operation: null,
        request: { headers: reqHeaders, body: body === null ? null : captureBody(body, reqHeaders['content-type'], bodyLimit) },
        response: a.status === undefined ? null : { headers: {}, body: responseText === undefined ? null : captureBody(responseText, 'text/plain', bodyLimit) },
        outgoing: { event: a.event, deliveryId: a.deliveryId, attempt: a.attempt, attempts: a.attempts, outcome: a.outcome, error: a.error ?? null, cause: a.cause.label, causeId: link?.id ?? null },
      };
      last = undefined; // the next record compares with nothing (this row holds no request objects)
      advance();
      publish(r);
    },

    list(filter = {}) {
      const out: JournalEntry[] = [];
      const method = filter.method?.toUpperCase();
      const limit = filter.limit ?? Infinity;
      for (let i = 1; i <= count && out.length < limit; i++) {
        const r = ring[(next - i + size) % size]!;
        if (matches(r, filter, method)) out.push(materialize(r, bodyLimit));
      }
      return out;
    },

    clear() {
      ring.fill(undefined); // the slots' references go with them
      causes.clear();
      last = undefined;
      next = 0;
      count = 0;
    },

    subscribe(listener) {
      listeners = [...listeners, listener];
      return () => {
        listeners = listeners.filter((l) => l !== listener);
      };
    },
  };
}
