/**
 * The proxy's upstream transport on Node (part of Node's runtime object, runtime.ts; the contract is
 * src/engine/upstream/transport.ts): an undici `Pool` per target origin and proxy layer, driven
 * through its lowest public API, `dispatch` with a handler (undici's own `request()` is built on
 * it), so a proxied request reuses a warm keep-alive connection and builds no WHATWG Request,
 * Headers or stream, and no Node stream either when the answer is short.
 *
 * Why undici and not node:http's ClientRequest: it is the client Node's own fetch is built on
 * (maintained by Node's core team, no dependencies), keeps connections alive with the server's
 * `Keep-Alive: timeout` hint, and costs the least CPU per proxied request of the ways measured
 * (bench/RESULTS.md: ClientRequest, undici `request()`, undici `dispatch`). The handler uses
 * undici 7's `onConnect/onHeaders/onData/onComplete/onError` methods, which its core calls
 * directly (the newer controller-style methods are wrapped into these, costing a header object
 * per answer).
 *
 * An answer is handed on when its head arrives. Its body is read meanwhile: when the whole
 * answer is in by the time the proxy layer asks for the client's Response (a short answer
 * arrives with its head, in the same socket read), the Response is a FastResponse over those
 * bytes (the host writes head and body at once; CORS, the journal and in-process readers take
 * their fast paths). Otherwise the body streams to the client as it arrives, with backpressure:
 * past 64 KiB not yet taken, or when the client's side is full, the target's socket is paused.
 *
 *   - headers go out as the flat list the layer prepared; undici adds `Host` for the target;
 *   - a request body stream without Content-Length goes out chunked (undici), whatever the method;
 *   - gzip / x-gzip / deflate / br answers are decoded as fetch decodes them (engine/upstream/headers.ts
 *     `decodable`), so clients and the recorder see the same bytes with either transport;
 *   - no answer head within `timeout` → the exchange is aborted, UpstreamTimeout (the layer's
 *     504); a body may then stream for as long as it takes (no body timeout: SSE, long polls);
 *   - the client going away (`watchClient`) aborts the exchange at any point: before the
 *     answer (ClientGone), while its body streams;
 *   - a GET/HEAD/OPTIONS without a body whose kept-alive connection the target closed just as
 *     it was reused (a socket error before any answer) is retried once on a fresh connection.
 */
import { pipeline, Readable } from 'node:stream';
import { constants, createBrotliDecompress, createUnzip } from 'node:zlib';
import type { Dispatcher, Pool } from 'undici';
import { FastResponse, type FastHeaders } from '../core/fast-response.js';
import { flatGet, type FlatHeaders } from '../core/flat-headers.js';
import { decodable } from '../engine/upstream/headers.js';
import type { StopWatching } from '../core/client-gone.js';
import { answerHasBody, ClientGone, UpstreamTimeout, type UpstreamAnswer, type UpstreamRequest, type UpstreamTransport } from '../engine/upstream/transport.js';
import { streamResponse } from './stream-response.js';

/** zlib stops at a truncated end instead of failing the whole answer (as undici's fetch does). */
const LENIENT = { flush: constants.Z_SYNC_FLUSH, finishFlush: constants.Z_SYNC_FLUSH };

/** Retried once after a connection error before any answer (never with a body: it may be half sent). */
const RETRIABLE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const CONNECTION_LOST = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);

const ignore = (): void => {};

/** Body bytes held before the client's Response is made (or while nobody reads it); past it the target's socket is paused. */
const READ_AHEAD = 64 * 1024;

/** The decoding streams for a Content-Encoding, last coding applied first. */
function decoders(contentEncoding: string): NodeJS.ReadWriteStream[] {
  return contentEncoding
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .reverse()
    .map((c) => (c === 'br' ? createBrotliDecompress(LENIENT) : createUnzip(LENIENT))); // gzip or zlib deflate
}

/**
 * A flat header list as a FastResponse's record, or undefined when a record cannot hold it
 * as it is (a name given twice, e.g. two Set-Cookie, or `__proto__`): the answer then streams with
 * the flat list.
 */
