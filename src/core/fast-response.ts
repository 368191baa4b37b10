/**
 * A Response that costs almost nothing to build.
 *
 * Engines answer with `Response` objects, as the web platform defines them. Building a native
 * Response (Headers object, body stream, WebIDL checks) costs more than the rest of a small
 * request on Node, so engines build this class instead. It *is* a Response for every caller:
 * `instanceof Response` holds, and every property or method reads from a native Response that is
 * built on first use. Hosts that know the class (the node:http adapter) read the plain state with
 * `fastState()` and write status, headers and bytes straight to the socket, never creating the
 * native object. The state is given up as soon as the native Response exists, so a caller that
 * mutates `headers` is always honoured.
 */
import { JSON_CONTENT_TYPE } from './media-type.js';
import { utf8Length } from './utf8-length.js';

const NativeResponse: typeof Response = globalThis.Response;
const encoder = new TextEncoder();

export type FastHeaders = Record<string, string>;

export interface FastState {
  status: number;
  statusText: string;
  /** Header names as given; values already strings. */
  headers: FastHeaders;
  /**
   * The body: bytes, or short text (UTF-8 on the wire; hosts that write strings natively, such
   * as node:http, skip an encode step); `null` for no body (HEAD, 204, 304). Content-Length, when
   * set, counts UTF-8 bytes. `fastBodyBytes()` gives bytes either way.
   */
  body: Uint8Array | string | null;
}

/**
 * Text bodies up to this many UTF-16 units stay strings (their UTF-8 length is counted in one
 * cheap pass); longer ones are encoded once, which is faster than counting them.
 */
const SHORT_TEXT = 2048;

export { utf8Length };

/** A text body as FastResponse keeps it (short: the string; long: its bytes) and its UTF-8 length. */
export function textBody(text: string): { body: string | Uint8Array; length: number } {
  if (text.length <= SHORT_TEXT) return { body: text, length: utf8Length(text) };
  const bytes = encoder.encode(text);
  return { body: bytes, length: bytes.byteLength };
}

/** The body of a fast state as bytes (`null` for none). */
export function fastBodyBytes(state: FastState): Uint8Array | null {
  const body = state.body;
  return typeof body === 'string' ? encoder.encode(body) : body;
}

const kState = Symbol('mockyard.fastResponse.state');
const kNative = Symbol('mockyard.fastResponse.native');
/** Set when text()/json()/arrayBuffer()/bytes() read the body straight from the plain state. */
const kUsed = Symbol('mockyard.fastResponse.used');
const USED: unique symbol = Symbol('used');
const decoder = new TextDecoder();

function unusable(): Promise<never> {
  return Promise.reject(new TypeError('Body is unusable: Body has already been read'));
}

/** A body's bytes in a buffer of their own (the state's may be shared with a cache). */
function ownBytes(body: Uint8Array | string | null): Uint8Array {
  return body === null ? new Uint8Array(0) : typeof body === 'string' ? encoder.encode(body) : body.slice();
}

/** A body as Response.text() decodes it: UTF-8, a leading BOM dropped, ill-formed text replaced. */
function bodyText(body: Uint8Array | string): string {
  if (typeof body !== 'string') return decoder.decode(body);
  const text = body.charCodeAt(0) === 0xfeff ? body.slice(1) : body;
  return isWellFormed(text) ? text : decoder.decode(encoder.encode(text)); // lone surrogates → U+FFFD
}

const nativeWellFormed = (String.prototype as { isWellFormed?: (this: string) => boolean }).isWellFormed;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
function isWellFormed(text: string): boolean {
  return nativeWellFormed !== undefined ? nativeWellFormed.call(text) : !LONE_SURROGATE.test(text);
}

export interface FastInit {
  status?: number;
  statusText?: string;
  headers?: FastHeaders;
}

/** Statuses whose responses never carry a body (hosts and observers share this list). */
export const NULL_BODY_STATUS: ReadonlySet<number> = new Set([101, 103, 204, 205, 304]);

