/**
 * One node:http request through a list of engines: build the lazy Request, ask each engine in
 * order, write the first answer. Shared by `serve()` (unhandled → JSON 404) and the connect/Vite
 * middleware (unhandled → `next()`).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { underPrefix, type Engine } from '../core/engine.js';
import { isHttpError, responseForError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import { createNodeRequest, pathOf } from './request.js';
import { writeResponse } from './write-response.js';
import { connectionFaultOf } from '../core/connection-fault.js';
import { writeConnectionFault } from './connection-fault.js';

/** Whether one of `prefixes` covers `path` (core/engine.ts underPrefix). */
function claims(prefixes: readonly string[], path: string): boolean {
  for (let i = 0; i < prefixes.length; i++) if (underPrefix(path, prefixes[i]!)) return true;
  return false;
}

/** The first engine answer that is not `undefined`. */
export async function dispatch(engines: readonly Engine[], request: Request): Promise<Response | undefined> {
  for (let i = 0; i < engines.length; i++) {
    const response = await engines[i]!.handle(request);
    if (response !== undefined) return response;
  }
  return undefined;
}

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

export function createNodeHandler(engines: readonly Engine[], options: NodeHandlerOptions): NodeHandler {
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
    // Only engines whose prefixes cover the path are asked (Engine.prefixes is the routing
    // contract): a mock API request never pays for a collector call that would say "not mine".
    const path = pathOf(url);
    let first: Engine | undefined;
    let several: Engine[] | undefined;
    for (let i = 0; i < engines.length; i++) {
      const e = engines[i]!;
      if (!claims(e.prefixes, path)) continue;
      if (first === undefined) first = e;
      else (several ??= [first]).push(e);
    }
    const request = createNodeRequest(req, res, fallbackHost(), url);
    // An answer the engine has at once (a cached file) is written without a promise round trip.
    const cached = several === undefined && first?.handleCached !== undefined ? first.handleCached(request) : undefined;
    if (cached !== undefined) return answer(req, res, request, cached);
    let pending: Promise<Response | undefined>;
    try {
      pending = several ? dispatch(several, request) : first ? first.handle(request) : Promise.resolve(undefined);
    } catch (err) {
      fail(req, res, err);
      return;
    }
    pending.then(
      (response) => answer(req, res, request, response),
      (err: unknown) => fail(req, res, err),
    );
  };
}
