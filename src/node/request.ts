/**
 * IncomingMessage → Request, lazily.
 *
 * Building a platform Request per request (Headers object, URL parsing, body stream, WebIDL
 * checks) costs more than the rest of a small GET. `createNodeRequest` returns an object whose
 * prototype chain is `Request.prototype` (so `instanceof Request` holds and engines treat it as a
 * Request) but which only reads the IncomingMessage:
 *   - `method` and `url` are plain strings (the URL is built once, on first read);
 *   - `headers` is a Headers whose `get`/`has` read Node's already-parsed header object; any other
 *     Headers call turns it into a real Headers first (see lazy-headers.ts);
 *   - `body` is a ReadableStream created on first access (null for GET/HEAD, as on the platform);
 *   - `signal` is created on first access and aborts when the client goes away (`kWatchClient`
 *     tells the same without an AbortController: core/client-gone.ts);
 *   - `request[kReadBody](limit)` reads the IncomingMessage directly and rejects with 413 as soon
 *     as more than `limit` bytes arrived (or at once when Content-Length says so);
 *   - `request[kHasBody]` tells whether the request carries a body, GET/HEAD included;
 *   - anything else (`cache`, `clone()`, `formData()`, …) is answered by a real Request built on
 *     demand from the same data.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError } from '../core/errors.js';
import { kHasBody, kRawHeaders, kReadBody, tooLarge } from '../core/body.js';
import { kWatchClient, type StopWatching } from '../core/client-gone.js';
import { kBodyDecoded } from '../core/content-encoding.js';
import { flatGet } from '../core/flat-headers.js';
import { delegateMissing } from '../core/delegate-prototype.js';
import { encodeForm } from './form-encode.js';
import { createLazyHeaders } from './lazy-headers.js';
import { abandonBody } from './lingering-close.js';

const NativeRequest: typeof Request = globalThis.Request;
const EMPTY = new Uint8Array(0);
const noWatch: StopWatching = () => {};

const kIncoming = Symbol('mockyard.node.incoming');
const kResponse = Symbol('mockyard.node.response');
const kPath = Symbol('mockyard.node.path');
const kHost = Symbol('mockyard.node.host');
const kUrl = Symbol('mockyard.node.url');
const kHeaders = Symbol('mockyard.node.headers');
const kSignal = Symbol('mockyard.node.signal');
const kNative = Symbol('mockyard.node.native');
const kUsed = Symbol('mockyard.node.bodyUsed');
const kStream = Symbol('mockyard.node.stream');

/** Host names we put in a URL as they are; anything else falls back to the server's address. */
const SAFE_HOST = /^[A-Za-z0-9._~-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;
/** The last Host value found safe: clients send the same one on every request of a connection. */
let lastSafeHost = '';
const isSafeHost = (host: string): boolean => {
  if (host === lastSafeHost) return true;
  if (!SAFE_HOST.test(host)) return false;
  lastSafeHost = host;
  return true;
};

function bodyUsedError(): TypeError {
  return new TypeError('Body is unusable: Body has already been read');
}

/**
 * Whether the raw request carries a body: Content-Length > 0 or any Transfer-Encoding. Scans
 * `rawHeaders` so that Node never has to build its header object on the GET hot path.
 */
export function incomingHasBody(incoming: IncomingMessage): boolean {
  const raw = incoming.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    if (name.length === 17 && name.toLowerCase() === 'transfer-encoding') return true;
    if (name.length === 14 && name.toLowerCase() === 'content-length') {
      const v = raw[i + 1]!;
      if (v !== '0' && Number(v) > 0) return true;
    }
  }
  return false;
}

/** The first value of a header from `rawHeaders` (lower-case `name`), without Node's header object. */
function rawHeader(incoming: IncomingMessage, name: string): string | undefined {
  return flatGet(incoming.rawHeaders, name);
}

/**
 * Reads the IncomingMessage, at most `limit` bytes. Past the limit it stops reading, abandons
 * the body (lingering-close.ts: the writer closes the connection after the 413) and rejects.
 */