/** Whether a plain header record holds `lowerName`, in any case (no lower-cased copy is made). */
export function hasFastHeader(headers: FastHeaders, lowerName: string): boolean {
  for (const name in headers) if (name.length === lowerName.length && name.toLowerCase() === lowerName) return true;
  return false;
}

export class FastResponse {
  declare [kState]: FastState | undefined;
  declare [kNative]: Response | undefined;
  declare [kUsed]: boolean;

  constructor(body: Uint8Array | string | null, init: FastInit = {}) {
    const status = init.status ?? 200;
    const content = body === null || NULL_BODY_STATUS.has(status) ? null : typeof body === 'string' && body.length > SHORT_TEXT ? encoder.encode(body) : body;
    this[kState] = { status, statusText: init.statusText ?? '', headers: init.headers ?? {}, body: content };
    this[kNative] = undefined;
    this[kUsed] = false;
  }

  /**
   * A JSON response from already-serialised text. Sets Content-Type and Content-Length; with
   * `head` the body is dropped but Content-Length still tells the GET length.
   */
  static json(text: string, status = 200, headers?: FastHeaders, head = false): Response {
    const { body, length } = textBody(text);
    const h: FastHeaders = { 'Content-Type': JSON_CONTENT_TYPE, ...headers, 'Content-Length': String(length) };
    return new FastResponse(head ? null : body, { status, headers: h }) as unknown as Response;
  }

  /** A response with a body of bytes, Content-Length set; with `head` the body is dropped. */
  static bytes(bytes: Uint8Array, status = 200, headers: FastHeaders = {}, head = false): Response {
    const h: FastHeaders = { ...headers, 'Content-Length': String(bytes.byteLength) };
    return new FastResponse(head ? null : bytes, { status, headers: h }) as unknown as Response;
  }

  /** A response without a body (204, 201 without content, …). */
  static empty(status: number, headers: FastHeaders = {}): Response {
    return new FastResponse(null, { status, headers }) as unknown as Response;
  }

  private get native(): Response {
    let native = this[kNative];
    if (!native) {
      const s = this[kState]!;
      // Text goes in as bytes: a native Response would add a text/plain type to a string body.
      // A text body goes in as text when a Content-Type is set (no encode and copy); without
      // one, as bytes: a native Response would add a text/plain type to a string body.
      const body = typeof s.body === 'string' && hasFastHeader(s.headers, 'content-type') ? s.body : nativeBody(fastBodyBytes(s));
      native = new NativeResponse(body, { status: s.status, statusText: s.statusText, headers: s.headers });
      // Read already through the fast path: the native body is used too (bodyUsed, clone() throws).
      if (this[kUsed]) native.arrayBuffer().catch(() => undefined);
      this[kNative] = native;
      this[kState] = undefined;
    }
    return native;
  }

  get status(): number { return this[kState]?.status ?? this.native.status; }
  get ok(): boolean { const s = this.status; return s >= 200 && s < 300; }
  get statusText(): string { return this[kState]?.statusText ?? this.native.statusText; }
  get headers(): Headers { return this.native.headers; }
  get body(): ReadableStream<Uint8Array> | null { return this.native.body; }
  get bodyUsed(): boolean { return this[kNative]?.bodyUsed ?? this[kUsed]; }
  get redirected(): boolean { return false; }
  get type(): ResponseType { return 'default'; }
  get url(): string { return ''; }

  /**
   * The body's bytes straight from the plain state (no native Response, no stream), marking the
   * body used; `undefined` when the native Response must answer (it exists already).
   */
  private take(): Uint8Array | string | null | typeof USED | undefined {
    const s = this[kState];
    if (s === undefined) return undefined;
    if (this[kUsed]) return USED;
    if (s.body !== null) this[kUsed] = true;
    return s.body;
  }