function headerRecord(flat: FlatHeaders): FastHeaders | undefined {
  const record: FastHeaders = {};
  const lower: string[] = [];
  for (let i = 0; i < flat.length; i += 2) {
    const name = flat[i]!;
    const l = name.toLowerCase();
    if (l === '__proto__' || lower.includes(l)) return undefined; // a few names: a scan beats a Set
    lower.push(l);
    record[name] = flat[i + 1]!;
  }
  return record;
}

/** The target's body as a Node stream: pushes what the exchange receives, resumes the target when read, aborts it when destroyed. */
class UpstreamBody extends Readable {
  constructor(private readonly exchange: Exchange) {
    super();
  }

  override _read(): void {
    this.exchange.resumeTarget();
  }

  override _destroy(err: Error | null, callback: (err?: Error | null) => void): void {
    this.exchange.cancel(err ?? new Error('The proxied answer was not read to its end'));
    callback(err);
  }
}

type Settle = { resolve(answer: UpstreamAnswer): void; reject(err: unknown): void };

/** One request to the target and its answer: undici's dispatch handler. */
class Exchange implements UpstreamAnswer {
  status = 0;
  statusText = '';
  headers: string[] = [];
  decoded = false;

  private settle: Settle | null;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private abortExchange: ((reason?: Error) => void) | null = null;
  private resume: (() => void) | null = null;
  private cancelled: Error | null = null;
  private unwatch: StopWatching | undefined;
  /** Body chunks received before `respond()` (or a stream's first read). */
  private chunks: Buffer[] = [];
  private held = 0;
  private complete = false;
  private failure: Error | null = null;
  private body: UpstreamBody | null = null;
  private discard = false;

  /** `deadline`: performance.now() by which the answer's head must have come (a retry keeps the first attempt's). */
  constructor(
    private readonly request: UpstreamRequest,
    settle: Settle,
    deadline: number,
  ) {
    this.settle = settle;
    this.timer = setTimeout(() => this.cancel(new UpstreamTimeout(request.timeout)), Math.max(0, deadline - performance.now()));
    if (request.watchClient) this.unwatch = request.watchClient(() => this.cancel(new ClientGone()));
  }

  /** Ends the exchange early (timeout, client gone, body stream destroyed): the target's connection is dropped. */
  cancel(reason: Error): void {
    if (this.complete || this.failure !== null) return;
    this.cancelled ??= reason;
    if (this.abortExchange) this.abortExchange(reason); // → onError(reason)
    else this.onError(reason); // not dispatched to a connection yet: onConnect aborts it
  }

  resumeTarget(): void {
    this.resume?.();
  }

  private finish(): void {
    clearTimeout(this.timer);
    this.unwatch?.();
  }

  // ── undici's dispatch handler ──────────────────────────────────────────────────────────────

  onConnect(abort: (reason?: Error) => void): void {
    this.abortExchange = abort;
    if (this.cancelled) abort(this.cancelled);
  }

  onHeaders(status: number, raw: Buffer[], resume: () => void, statusText: string): boolean {
    // An interim answer (100 Continue, 103 Early Hints): the final one is still to come. Not
    // passed on (neither transport does; fetch drops them too).
    if (status < 200) return true;
    clearTimeout(this.timer);
    const headers = new Array<string>(raw.length);
    for (let i = 0; i < raw.length; i++) headers[i] = raw[i]!.toString('latin1');
    this.status = status;
    this.statusText = statusText ?? '';
    this.headers = headers;
    this.decoded = answerHasBody(this.request.method, status) && decodable(flatGet(headers, 'content-encoding'));
    this.resume = resume;
    const settle = this.settle!;
    this.settle = null;
    settle.resolve(this);
    return true;
  }

  onData(chunk: Buffer): boolean {
    if (this.body !== null) return this.body.push(chunk);
    if (this.discard) return true;
    this.chunks.push(chunk);
    this.held += chunk.length;
    return this.held < READ_AHEAD;
  }

  onComplete(): void {
    this.complete = true;
    this.finish();
    this.body?.push(null);
  }

  onError(err: Error): void {
    if (this.complete || this.failure !== null) return;
    this.failure = this.cancelled ?? err;
    this.finish();
    const settle = this.settle;
    if (settle) {
      this.settle = null;
      settle.reject(this.failure);
    } else this.body?.destroy(this.failure);
  }