/**
 * The body of a message an earlier middleware already read (express.json(), body-parser): its
 * `rawBody` when it kept one, else `req.body` turned back into bytes for its Content-Type.
 */
function consumedBody(incoming: IncomingMessage): Uint8Array {
  const r = incoming as IncomingMessage & { rawBody?: unknown; body?: unknown };
  const raw = r.rawBody !== undefined ? r.rawBody : r.body;
  if (raw instanceof Uint8Array) return raw;
  if (typeof raw === 'string') return Buffer.from(raw);
  if (raw === null || typeof raw !== 'object') return EMPTY;
  const type = (incoming.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === 'application/json' || type.endsWith('+json')) {
    try {
      return Buffer.from(JSON.stringify(raw));
    } catch {
      // Only a document nested thousands of levels deep (stack overflow) gets here: far past
      // any depth the engine would accept (`maxJsonDepth`), so it is refused the same way.
      throw new HttpError(400, 'JSON body nests too deeply to be read (see the maxJsonDepth option)');
    }
  }
  if (type === 'application/x-www-form-urlencoded') return Buffer.from(encodeForm(raw as Record<string, unknown>));
  return EMPTY;
}

function readIncoming(incoming: IncomingMessage, limit: number): Promise<Uint8Array> {
  if (incoming.readableEnded) {
    const bytes = consumedBody(incoming);
    return bytes.byteLength > limit ? Promise.reject(tooLarge(limit)) : Promise.resolve(bytes);
  }
  const declared = incoming.headers['content-length'];
  if (declared !== undefined && Number(declared) > limit) {
    abandonBody(incoming);
    return Promise.reject(tooLarge(limit));
  }
  if (!incomingHasBody(incoming)) return Promise.resolve(EMPTY);
  return new Promise<Uint8Array>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = () => {
      incoming.off('data', onData);
      incoming.off('end', onEnd);
      incoming.off('error', onError);
      incoming.off('close', onClose);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        cleanup();
        abandonBody(incoming);
        reject(tooLarge(limit));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
    };
    const onError = (err: unknown) => {
      cleanup();
      reject(new HttpError(400, 'Request body could not be read', { cause: err }));
    };
    const onClose = () => {
      if (incoming.complete) return;
      cleanup();
      reject(new HttpError(400, 'Request body ended early (client disconnected)'));
    };
    incoming.on('data', onData);
    incoming.on('end', onEnd);
    incoming.on('error', onError);
    incoming.on('close', onClose);
  });
}

/** The IncomingMessage as a byte stream, with backpressure (pauses Node's stream when full). */
function streamIncoming(incoming: IncomingMessage): ReadableStream<Uint8Array> {
  if (incoming.readableEnded) {
    const bytes = consumedBody(incoming);
    return new ReadableStream<Uint8Array>({
      start(controller) {
        if (bytes.byteLength > 0) controller.enqueue(bytes);
        controller.close();
      },
    });
  }
  let done = false;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      incoming.on('data', (chunk: Buffer) => {
        if (done) return;
        controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        if ((controller.desiredSize ?? 1) <= 0) incoming.pause();
      });
      incoming.on('end', () => {
        if (done) return;
        done = true;
        controller.close();
      });
      incoming.on('error', (err) => {
        if (done) return;
        done = true;
        controller.error(err);
      });
      incoming.on('close', () => {
        if (done || incoming.complete) return;
        done = true;
        controller.error(new Error('Request body ended early (client disconnected)'));
      });
    },
    pull() {
      incoming.resume();
    },
    cancel() {
      done = true;
      abandonBody(incoming);
    },
  }, { highWaterMark: 1 });
}

interface NodeRequestFields {
  [kIncoming]: IncomingMessage;
  [kResponse]: ServerResponse | undefined;
  [kPath]: string;
  [kHost]: string;
  [kUrl]: string | undefined;
  [kHeaders]: Headers | undefined;
  [kSignal]: AbortController | undefined;
  [kNative]: Request | undefined;
  [kUsed]: boolean;
  [kStream]: ReadableStream<Uint8Array> | null | undefined;
}

