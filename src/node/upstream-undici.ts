/**
 * The proxy's upstream transport on Node (registered in register-runtime.ts; the contract is
 * src/engine/proxy/transport.ts): an undici `Pool` per target origin and proxy layer, so a
 * proxied request reuses a warm keep-alive connection and never builds a WHATWG Request, Headers
 * or stream. The target's answer goes to the client as a StreamResponse, which the node host
 * pipes straight into its ServerResponse.
 *
 * Why undici's Pool and not node:http's ClientRequest: the same proxy costs about a quarter less
 * CPU per request with it (bench/RESULTS.md), it is the client Node's own fetch is built on
 * (maintained by Node's core team, no dependencies), and it keeps connections alive with the
 * server's `Keep-Alive: timeout` hint. Its `request()` API hands back raw headers and a Node
 * stream, which is exactly what the host writes.
 *
 *   - headers go out as the flat list the layer prepared; undici adds `Host` for the target;
 *   - a request body stream without Content-Length goes out chunked (undici), whatever the method;
 *   - gzip / x-gzip / deflate / br answers are decoded as fetch decodes them (headers.ts
 *     `decodable`), so clients and the recorder see the same bytes with either transport;
 *   - no answer head within `timeout` → the exchange is aborted, UpstreamTimeout (the layer's
 *     504); a body may then stream for as long as it takes (no body timeout: SSE, long polls);
 *   - a GET/HEAD/OPTIONS without a body whose kept-alive connection the target closed just as
 *     it was reused (a socket error before any answer) is retried once on a fresh connection.
 */
import { EventEmitter } from 'node:events';
import { pipeline, type Readable } from 'node:stream';
import { constants, createBrotliDecompress, createUnzip } from 'node:zlib';
import type { Pool } from 'undici';
import { decodable, flatGet, type FlatHeaders } from '../engine/proxy/headers.js';
import { NULL_BODY_STATUS, UpstreamTimeout, type UpstreamAnswer, type UpstreamRequest, type UpstreamTransport } from '../engine/proxy/transport.js';
import { streamResponse } from './stream-response.js';

/** zlib stops at a truncated end instead of failing the whole answer (as undici's fetch does). */
const LENIENT = { flush: constants.Z_SYNC_FLUSH, finishFlush: constants.Z_SYNC_FLUSH };

/** Retried once after a connection error before any answer (never with a body: it may be half sent). */
const RETRIABLE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const CONNECTION_LOST = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);

/** The decoding streams for a Content-Encoding, last coding applied first. */
function decoders(contentEncoding: string): NodeJS.ReadWriteStream[] {
  return contentEncoding
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .reverse()
    .map((c) => (c === 'br' ? createBrotliDecompress(LENIENT) : createUnzip(LENIENT))); // gzip or zlib deflate
}

interface Answered {
  statusCode: number;
  statusText?: string;
  headers: unknown;
  body: Readable & { dump?(): Promise<void> };
}

function answerOf(request: UpstreamRequest, answered: Answered): UpstreamAnswer {
  const status = answered.statusCode;
  const raw = answered.headers as string[]; // responseHeaders: 'raw' → [name, value, …] as strings
  const coding = flatGet(raw, 'content-encoding');
  const hasBody = request.method !== 'HEAD' && !NULL_BODY_STATUS.has(status);
  const decoded = hasBody && decodable(coding);
  const message = answered.body;
  // A reset mid-body must never be an unhandled 'error': the host sees it through `source`.
  message.on('error', () => {});
  return {
    status,
    statusText: answered.statusText ?? '',
    headers: raw,
    decoded,
    respond(headers: FlatHeaders, withBody: boolean) {
      let source: Readable | null = null;
      if (!withBody) message.resume(); // read to the end: the connection goes back to the pool
      else if (!decoded) source = message;
      else {
        const chain = decoders(coding!);
        source = chain[chain.length - 1] as unknown as Readable;
        pipeline([message, ...chain], () => { /* errors reach the last stream, which the host watches */ });
      }
      return streamResponse({ status, statusText: answered.statusText ?? '', headers, source });
    },
  };
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

  async function attempt(request: UpstreamRequest, url: URL, retry: boolean): Promise<UpstreamAnswer> {
    const body = request.body;
    const Pool = PoolClass ?? (await loadPool());
    const abort = new EventEmitter();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      abort.emit('abort');
    }, request.timeout);
    try {
      const answered = await poolFor(Pool, url.origin).request({
        method: request.method as 'GET',
        path: url.pathname + url.search,
        headers: request.headers,
        body: body as Uint8Array | null, // undici streams a WHATWG ReadableStream as an async iterable
        signal: abort,
        responseHeaders: 'raw',
      });
      return answerOf(request, answered as unknown as Answered);
    } catch (err) {
      if (timedOut) throw new UpstreamTimeout(request.timeout);
      const code = (err as { code?: string })?.code;
      if (retry && body === null && RETRIABLE_METHODS.has(request.method) && code !== undefined && CONNECTION_LOST.has(code)) {
        clearTimeout(timer);
        return attempt(request, url, false);
      }
      throw err;
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    send: (request) => attempt(request, new URL(request.url), true),
    close() {
      for (const pool of pools.values()) void pool.destroy().catch(() => {});
      pools.clear();
    },
  };
}
