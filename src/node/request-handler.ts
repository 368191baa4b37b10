/**
 * One node:http request through a host (src/host/create-host.ts): build the lazy Request, take
 * the host's answer (its one dispatch loop), write it. An answer an engine has at once (a cached
 * file) is written without a promise round trip. Shared by `serve()` (unhandled → fallback, JSON
 * 404) and the connect/Vite middleware (unhandled → `next()`).
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
