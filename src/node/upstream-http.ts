/**
 * The proxy's upstream transport on Node (registered in register-runtime.ts; the contract is
 * src/engine/proxy/transport.ts): node:http / node:https with one keep-alive agent per proxy
 * layer, so a proxied request reuses a warm connection and never builds a WHATWG Request,
 * Headers or stream. The target's answer goes to the client as a StreamResponse, which the node
 * host pipes straight into its ServerResponse.
 *
 *   - headers are written as the flat list the layer prepared, with `Host` from the target URL;
 *   - a request body stream with no Content-Length goes out chunked (whatever the method);
 *   - gzip / x-gzip / deflate / br answers are decoded as fetch decodes them (headers.ts
 *     `decodable`), so clients and the recorder see the same bytes with either transport;
 *   - no answer head within `timeout` → the request is destroyed, UpstreamTimeout (the layer's 504);
 *   - a kept-alive connection the target closed just as it was reused (ECONNRESET on a reused
 *     socket, nothing of the answer received) is retried once on a fresh one, for requests
 *     without a body only (the failure mode Node's docs describe for `request.reusedSocket`).
 */
import { Agent as HttpAgent, request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { pipeline, type Readable } from 'node:stream';
import { constants, createBrotliDecompress, createUnzip } from 'node:zlib';
import { decodable, type FlatHeaders } from '../engine/proxy/headers.js';
import { NULL_BODY_STATUS, UpstreamTimeout, type UpstreamAnswer, type UpstreamRequest, type UpstreamTransport } from '../engine/proxy/transport.js';
import { streamResponse } from './stream-response.js';

/** zlib stops at a truncated end instead of failing the whole answer (as undici does). */
const LENIENT = { flush: constants.Z_SYNC_FLUSH, finishFlush: constants.Z_SYNC_FLUSH };

/** The decoding streams for a Content-Encoding, last coding applied first. */
function decoders(contentEncoding: string): NodeJS.ReadWriteStream[] {
  return contentEncoding
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .reverse()
    .map((c) => (c === 'br' ? createBrotliDecompress(LENIENT) : createUnzip(LENIENT))); // gzip or zlib deflate
}

function contentEncodingOf(message: IncomingMessage): string | undefined {
  const v = message.headers['content-encoding'];
  return typeof v === 'string' ? v : undefined;
}

function hasHeader(flat: readonly string[], name: string): boolean {
  for (let i = 0; i < flat.length; i += 2) {
    const n = flat[i]!;
    if (n.length === name.length && n.toLowerCase() === name) return true;
  }
  return false;
}

/** Writes a body stream to the upstream request with backpressure; ends it. */
async function pump(stream: ReadableStream<Uint8Array>, req: ClientRequest): Promise<void> {
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (req.destroyed) return;
      if (!req.write(value)) {
        await new Promise<void>((resolve) => {
          const go = () => {
            req.off('drain', go);
            req.off('close', go);
            resolve();
          };
          req.on('drain', go);
          req.on('close', go);
        });
      }
    }
    req.end();
  } catch (err) {
    req.destroy(err instanceof Error ? err : new Error(String(err)));
  } finally {
    reader.releaseLock();
  }
}

function answerOf(request: UpstreamRequest, message: IncomingMessage): UpstreamAnswer {
  const status = message.statusCode ?? 502;
  const coding = contentEncodingOf(message);
  const hasBody = request.method !== 'HEAD' && !NULL_BODY_STATUS.has(status);
  const decoded = hasBody && decodable(coding);
  return {
    status,
    statusText: message.statusMessage ?? '',
    headers: message.rawHeaders,
    decoded,
    respond(headers: FlatHeaders, withBody: boolean) {
      // A reset mid-body must never be an unhandled 'error': the host sees it through `source`.
      message.on('error', () => {});
      let source: Readable | null = null;
      if (!withBody) message.resume(); // read to the end: the connection goes back to the pool
      else if (!decoded) source = message;
      else {
        const chain = decoders(coding!);
        source = chain[chain.length - 1] as unknown as Readable;
        pipeline([message, ...chain], () => { /* errors reach the last stream, which the host watches */ });
      }
      return streamResponse({ status, statusText: message.statusMessage ?? '', headers, source });
    },
  };
}

/** A node:http(s) transport with its own keep-alive agents (closed with the proxy layer). */
export function nodeHttpTransport(): UpstreamTransport {
  let http: HttpAgent | undefined;
  let https: HttpsAgent | undefined;

  function attempt(request: UpstreamRequest, url: URL, retry: boolean): Promise<UpstreamAnswer> {
    return new Promise<UpstreamAnswer>((resolve, reject) => {
      const secure = url.protocol === 'https:';
      const headers: string[] = ['host', url.host, ...request.headers];
      const body = request.body;
      if (body instanceof ReadableStream && !hasHeader(headers, 'content-length')) headers.push('transfer-encoding', 'chunked');
      const options = {
        hostname: url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname,
        port: url.port || (secure ? 443 : 80),
        method: request.method,
        path: url.pathname + url.search,
        headers,
        agent: secure ? (https ??= new HttpsAgent({ keepAlive: true, scheduling: 'lifo' })) : (http ??= new HttpAgent({ keepAlive: true, scheduling: 'lifo' })),
      };
      const req = secure ? httpsRequest(options) : httpRequest(options);
      let answered = false;
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        req.destroy(new UpstreamTimeout(request.timeout));
      }, request.timeout);
      req.on('response', (message: IncomingMessage) => {
        answered = true;
        clearTimeout(timer);
        resolve(answerOf(request, message));
      });
      req.on('error', (err: NodeJS.ErrnoException) => {
        if (answered) return;
        clearTimeout(timer);
        if (timedOut) return reject(new UpstreamTimeout(request.timeout));
        if (retry && req.reusedSocket && err.code === 'ECONNRESET' && body === null) {
          attempt(request, url, false).then(resolve, reject);
          return;
        }
        reject(err);
      });
      if (body === null) req.end();
      else if (body instanceof Uint8Array) req.end(body);
      else void pump(body, req);
    });
  }

  return {
    send: (request) => attempt(request, new URL(request.url), true),
    close() {
      http?.destroy();
      https?.destroy();
    },
  };
}
