/**
 * How the proxy layer talks to its target: one function from a prepared request to the target's
 * answer head, plus a way to turn that answer into the client's Response.
 *
 * The default is WHATWG fetch (browsers, workers, Deno, Bun, and Node when the runtime gives none).
 * Node's runtime object (src/node/runtime.ts) gives an undici keep-alive connection pool that hands
 * the target's body to the host as a Node stream (src/node/upstream-undici.ts): no WHATWG stream
 * or Headers object per proxied request. The engine never imports `node:*`; the runtime's
 * `upstream` reaches the proxy layer through the engine's services (src/engine/runtime.ts).
 *
 * Every transport behaves the same for the layer: no redirect followed, the request body
 * streamed (`Uint8Array` when an earlier layer already read it), rejects with UpstreamTimeout
 * when the answer's head takes longer than `timeout` and with any other error when the target
 * cannot be reached, and removes the content
 * codings WHATWG fetch removes (gzip, x-gzip, deflate, br: headers.ts `decodable`) so that clients
 * and the recorder see the same bytes whichever transport ran.
 */
import type { StopWatching } from '../../core/client-gone.js';
import { NULL_BODY_STATUS } from '../../core/fast-response.js';
import { flatHeaders, headersOf, type FlatHeaders } from '../../core/flat-headers.js';
import { decodable } from './headers.js';

/** One request to the target, as the proxy layer prepared it. */
export interface UpstreamRequest {
  url: string;
  /** Upper case. */
  method: string;
  /** Flat `[name, value, …]`, already filtered (headers.ts); the transport adds `Host` for `url`. */
  headers: FlatHeaders;
  /** null for GET/HEAD; bytes an earlier layer read; else the client's body stream. */
  body: Uint8Array | ReadableStream<Uint8Array> | null;
  /** Milliseconds to wait for the answer's head: past it the exchange is dropped and `send` rejects with UpstreamTimeout. */
  timeout: number;
  /**
   * Watches the client (core/client-gone.ts `watchClient` for the layer's request): when it goes
   * away the exchange is dropped, before the answer (`send` rejects with ClientGone) or while its
   * body streams.
   */
  watchClient?: (onGone: () => void) => StopWatching;
}

/** `send` rejected because the client went away first (the answer would reach nobody). */
export class ClientGone extends Error {
  constructor() {
    super('The client went away before the target answered');
    this.name = 'ClientGone';
  }
}

/** `send` rejected because the target did not answer within `timeout` (the layer's 504). */
export class UpstreamTimeout extends Error {
  constructor(ms: number) {
    super(`no answer within ${ms} ms`);
    this.name = 'UpstreamTimeout';
  }
}

/** The target's answer, body not yet read. */
export interface UpstreamAnswer {
  status: number;
  statusText: string;
  /** Flat `[name, value, …]` as the target sent them. */
  headers: readonly string[];
  /** Whether the body the client gets had its content codings removed (its Content-Encoding is stale). */
  decoded: boolean;
  /**
   * The client's Response: this answer's status, `headers`, and its body when `withBody` (else
   * the body is discarded). Called once.
   */
  respond(headers: FlatHeaders, withBody: boolean): Response;
}

/** One proxy layer's way to its target (its own connections, closed with the layer). */
export interface UpstreamTransport {
  send(request: UpstreamRequest): Promise<UpstreamAnswer>;
  /** Releases what the transport holds (kept-alive connections). */
  close?(): void;
}

/** Makes a transport for a new proxy layer. */
export type UpstreamTransportFactory = () => UpstreamTransport;

/** Whether the target's answer to `method` with `status` carries a body (not HEAD, not 204/205/304). */
export function answerHasBody(method: string, status: number): boolean {
  return method !== 'HEAD' && !NULL_BODY_STATUS.has(status);
}

/** WHATWG fetch: the default (connections are the platform's). */
export const fetchTransport: UpstreamTransportFactory = () => ({ send: fetchSend });

async function fetchSend(request: UpstreamRequest): Promise<UpstreamAnswer> {
  const body = request.body;
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, request.timeout);
  // Stays watched while the body streams (aborting the controller ends it too).
  request.watchClient?.(() => controller.abort(new ClientGone()));
  let upstream: Response;
  try {
    upstream = await fetch(request.url, {
      method: request.method,
      headers: headersOf(request.headers),
      body,
      redirect: 'manual',
      signal: controller.signal,
      // Streams the request body (Node's fetch requires it for a stream body).
      ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
    } as RequestInit);
  } catch (err) {
    if (controller.signal.reason instanceof ClientGone) throw controller.signal.reason;
    throw timedOut ? new UpstreamTimeout(request.timeout) : err;
  } finally {
    clearTimeout(timer);
  }
  const hasBody = answerHasBody(request.method, upstream.status);
  return {
    status: upstream.status,
    statusText: upstream.statusText,
    headers: flatHeaders(upstream.headers),
    decoded: hasBody && decodable(upstream.headers.get('content-encoding')),
    respond(headers, withBody) {
      if (!withBody && upstream.body) upstream.body.cancel().catch(() => {});
      return new Response(withBody ? upstream.body : null, { status: upstream.status, statusText: upstream.statusText, headers: headersOf(headers) });
    },
  };
}
