/**
 * The proxy layer (`mock.proxy`): a request under the prefix that no
 * handler, collection or file answered is forwarded to `proxy.target` through the upstream
 * transport (upstream/transport.ts: WHATWG fetch by default, an undici keep-alive pool on Node), so
 * a team mocks a few endpoints and passes the rest through to a real API.
 *
 *   - URL: target origin + target path + (rewrite ?? identity)(pathname + query);
 *   - bodies stream both ways (the client's body stream goes out as it arrives; the target's
 *     body is the client's);
 *   - headers: see upstream/headers.ts (Host rewritten, hop-by-hop dropped both ways);
 *   - redirects are passed to the client, never followed;
 *   - `proxy.timeout` bounds the wait for the target's response headers → 504; an unreachable
 *     target (refused, DNS, reset before the answer) → 502. Both use the one JSON error body
 *     and a fixed message (the cause is logged, never sent).
 *
 * No `peek`: every request reaching this layer takes the promise path (an answer from the
 * network is never synchronous). Host-neutral: the transport does the I/O.
 *
 * Browser mode: the service-worker host does not build this layer; it lets such requests go to
 * the network (src/sw/engines.ts `pageMockOptions`).
 * Order: last of the answering layers (after static), before only the preset hints: what nothing
 *   local answered goes to the real API.
 */
import { bufferedBody } from '../../core/body.js';
import { watchClient } from '../../core/client-gone.js';
import { errorResponse, HttpError } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import { OptionsError } from '../../core/options.js';
import type { Vfs } from '../../vfs/types.js';
import type { RequestContext } from '../context.js';
import { resolveRecord, type ResolvedProxyOptions } from './options.js';
import type { Layer } from '../pipeline/layer.js';
import { clientResponseHeaders, upstreamRequestHeaders } from '../upstream/headers.js';
import { createRecorder, type Captured, type Recorder } from './recorder.js';
import { answerHasBody, ClientGone, fetchTransport, type UpstreamAnswer, type UpstreamTransportFactory, UpstreamTimeout } from '../upstream/transport.js';

export const PROXY_LAYER = 'proxy';

export const PROXY_MESSAGES = {
  loop: 'Loop Detected: the proxy target is this mock API (its request came back)',
  unreachable: 'Bad Gateway: the proxy target could not be reached',
  timeout: (ms: number) => `Gateway Timeout: the proxy target did not answer within ${ms} ms`,
  badRewrite: 'proxy.rewrite must return a path starting with "/"',
  clientGone: 'Client Closed Request: the client went away before the proxy target answered',
} as const;

export interface ProxyLayerOptions {
  proxy: ResolvedProxyOptions;
  logger: Logger;
  /** Sees every proxied answer and returns the Response to send (a tee of its body). */
  recorder?: Recorder;
  /** Makes a recorder when recording is started at run time (`startRecording`); absent: no file folder to record into. */
  makeRecorder?: () => Recorder;
  /** How to reach the target (default: WHATWG fetch; the runtime may give another, e.g. Node's undici pool). */
  transport?: UpstreamTransportFactory;
}

/** Characters the URL parser leaves as they are in a path and query (no `%`, `\\`, `'`, space, non-ASCII). */
const PLAIN_PATH = /^[A-Za-z0-9\-._~!$&()*+,;=:@/?]*$/;

/** The target URL for a request (`rewrite` applied to pathname + query). */
export function upstreamUrl(proxy: ResolvedProxyOptions, ctx: RequestContext): string {
  let path = ctx.pathname + ctx.search;
  if (proxy.rewrite) {
    path = proxy.rewrite(path);
    if (typeof path !== 'string' || !path.startsWith('/')) throw new HttpError(500, PROXY_MESSAGES.badRewrite, { expose: false });
  }
  // The target's origin and path are normalised (options.ts); a path and query of plain
  // characters without dot segments are too, so the concatenation is the URL's href. Anything
  // else (dot segments, `%`, `\`, spaces, non-ASCII, …) goes through the URL parser.
  if (PLAIN_PATH.test(path) && !path.includes('/.')) return proxy.origin + proxy.basePath + path;
  const url = new URL(proxy.origin + proxy.basePath + path);
  // `//host/x` or similar tricks cannot change the authority (it is already terminated), but
  // check anyway: the proxy only ever talks to its target.
  if (url.origin !== proxy.origin) throw new HttpError(400, 'Unsafe path');
  return url.href;
}

/** The 499 / 502 / 504 answer (the cause is logged by the caller, not as an engine failure). */
function failed(ctx: RequestContext, status: 499 | 502 | 504, message: string): Response {
  ctx.answered(PROXY_LAYER);
  return errorResponse(status, message, ctx.pathname, { head: ctx.method === 'HEAD' });
}

export interface ProxyLayer extends Layer {
  /** While recording (`proxy.record`, or started at run time): the recorder (files written, HAR log), else undefined. */
  readonly recorder: Recorder | undefined;
  /**
   * Starts recording every proxied exchange (as `proxy.record` does; its settings, else the
   * defaults) into the mocks folder; the recorder kept from an earlier start is resumed. 409 when
   * there is no file folder to record into.
   */
  startRecording(): Recorder;
  /** Stops recording: exchanges are forwarded without being kept (what was recorded stays). */
  stopRecording(): void;
  /** The recorder of the last recording, also after a stop (its HAR log: what was recorded). */
  readonly lastRecorder: Recorder | undefined;
}