  arrayBuffer(): Promise<ArrayBuffer> {
    const b = this.take();
    if (b === undefined) return this.native.arrayBuffer();
    return b === USED ? unusable() : Promise.resolve(ownBytes(b).buffer as ArrayBuffer);
  }
  blob(): Promise<Blob> { return this.native.blob(); }
  bytes(): Promise<Uint8Array> {
    const b = this.take();
    if (b === undefined) return this.native.arrayBuffer().then((buf) => new Uint8Array(buf));
    return b === USED ? unusable() : Promise.resolve(ownBytes(b));
  }
  formData(): Promise<FormData> { return this.native.formData(); }
  json(): Promise<unknown> {
    const b = this.take();
    if (b === undefined) return this.native.json();
    if (b === USED) return unusable();
    try {
      return Promise.resolve(JSON.parse(b === null ? '' : bodyText(b)));
    } catch (err) {
      return Promise.reject(err);
    }
  }
  text(): Promise<string> {
    const b = this.take();
    if (b === undefined) return this.native.text();
    return b === USED ? unusable() : Promise.resolve(b === null ? '' : bodyText(b));
  }
  clone(): Response { return this.native.clone(); }
}
Object.setPrototypeOf(FastResponse.prototype, NativeResponse.prototype);

/**
 * Whether the platform Response takes this realm's `Uint8Array` as bytes. It does everywhere but
 * under vitest's jsdom environment, where the global typed arrays are jsdom's and Response is
 * Node's, which would turn the bytes into the text "91,49,93". There a one-chunk stream carries
 * them (streams accept any realm's chunks). Checked once, on first use.
 */
let takesOwnBytes: boolean | undefined;

function nativeBody(bytes: Uint8Array | null): BodyInit | null {
  if (bytes === null) return null;
  takesOwnBytes ??= new NativeResponse(new Uint8Array(0)).headers.get('content-type') === null;
  if (takesOwnBytes) return bytes as BodyInit;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(bytes);
      controller.close();
    },
  });
}

/**
 * The plain state of a FastResponse that nobody has turned into a native Response yet, or
 * `undefined` (a native Response, or a FastResponse already materialised). Hosts use it to write
 * the response without the native object; they must not mutate it.
 */
export function fastState(response: Response): FastState | undefined {
  return (response as unknown as FastResponse)[kState];
}

/** A header of any Response (`lowerName`), read from a FastResponse's plain state without making it native. */
export function responseHeader(response: Response, lowerName: string): string | null {
  const state = fastState(response);
  if (state === undefined) return response.headers.get(lowerName);
  for (const name in state.headers) if (name.length === lowerName.length && name.toLowerCase() === lowerName) return state.headers[name]!;
  return null;
}

/** A real platform Response for hosts that hand responses to code they do not control (MSW). */
export function toNativeResponse(response: Response): Response {
  if (!(kState in response)) return response;
  return (response as unknown as { native: Response }).native;
}

/**
 * Merged header objects of two shared ones (see `withHeaders`): base → extra → merged. Weak on
 * both sides, so an evicted cache entry or a forgotten origin takes its merges with it.
 */
const merges = new WeakMap<FastHeaders, WeakMap<FastHeaders, FastHeaders>>();

/**
 * `base` with `extra` on top (`extra` wins, names in any case; `Vary` is added to). When both are frozen (the convention for header
 * objects that are shared and never change: a cached file's GET headers, CORS header sets) the
 * merge is made once and the same frozen object is returned for every later request: the hot
 * path then allocates nothing and Node sees one stable object shape.
 */
export function mergeHeaders(base: FastHeaders, extra: FastHeaders): FastHeaders {
  // The same two as last time (one file asked for again and again, from one origin): no lookup.
  if (base === lastMerge.base && extra === lastMerge.extra) return lastMerge.merged;
  if (Object.isFrozen(base) && Object.isFrozen(extra)) {
    let byExtra = merges.get(base);
    if (byExtra === undefined) merges.set(base, (byExtra = new WeakMap()));
    let merged = byExtra.get(extra);
    if (merged === undefined) byExtra.set(extra, (merged = Object.freeze(merged2(base, extra))));
    lastMerge.base = base;
    lastMerge.extra = extra;
    lastMerge.merged = merged;
    return merged;
  }
  return merged2(base, extra);
}

/** The last merge of two frozen header objects (frozen: they cannot have changed since). */
const lastMerge: { base: FastHeaders | undefined; extra: FastHeaders | undefined; merged: FastHeaders } = { base: undefined, extra: undefined, merged: {} };

