/**
 * Requests Node's HTTP parser refuses before any handler sees them (the server's `clientError`
 * event) get the one JSON error body too, instead of Node's bare status line:
 *
 *   HPE_HEADER_OVERFLOW            431  the request line (URL) plus headers exceed `maxHeaderSize`
 *                                       (Node's default: 16 KiB; `serve({ maxHeaderSize })`)
 *   HPE_CHUNK_EXTENSIONS_OVERFLOW  413  chunk extensions too large
 *   ERR_HTTP_REQUEST_TIMEOUT       408  the request did not arrive within `requestTimeout`
 *   any other parse error          400  bad request line, method, URL, header, chunk, … (the
 *                                       message carries llhttp's reason: "Invalid header token")
 *
 * "Where the socket allows": when the response of an earlier (pipelined) request on the
 * connection is still being written, the answer waits until it is done (a status line in the
 * middle of it would corrupt it); when the socket is no longer writable, the connection is just
 * dropped, as Node does. The answer carries `Connection: close`, and the connection closes by
 * lingering (lingering-close.ts), so a client still sending its oversized headers reads the
 * answer instead of a reset.
 */
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { errorResponse } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import { endAndLinger, isLingering } from './lingering-close.js';
import { rawFastResponseBytes } from './raw-response.js';

type ParserError = Error & { code?: string; reason?: string; rawPacket?: Buffer; bytesParsed?: number };

/** Longest path echoed in the error body (the URL itself may be what was too long). */
const MAX_PATH = 256;

/** Where llhttp's own reason (e.g. "Invalid header token") says too little. */
const REASONS: Record<string, string> = {
  HPE_INVALID_CONSTANT: 'malformed request line (an unencoded space in the URL?)',
};

/** The request path from the raw bytes, when they start with a request line (for the error body). */
function pathFromRaw(raw: Buffer | undefined): string {
  if (!raw) return '';
  const head = raw.subarray(0, 64 + MAX_PATH * 4).toString('latin1');
  const m = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+ ([^\s?#]*)/.exec(head);
  if (!m || !m[1]) return '';
  return m[1].length > MAX_PATH ? `${m[1].slice(0, MAX_PATH)}…` : m[1];
}

/** Status and message for a parser error. */
export function describeClientError(err: ParserError, maxHeaderSize: number): { status: number; message: string } {
  switch (err.code) {
    case 'HPE_HEADER_OVERFLOW':
      return { status: 431, message: `Request line and headers are too large: together they may take at most ${maxHeaderSize} bytes (URLs included)` };
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return { status: 413, message: 'Chunk extensions are too large' };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, message: 'The request did not arrive in time' };
    default: {
      const reason = (err.code && REASONS[err.code]) ?? (typeof err.reason === 'string' && err.reason ? err.reason : 'malformed request');
      return { status: 400, message: `Bad request: ${reason}` };
    }
  }
}

/** The response of an earlier request still being written on `socket`, if any (Node's own slot). */
function inFlight(socket: Socket): ServerResponse | undefined {
  const res = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
  return res && !res.writableFinished ? res : undefined;
}

/** A `clientError` listener for `server` (see the top of the file). */
export function createClientErrorHandler(options: { logger: Logger; maxHeaderSize: number }): (err: Error, socket: Socket) => void {
  const { logger, maxHeaderSize } = options;
  return (err: ParserError, socket: Socket) => {
    // More input after an answer (the parser stays in its error state): count it, nothing else.
    if (isLingering(socket)) {
      endAndLinger(socket, undefined, err.rawPacket?.length ?? 0);
      return;
    }
    if (err.code === 'ECONNRESET' || socket.destroyed) return;
    const { status, message } = describeClientError(err, maxHeaderSize);
    logger.debug(`refused a request the HTTP parser could not read: ${status} ${message} (${err.code ?? err.message})`);
    const answer = rawFastResponseBytes(errorResponse(status, message, pathFromRaw(err.rawPacket)));
    const send = () => {
      if (!socket.writable || inFlight(socket) !== undefined) socket.destroy();
      else endAndLinger(socket, answer);
    };
    // A pipelined request before the bad one is still being answered: its response goes first.
    const pending = inFlight(socket);
    if (pending === undefined) send();
    else pending.once('close', send);
  };
}