/** `https` when the request came over TLS (an https server, Vite's `server.https`), else `http`. */
function schemeOf(incoming: IncomingMessage): 'http' | 'https' {
  return (incoming.socket as { encrypted?: boolean } | null | undefined)?.encrypted === true ? 'https' : 'http';
}

/** The class behind createNodeRequest; its prototype chain ends in Request.prototype. */
class NodeRequest implements NodeRequestFields {
  [kIncoming]: IncomingMessage;
  [kResponse]: ServerResponse | undefined;
  [kPath]: string;
  [kHost]: string;
  [kUrl]: string | undefined = undefined;
  [kHeaders]: Headers | undefined = undefined;
  [kSignal]: AbortController | undefined = undefined;
  [kNative]: Request | undefined = undefined;
  [kUsed] = false;
  [kStream]: ReadableStream<Uint8Array> | null | undefined = undefined;

  constructor(incoming: IncomingMessage, response: ServerResponse | undefined, path: string, fallbackHost: string) {
    this[kIncoming] = incoming;
    this[kResponse] = response;
    this[kPath] = path;
    this[kHost] = fallbackHost;
  }

  get method(): string {
    return this[kIncoming].method ?? 'GET';
  }

  get url(): string {
    let url = this[kUrl];
    if (url === undefined) {
      const path = this[kPath];
      if (path.charCodeAt(0) === 47 /* / */) {
        // HTTP/2 (Vite's server.https) names the host in `:authority`, not Host.
        const host = rawHeader(this[kIncoming], 'host') ?? rawHeader(this[kIncoming], ':authority');
        url = `${schemeOf(this[kIncoming])}://${host !== undefined && isSafeHost(host) ? host : this[kHost]}${path}`;
      } else {
        // absolute-form (proxies) or `*`: keep a parseable URL on our own origin
        let parsed: URL | undefined;
        try { parsed = /^https?:\/\//i.test(path) ? new URL(path) : undefined; } catch { parsed = undefined; }
        url = parsed ? parsed.href : `${schemeOf(this[kIncoming])}://${this[kHost]}/${path === '*' ? '' : path}`;
      }
      this[kUrl] = url;
    }
    return url;
  }

  get headers(): Headers {
    return (this[kHeaders] ??= createLazyHeaders(this[kIncoming]));
  }

  get body(): ReadableStream<Uint8Array> | null {
    let stream = this[kStream];
    if (stream === undefined) {
      const m = this.method;
      if (m === 'GET' || m === 'HEAD') stream = null;
      else if (this[kUsed]) throw bodyUsedError();
      else {
        this[kUsed] = true;
        stream = streamIncoming(this[kIncoming]);
      }
      this[kStream] = stream;
    }
    return stream;
  }

  get bodyUsed(): boolean {
    const s = this[kStream];
    if (s) return s.locked || this[kNative]?.bodyUsed === true;
    return this[kUsed];
  }

  get signal(): AbortSignal {
    let controller = this[kSignal];
    if (!controller) {
      controller = new AbortController();
      this[kSignal] = controller;
      const c = controller;
      const res = this[kResponse];
      const abort = () => c.abort(new DOMException('The client closed the connection', 'AbortError'));
      if (res) {
        if (res.closed && !res.writableFinished) abort();
        else if (!res.closed) res.once('close', () => { if (!res.writableFinished) abort(); });
      } else {
        const socket = this[kIncoming].socket;
        if (socket.destroyed) abort();
        else socket.once('close', abort);
      }
    }
    return controller.signal;
  }

  /** Host fast path for core/client-gone.ts watchClient(): a 'close' listener, no AbortController. */
  [kWatchClient](onGone: () => void): StopWatching {
    const res = this[kResponse];
    if (res) {
      if (res.closed) {
        if (!res.writableFinished) onGone();
        return noWatch;
      }
      const listener = () => { if (!res.writableFinished) onGone(); };
      res.once('close', listener);
      return () => { res.off('close', listener); };
    }
    const socket = this[kIncoming].socket;
    if (socket.destroyed) {
      onGone();
      return noWatch;
    }
    socket.once('close', onGone);
    return () => { socket.off('close', onGone); };
  }

  /** Host fast path for core/body.ts readBody(). */
  [kReadBody](limit: number): Promise<Uint8Array> {
    if (this[kUsed]) return Promise.reject(bodyUsedError());
    this[kUsed] = true;
    this[kStream] = null;
    return readIncoming(this[kIncoming], limit);
  }

  get [kRawHeaders](): readonly string[] {
    return this[kIncoming].rawHeaders;
  }

  get [kHasBody](): boolean {
    return incomingHasBody(this[kIncoming]);
  }

  /**
   * An earlier middleware (express.json(), body-parser) read the body before us: it already
   * undid the content codings, so `Content-Encoding` no longer describes what kReadBody returns.
   */
  get [kBodyDecoded](): boolean {
    return this[kIncoming].readableEnded && !this[kUsed];
  }

  /** A real Request with the same method, URL, headers, body and signal (built once). */
  private get native(): Request {
    let native = this[kNative];
    if (!native) {
      const method = this.method;
      const init: RequestInit & { duplex?: 'half' } = { method, headers: this.headers, signal: this.signal };
      if (method !== 'GET' && method !== 'HEAD') {
        // the body stream: a fresh one, or the one already handed out if nobody read it yet
        const existing = this[kStream];
        const stream = existing === undefined && !this[kUsed] ? this.body : existing && !existing.locked ? existing : null;
        if (stream) {
          init.body = stream;
          init.duplex = 'half';
        }
      }
      native = new NativeRequest(this.url, init);
      this[kNative] = native;
    }
    return native;
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    const bytes = await this.bytes();
    return bytes.buffer.byteLength === bytes.byteLength && bytes.byteOffset === 0 ? (bytes.buffer as ArrayBuffer) : (bytes.slice().buffer as ArrayBuffer);
  }

  bytes(): Promise<Uint8Array> {
    const m = this.method;
    if (m === 'GET' || m === 'HEAD') return Promise.resolve(new Uint8Array(0));
    const native = this[kNative];
    if (native) return native.arrayBuffer().then((b) => new Uint8Array(b));
    const stream = this[kStream];
    if (stream === undefined) return this[kReadBody](Infinity); // nothing touched yet: read directly
    if (stream === null || stream.locked) return Promise.reject(bodyUsedError());
    return this.native.arrayBuffer().then((b) => new Uint8Array(b));
  }

  async text(): Promise<string> {
    return new TextDecoder().decode(await this.bytes());
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }

  blob(): Promise<Blob> { return this.native.blob(); }
  formData(): Promise<FormData> { return this.native.formData(); }
  clone(): Request { return this.native.clone(); }
}

// Every other Request member (cache, mode, credentials, redirect, keepalive, …) is answered by
// the native Request, so nothing ever reaches a platform getter with a foreign `this`.
delegateMissing(NodeRequest, NativeRequest, (r) => (r as unknown as { native: Request }).native);
// `new Request(lazy)` and `fetch(lazy)` (a handler proxying to a real backend) read the input's
// own symbol-keyed state (undici 6 keeps it there). Answer those reads from the native Request.
for (const sym of Object.getOwnPropertySymbols(new NativeRequest('http://mockyard.invalid/'))) {
  Object.defineProperty(NodeRequest.prototype, sym, {
    configurable: true,
    get(this: NodeRequest) { return Reflect.get((this as unknown as { native: Request }).native, sym); },
  });
}
Object.setPrototypeOf(NodeRequest.prototype, NativeRequest.prototype);

/**
 * A lazy Request for an IncomingMessage. `path` is the request target to use (`req.url`, or
 * `req.originalUrl` under a mounting middleware); `fallbackHost` is used when the Host header is
 * missing or not a plain host name. `response`, when given, drives `request.signal`.
 */
export function createNodeRequest(incoming: IncomingMessage, response: ServerResponse | undefined, fallbackHost: string, path = incoming.url ?? '/'): Request {
  return new NodeRequest(incoming, response, path, fallbackHost) as unknown as Request;
}

/** The URL path of a request target, without the query (for error bodies). */
export function pathOf(target: string): string {
  const q = target.indexOf('?');
  return q === -1 ? target : target.slice(0, q);
}