/**
 * `base` and `extra` in a new object. Names match in any case (a proxied answer keeps its
 * target's spelling: `access-control-allow-origin` must not stay beside `Access-Control-Allow-Origin`):
 * `extra` replaces, except `Vary`, a list, where its entries are added to the base's.
 */
function merged2(base: FastHeaders, extra: FastHeaders): FastHeaders {
  const out: FastHeaders = {};
  for (const k in base) out[k] = base[k]!;
  for (const k in extra) {
    const value = extra[k]!;
    const lower = k.toLowerCase();
    let kept: string | undefined;
    for (const b in out) {
      if (b.length !== k.length || b.toLowerCase() !== lower) continue;
      kept = out[b];
      delete out[b];
    }
    out[k] = lower === 'vary' && kept !== undefined && kept !== value ? varyWith(kept, value) : value;
  }
  return out;
}

/** A Vary value with the entries of `more` it lacks added. */
function varyWith(base: string, more: string): string {
  const have = base.split(',').map((t) => t.trim().toLowerCase());
  if (have.includes('*')) return base;
  const add = more.split(',').map((t) => t.trim()).filter((t) => t && !have.includes(t.toLowerCase()));
  return add.length === 0 ? base : `${base}, ${add.join(', ')}`;
}

/**
 * A host's own Response class can answer `withHeaders` itself (the node host's StreamResponse:
 * a proxied body keeps streaming by pipe instead of through a rebuilt platform Response).
 */
export const kWithHeaders = Symbol.for('mockyard.withHeaders');

/** A FastResponse with `state`'s status and body and these headers (the answer it came from stays as it was). */
function withFastHeaders(state: NonNullable<ReturnType<typeof fastState>>, headers: FastHeaders): Response {
  const r = Object.create(FastResponse.prototype) as FastResponse;
  r[kState] = { status: state.status, statusText: state.statusText, headers, body: state.body };
  r[kNative] = undefined;
  r[kUsed] = false;
  return r as unknown as Response;
}

/**
 * The same response with `extra` headers added (CORS on every answer). A FastResponse stays
 * one (its header object is never changed: the merge is a new object, memoised when both sides
 * are frozen); a class with `kWithHeaders` answers itself; a native Response is rebuilt around its
 * body stream.
 */
export function withHeaders(response: Response, extra: FastHeaders): Response {
  const own = (response as unknown as { [kWithHeaders]?: (extra: FastHeaders) => Response })[kWithHeaders];
  if (typeof own === 'function') return own.call(response, extra);
  const state = fastState(response);
  if (state) return withFastHeaders(state, mergeHeaders(state.headers, extra));
  const headers = new Headers(response.headers);
  setHeaders(headers, extra);
  return new NativeResponse(response.body, { status: response.status, statusText: response.statusText, headers });
}

/**
 * `response` with each of `defaults` it does not carry itself (names in any case): headers a
 * wrapper adds to every answer that an answer may set otherwise (json-server's no-cache set
 * beside a recorded or a handler's own `Cache-Control`). Frozen own headers over frozen defaults
 * are merged once (mergeHeaders), as withHeaders' are.
 */
export function withDefaultHeaders(response: Response, defaults: FastHeaders): Response {
  const state = fastState(response);
  if (state && (response as unknown as { [kWithHeaders]?: unknown })[kWithHeaders] === undefined) {
    return withFastHeaders(state, mergeHeaders(defaults, state.headers));
  }
  const missing: Record<string, string> = {};
  let any = false;
  for (const k in defaults) {
    if (response.headers.has(k)) continue;
    missing[k] = defaults[k]!;
    any = true;
  }
  return any ? withHeaders(response, missing) : response;
}

/** `extra` set on a platform Headers by mergeHeaders' rule (replaced, `Vary` added to). */
export function setHeaders(headers: Headers, extra: FastHeaders): void {
  for (const k in extra) {
    const had = k.toLowerCase() === 'vary' ? headers.get('vary') : null;
    headers.set(k, had === null ? extra[k]! : varyWith(had, extra[k]!));
  }
}
