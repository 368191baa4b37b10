/**
 * The `authenticate` option of REST and WebSocket handlers:
 *   - `true`: an `Authorization` header must be present (any non-empty value);
 *   - a header name (`'X-Api-Key'`): that header must be present;
 *   - a predicate `(req) => boolean | Promise<boolean>`: must return true.
 * Failure → HttpError 401. A predicate that throws fails with its own error.
 */
import { HttpError } from '../../core/errors.js';
import { OptionsError, describe } from '../../core/options.js';
import type { AuthenticateOption, HandlerRequest } from '../types.js';

export async function checkAuthenticate(option: AuthenticateOption | undefined, req: HandlerRequest): Promise<void> {
  if (option === undefined || option === false) return;
  if (option === true || typeof option === 'string') {
    const name = option === true ? 'Authorization' : option;
    if (!req.headers.get(name)) throw new HttpError(401, `Missing ${name} header`, option === true ? { headers: { 'WWW-Authenticate': 'Bearer' } } : {});
    return;
  }
  if (!(await option(req))) throw new HttpError(401, 'Unauthorized');
}

/** Checks the option at start-up (`option` names it in the OptionsError). */
export function validateAuthenticate(value: unknown, option: string): AuthenticateOption | undefined {
  if (value === undefined || typeof value === 'boolean' || typeof value === 'function') return value as AuthenticateOption | undefined;
  if (typeof value === 'string' && value.trim() !== '' && /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(value)) return value;
  throw new OptionsError(option, `must be true, a header name or a function (got ${describe(value)})`);
}