  // ── UpstreamAnswer ─────────────────────────────────────────────────────────────────────────

  respond(headers: FlatHeaders, withBody: boolean): Response {
    const status = this.status;
    const statusText = this.statusText;
    if (!withBody || (this.complete && !this.decoded)) {
      let bytes: Buffer | null = null;
      if (!withBody) {
        this.discard = true; // read to the end: the connection goes back to the pool
        this.resume?.();
      } else bytes = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks, this.held);
      this.chunks = [];
      const record = headerRecord(headers);
      if (record !== undefined) return new FastResponse(bytes, { status, statusText, headers: record }) as unknown as Response;
      return streamResponse({ status, statusText, headers, source: bytes === null ? null : Readable.from([bytes], { objectMode: false }) });
    }
    // The body streams: what arrived so far first, then the rest as it comes. A failure before
    // anyone listens (the client gone during a delay, the engine closed) must not be an
    // unhandled 'error': the host sees it through its own listener on the source.
    const body = (this.body = new UpstreamBody(this));
    body.on('error', ignore);
    for (const chunk of this.chunks) body.push(chunk);
    this.chunks = [];
    if (this.failure !== null) body.destroy(this.failure);
    else if (this.complete) body.push(null);
    else this.resume?.();
    let source: Readable = body;
    if (this.decoded) {
      const chain = decoders(flatGet(this.headers, 'content-encoding')!);
      source = chain[chain.length - 1] as unknown as Readable;
      source.on('error', ignore);
      pipeline([body, ...chain], () => { /* errors reach the last stream, which the host watches */ });
    }
    return streamResponse({ status, statusText, headers, source });
  }
}

/**
 * undici, imported on the first proxied request: engines without a proxy never load it, and
 * test environments that lack its globals (jest's jsdom has no MessagePort) can still import the
 * node entry.
 */
let PoolClass: typeof Pool | undefined;
async function loadPool(): Promise<typeof Pool> {
  return (PoolClass ??= (await import('undici')).Pool);
}

/** An undici transport with its own connection pools (closed with the proxy layer). */
export function undiciTransport(): UpstreamTransport {
  const pools = new Map<string, Pool>();

  function poolFor(Pool: typeof import('undici').Pool, origin: string): Pool {
    let pool = pools.get(origin);
    if (pool === undefined) pools.set(origin, (pool = new Pool(origin, { bodyTimeout: 0, headersTimeout: 0 })));
    return pool;
  }

  function attempt(request: UpstreamRequest, url: string, Pool: typeof import('undici').Pool, deadline: number, retry: boolean): Promise<UpstreamAnswer> {
    // `url` is normalised (URL.href, or the layer's concatenation of normalised parts): its path starts at the first '/' after the authority.
    const pathStart = url.indexOf('/', url.indexOf('//') + 2);
    const origin = pathStart === -1 ? url : url.slice(0, pathStart);
    const path = pathStart === -1 ? '/' : url.slice(pathStart);
    return new Promise<UpstreamAnswer>((resolve, reject) => {
      const exchange = new Exchange(request, {
        resolve,
        reject(err) {
          const code = (err as { code?: string })?.code;
          if (retry && request.body === null && !(err instanceof UpstreamTimeout) && !(err instanceof ClientGone) && RETRIABLE_METHODS.has(request.method) && code !== undefined && CONNECTION_LOST.has(code)) {
            resolve(attempt(request, url, Pool, deadline, false));
          } else reject(err);
        },
      }, deadline);
      poolFor(Pool, origin).dispatch(
        {
          method: request.method as Dispatcher.HttpMethod,
          path,
          headers: request.headers,
          body: request.body as Uint8Array | null, // undici streams a WHATWG ReadableStream as an async iterable
        },
        exchange as unknown as Dispatcher.DispatchHandler,
      );
    });
  }

  return {
    async send(request) {
      const Pool = PoolClass ?? (await loadPool());
      return attempt(request, request.url, Pool, performance.now() + request.timeout, true);
    },
    close() {
      for (const pool of pools.values()) void pool.destroy().catch(() => {});
      pools.clear();
    },
  };
}
