/**
 * The one place that decides what an error looks like on the wire.
 *
 * Every 4xx/5xx that either engine or any host produces is built here, so clients see one shape:
 *   {"status":404,"error":"NOT_FOUND","message":"…","path":"/api/…","timestamp":"…"}
 * served as `application/json; charset=utf-8`. Messages never carry absolute filesystem paths:
 * unexpected errors become a generic 500 message (the detail goes to the log, not the client).
 */
import { FastResponse } from './fast-response.js';

const CODES: Record<number, string> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  406: 'NOT_ACCEPTABLE',
  408: 'REQUEST_TIMEOUT',
  409: 'CONFLICT',
  411: 'LENGTH_REQUIRED',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  422: 'UNPROCESSABLE_ENTITY',
  429: 'TOO_MANY_REQUESTS',
  431: 'REQUEST_HEADER_FIELDS_TOO_LARGE',
  499: 'CLIENT_CLOSED_REQUEST', // nginx's code: the client went away first (what logs and the journal show; nobody receives it)
  500: 'INTERNAL_SERVER_ERROR',
  501: 'NOT_IMPLEMENTED',
  502: 'BAD_GATEWAY',
  503: 'SERVICE_UNAVAILABLE',
  504: 'GATEWAY_TIMEOUT',
  508: 'LOOP_DETECTED',
};

/** Symbolic code for a status ("NOT_FOUND" for 404); unknown statuses fall back to their class. */
export function errorCode(status: number): string {
  return CODES[status] ?? (status >= 500 ? 'INTERNAL_SERVER_ERROR' : 'BAD_REQUEST');
}

export interface HttpErrorOptions {
  /** Extra response headers (e.g. `Allow`, `WWW-Authenticate`). */
  headers?: Record<string, string>;
  /** Extra JSON fields merged into the error body (e.g. `{ index: 3 }`). */
  details?: Record<string, unknown>;
  cause?: unknown;
  /**
   * Whether the message may reach the client. Default true: whoever throws an HttpError chose
   * its message. Errors adopted from elsewhere (`toHttpError`) expose only 4xx messages.
   */
  expose?: boolean;
}

/** An error that knows its HTTP status. Throw it anywhere inside an engine. */
export class HttpError extends Error {
  readonly status: number;
  readonly code: string;
  readonly headers?: Record<string, string>;
  readonly details?: Record<string, unknown>;
  /** Marks errors whose message is safe to show to the client. */
  readonly expose: boolean;

  constructor(status: number, message: string, options: HttpErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'HttpError';
    this.status = status;
    this.code = errorCode(status);
    this.headers = options.headers;
    this.details = options.details;
    this.expose = options.expose ?? true;
  }
}

export function isHttpError(err: unknown): err is HttpError {
  return err instanceof HttpError;
}

/** Default messages for statuses whose spec row gives none. */
export const DEFAULT_MESSAGES: Record<number, string> = {
  404: 'Not Found',
  500: 'Internal Server Error',
  504: 'Gateway Timeout',
};

/**
 * Normalises anything thrown into an HttpError. Errors carrying a numeric `status`/`statusCode`
 * in the 4xx/5xx range keep it (Express convention); anything else is a 500 whose message is
 * generic, so no internal detail (paths, stack) leaks to the client.
 */
export function toHttpError(err: unknown): HttpError {
  if (err instanceof HttpError) return err;
  if (err && typeof err === 'object') {
    const e = err as { status?: unknown; statusCode?: unknown; message?: unknown; expose?: unknown };
    const status = typeof e.status === 'number' ? e.status : typeof e.statusCode === 'number' ? e.statusCode : NaN;
    if (Number.isInteger(status) && status >= 400 && status <= 599) {
      const message = typeof e.message === 'string' && e.message ? e.message : DEFAULT_MESSAGES[status] ?? errorCode(status);
      return new HttpError(status, message, { cause: err, expose: status < 500 });
    }
  }
  return new HttpError(500, DEFAULT_MESSAGES[500]!, { cause: err, expose: false });
}

export interface ErrorBody {
  status: number;
  error: string;
  message: string;
  path: string;
  timestamp: string;
  [extra: string]: unknown;
}

export function errorBody(status: number, message: string, path: string, details?: Record<string, unknown>): ErrorBody {
  return {
    ...details,
    status,
    error: errorCode(status),
    message,
    path,
    timestamp: new Date().toISOString(),
  };
}

/** Builds the JSON error response for a status and message. `path` is the request's URL path. */
export function errorResponse(
  status: number,
  message: string,
  path: string,
  options: { headers?: Record<string, string>; details?: Record<string, unknown>; head?: boolean } = {},
): Response {
  const body = JSON.stringify(errorBody(status, message, path, options.details));
  return FastResponse.json(body, status, options.headers, options.head === true);
}

/** The response for any thrown value. */
export function responseForError(err: unknown, path: string, head = false): Response {
  const e = toHttpError(err);
  const message = e.expose ? e.message : DEFAULT_MESSAGES[e.status] ?? 'Internal Server Error';
  return errorResponse(e.status, message, path, { headers: e.headers, details: e.details, head });
}
