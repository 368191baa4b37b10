/**
 * What errorMiddlewares receive and what the default error response is built from: always an
 * HttpError with `status` and `message`.
 *   - HttpError, or anything with a numeric 4xx/5xx `status` / `statusCode`: kept (Express style);
 *   - anything else: a 500 whose `message` is the original one (for error middlewares and the
 *     log) and whose `cause` is the original value; the client sees the generic 500 message.
 */
import { HttpError, toHttpError } from '../../core/errors.js';

export type HandlerHttpError = HttpError;

function hasHttpStatus(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const e = err as { status?: unknown; statusCode?: unknown };
  const s = typeof e.status === 'number' ? e.status : e.statusCode;
  return typeof s === 'number' && Number.isInteger(s) && s >= 400 && s <= 599;
}

export function toHandlerError(err: unknown): HttpError {
  if (err instanceof HttpError) return err;
  if (hasHttpStatus(err)) return toHttpError(err);
  const message = err instanceof Error && err.message ? err.message : typeof err === 'string' && err ? err : 'Internal Server Error';
  return new HttpError(500, message, { cause: err, expose: false });
}
