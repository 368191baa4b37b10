/**
 * Response → ServerResponse.
 *
 * - FastResponse (engines' hot path): `writeHead(status, headers)` + `end(bytes)` straight from
 *   `fastState()`; the native Response object is never created.
 * - StreamResponse (the proxy's node:http answers, stream-response.ts): its Node stream piped.
 * - Native Response: headers copied (every Set-Cookie kept), body streamed with backpressure
 *   (waits for 'drain'); the client going away cancels the body stream; an error while streaming
 *   destroys the socket (the client sees a truncated response, never a silently short one). An
 *   error before the first byte becomes a JSON 500.
 * - HEAD and null-body statuses (204, 304, …) never write a body; Content-Length is kept.
 * - When the request body was abandoned (413, cancelled), `Connection: close` is added so the
 *   unread rest of the body is never parsed as a next request.
 */
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { fastState, NULL_BODY_STATUS } from '../core/fast-response.js';
import { responseForError } from '../core/errors.js';
import { kAbandoned } from './lingering-close.js';
import { pathOf } from './request.js';
import { streamState, type StreamState } from './stream-response.js';


type Incoming = IncomingMessage & { [kAbandoned]?: boolean };

/** Writes `response` to `res`. Resolves once the response is fully written (or abandoned). */
export function writeResponse(response: Response, req: IncomingMessage, res: ServerResponse): void | Promise<void> {
  if (res.destroyed || req.socket.destroyed) return dropAnswer(response); // the client is gone
  const state = fastState(response);
  if (state !== undefined) {
    let headers: OutgoingHttpHeaders = state.headers;
    if ((req as Incoming)[kAbandoned] === true) headers = { ...headers, Connection: 'close' };
    if (state.statusText) res.writeHead(state.status, state.statusText, headers);
    else res.writeHead(state.status, headers);
    const body = state.body;
    if (body === null || req.method === 'HEAD') res.end();
    else res.end(body);
    return;
  }
  const streamed = streamState(response);
  if (streamed !== undefined) return writeStreamed(streamed, req as Incoming, res);
  return writeNative(response, req as Incoming, res);
}

/** An answer for a client that went away (e.g. during a delay): nothing is written; its body is released. */
function dropAnswer(response: Response): void {
  const streamed = streamState(response);
  if (streamed !== undefined) streamed.source?.destroy();
  else if (fastState(response) === undefined) response.body?.cancel().catch(() => {});
}

/**
 * A StreamResponse (the proxy's node:http answers): the Node stream is piped into `res` (Node's
 * backpressure); an error while streaming destroys the socket (a truncated answer, never a
 * silently short one); the client going away destroys the source.
 */
function writeStreamed(state: StreamState, req: Incoming, res: ServerResponse): void {
  const headers = req[kAbandoned] === true ? [...state.headers, 'connection', 'close'] : state.headers;
  if (state.statusText) res.writeHead(state.status, state.statusText, headers);
  else res.writeHead(state.status, headers);
  const source = state.source;
  if (source === null || req.method === 'HEAD' || NULL_BODY_STATUS.has(state.status)) {
    source?.destroy();
    res.end();
    return;
  }
  source.once('error', (err) => res.destroy(err));
  res.once('close', () => {
    if (!res.writableFinished) source.destroy();
  });
  source.pipe(res);
}

function copyHeaders(response: Response, res: ServerResponse, abandoned: boolean): void {
  const cookies = response.headers.getSetCookie();
  for (const [name, value] of response.headers) {
    if (name === 'set-cookie') continue;
    res.setHeader(name, value);
  }
  if (cookies.length > 0) res.setHeader('set-cookie', cookies);
  if (abandoned) res.setHeader('connection', 'close');
}

async function writeNative(response: Response, req: Incoming, res: ServerResponse): Promise<void> {
  const status = response.status;
  const abandoned = req[kAbandoned] === true;
  const body = response.body;
  if (body === null || req.method === 'HEAD' || NULL_BODY_STATUS.has(status)) {
    if (body) body.cancel().catch(() => {});
    copyHeaders(response, res, abandoned);
    res.writeHead(status, response.statusText || undefined);
    res.end();
    return;
  }

  const reader = body.getReader();
  let closed = false;
  const onClose = () => {
    if (res.writableFinished) return;
    closed = true;
    reader.cancel().catch(() => {});
  };
  res.once('close', onClose);
  try {
    // Read the first chunk before committing the status: a body that fails at once still gets
    // a proper error response.
    let first: ReadableStreamReadResult<Uint8Array>;
    try {
      first = await reader.read();
    } catch (err) {
      if (closed || res.headersSent) throw err;
      const error = responseForError(err, pathOf(req.url ?? '/'), false);
      return await writeResponse(error, req, res);
    }
    if (closed) return;
    copyHeaders(response, res, abandoned);
    res.writeHead(status, response.statusText || undefined);
    if (first.done) {
      res.end();
      return;
    }
    let chunk: Uint8Array | undefined = first.value;
    while (chunk !== undefined) {
      if (closed) return;
      if (!res.write(chunk)) await drained(res);
      if (closed) return;
      const next = await reader.read();
      chunk = next.done ? undefined : next.value;
    }
    res.end();
  } catch (err) {
    if (!closed) res.destroy(err instanceof Error ? err : new Error(String(err)));
  } finally {
    res.off('close', onClose);
    try { reader.releaseLock(); } catch { /* a read was still pending */ }
  }
}

function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}