/**
 * The proxy layer for the engine's options (layers.ts): with `proxy.record`, its recorder writes
 * into `vfs` / `fsDir` (a recording needs a file folder: OptionsError otherwise).
 */
export function proxyLayerFor(proxy: ResolvedProxyOptions, logger: Logger, vfs: Vfs | null, fsDir: string | null, transport?: UpstreamTransportFactory): ProxyLayer {
  const make = vfs === null || fsDir === null ? undefined : () => createRecorder({ record: proxy.record ?? resolveRecord(true, 'proxy.record', proxy.headers.map(([name]) => name))!, vfs, fsDir, logger });
  if (proxy.record === null) return createProxyLayer({ proxy, logger, transport, makeRecorder: make });
  if (make === undefined) throw new OptionsError('mock.proxy.record', 'needs a file folder to write to (mock.fsDir, or mock.fs)');
  return createProxyLayer({ proxy, logger, transport, recorder: make(), makeRecorder: make });
}

export function createProxyLayer(options: ProxyLayerOptions): ProxyLayer {
  const { proxy, logger } = options;
  /** The recorder while recording; `kept` survives a stop, so a restart resumes its log. */
  let recorder = options.recorder;
  let kept = recorder;
  const transport = (options.transport ?? fetchTransport)();
  // `Via` (RFC 9110 §7.6.3) names this proxy; a request that comes back carrying it is a loop
  // (the target is this very mock API, or a fetch interceptor — interceptFetch, msw in Node —
  // routed the proxy's own fetch back into the engine): 508, never an endless chain.
  const via = `1.1 mockyard-${Math.random().toString(36).slice(2, 10)}`;
  return {
    name: PROXY_LAYER,
    get recorder() {
      return recorder;
    },
    get lastRecorder() {
      return kept;
    },
    startRecording() {
      if (recorder) return recorder;
      kept ??= options.makeRecorder?.();
      if (!kept) throw new HttpError(409, 'Recording needs a file folder to write to (mock.fsDir, or mock.fs)');
      recorder = kept;
      logger.info(`proxy: recording ${proxy.origin}${proxy.basePath} into the mocks folder`);
      return recorder;
    },
    stopRecording() {
      if (recorder) logger.info('proxy: recording stopped');
      recorder = undefined;
    },
    async handle(ctx) {
      const request = ctx.request;
      const recording = recorder;
      const method = ctx.method;
      if (request.headers.get('via')?.includes(via)) {
        ctx.answered(PROXY_LAYER);
        return errorResponse(508, PROXY_MESSAGES.loop, ctx.pathname, { head: method === 'HEAD' });
      }
      const url = upstreamUrl(proxy, ctx);
      const headers = upstreamRequestHeaders(request, proxy.headers, via);
      // A body an earlier layer read (the OpenAPI validator) is sent from its bytes; else streamed.
      let body: Uint8Array | ReadableStream<Uint8Array> | null = method === 'GET' || method === 'HEAD' ? null : bufferedBody(request) ?? request.body;
      // Recording: the recorder keeps a copy of the body as it goes out (HAR postData, matched on replay).
      let requestBody: Promise<Captured> | undefined;
      if (recording && body) ({ body, captured: requestBody } = recording.tapRequest(body));
      const started = performance.now();
      let answer: UpstreamAnswer;
      try {
        answer = await transport.send({ url, method, headers, body, timeout: proxy.timeout, watchClient: (onGone) => watchClient(request, onGone) });
      } catch (err) {
        if (err instanceof ClientGone) {
          // The exchange was dropped: this answer reaches nobody; logs and the journal show 499
          // (nginx's "client closed request"), not a failure of the target.
          logger.debug(`proxy: ${method} ${url} dropped: the client went away`);
          return failed(ctx, 499, PROXY_MESSAGES.clientGone);
        }
        if (err instanceof UpstreamTimeout) {
          logger.warn(`proxy: ${method} ${url} timed out after ${proxy.timeout} ms`);
          return failed(ctx, 504, PROXY_MESSAGES.timeout(proxy.timeout));
        }
        const cause = (err as { cause?: { code?: string; message?: string } })?.cause;
        const code = (err as { code?: string })?.code;
        logger.warn(`proxy: ${method} ${url} failed: ${cause?.code ?? cause?.message ?? code ?? (err as Error)?.message ?? String(err)}`);
        return failed(ctx, 502, PROXY_MESSAGES.unreachable);
      }
      const withBody = answerHasBody(method, answer.status);
      let response = answer.respond(clientResponseHeaders(answer.headers, answer.decoded), withBody);
      ctx.answered(PROXY_LAYER, `${method} ${url}`);
      if (recording) response = recording.onAnswer({ ctx, url, requestHeaders: headers, response, started, requestBody });
      return response;
    },
    close() {
      transport.close?.();
    },
  };
}
