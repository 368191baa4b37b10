/**
 * One node:http request through a host (src/host/create-host.ts): build the lazy Request, take
 * the host's answer (its one dispatch loop), write it. An answer an engine has at once (a cached
 * file) is written without a promise round trip. Shared by `serve()` (unhandled → fallback, JSON
 * 404) and the connect/Vite middleware (unhandled → `next()`).
 *
 * Fast paths:
 * The node host passes a lazy Request (prototype chain = Request.prototype) that only builds
 * Headers / body streams on demand; it provides `request[kReadBody](limit)` (reads the
 * IncomingMessage directly, 413 past the limit) and `request[kHasBody]` (true when a GET/HEAD
 * carries a body, which platform Requests cannot express). Engines call `readBody()` / `hasBody()`
 * from core/body.ts and never know which host they run in. Responses built as `FastResponse` are
 * written by the node host straight from `fastState(response)` (status, headers object, bytes).
 * When the engine offers `handleCached` (the mock API: its pipeline's synchronous walk, e.g. a
 * GET/HEAD of a cached, fresh file no handler claims, or a handler that answers synchronously), the
 * node host asks it first and writes that answer without a promise round trip; `handle` gives the
 * same answer, so other hosts need not care — except that after `undefined` they must call `handle`
 * with the same Request (a handler started on the fast path finishes there). Node's http server
 * itself pays for a response written after the request event (≈ 10 µs per request measured with a
 * bare server), which is why a synchronous answer matters.
 *
 * Edges of the node host:
 * A body the host stops reading (413, a cancelled stream) is abandoned through one function
 * (`abandonBody`, src/node/lingering-close.ts): the answer carries `Connection: close` and the
 * connection closes by lingering (half-close, read and discard within time/idle/byte bounds), so the
 * client reads the answer instead of a reset. Requests Node's parser refuses (URL + headers over
 * `maxHeaderSize`, malformed) get the JSON error body from `serve()`'s `clientError` listener
 * (client-error.ts); raw answers on a socket are serialised by raw-response.ts (also refused
 * WebSocket handshakes). Embedded upgrade handling (middleware, Vite): an upgrade no engine claims is
 * a 404 under an engine's prefix (unless the engine says `forwardsUnmatched`), else left to the
 * server's other 'upgrade' listeners, or a 404 when there are none (upgrade.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isHttpError, responseForError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import type { Host } from '../host/create-host.js';
import { createNodeRequest, pathOf } from './request.js';
import { writeResponse } from './write-response.js';
import { connectionFaultOf } from '../core/connection-fault.js';
import { writeConnectionFault } from './connection-fault.js';

export interface NodeHandlerOptions {
  /** Host for request URLs when the Host header is missing or odd (`127.0.0.1:3000`). */
  fallbackHost: () => string;
  logger: Logger;
  /** Called when no engine answers. */
  unhandled(req: IncomingMessage, res: ServerResponse, request: Request): void;
  /** The request target to use (default `req.url`; middleware passes `originalUrl`). */
  target?(req: IncomingMessage): string;
}

export type NodeHandler = (req: IncomingMessage, res: ServerResponse) => void;

export function createNodeHandler(host: Host, options: NodeHandlerOptions): NodeHandler {
  const { logger, unhandled, fallbackHost, target } = options;
  const fail = (req: IncomingMessage, res: ServerResponse, err: unknown) => {
    if (isHttpError(err) && err.status < 500) logger.debug(`${req.method} ${req.url} → ${err.status} ${err.message}`);
    else logger.error(`${req.method} ${req.url} failed: ${err instanceof Error ? err.stack ?? err.message : String(err)}`);
    if (res.headersSent) {
      res.destroy();
      return;
    }
    const path = pathOf(target ? target(req) : req.url ?? '/');
    try {
      void writeResponse(responseForError(err, path, req.method === 'HEAD'), req, res);
    } catch {
      res.destroy();
    }
  };
  /** Writes an engine's answer (`undefined`: nobody's, the host's `unhandled`). */
  const answer = (req: IncomingMessage, res: ServerResponse, request: Request, response: Response | undefined) => {
    try {
      if (response === undefined) return unhandled(req, res, request);
      const fault = connectionFaultOf(request);
      if (fault !== undefined) return void writeConnectionFault(fault, response, req, res).catch((err: unknown) => fail(req, res, err));
      const written = writeResponse(response, req, res);
      if (written) written.catch((err: unknown) => fail(req, res, err));
    } catch (err) {
      // e.g. an invalid header value or status: Node refuses it before anything is sent
      fail(req, res, err);
    }
  };
  return (req, res) => {
    const url = target ? target(req) : req.url ?? '/';
    const request = createNodeRequest(req, res, fallbackHost(), url);
    let answered: Response | undefined | Promise<Response | undefined>;
    try {
      answered = host.answer(request, pathOf(url));
    } catch (err) {
      fail(req, res, err);
      return;
    }
    if (answered === undefined || !isPromise(answered)) return answer(req, res, request, answered);
    answered.then(
      (response) => answer(req, res, request, response),
      (err: unknown) => fail(req, res, err),
    );
  };
}

const isPromise = (value: object): value is Promise<Response | undefined> => typeof (value as { then?: unknown }).then === 'function';
