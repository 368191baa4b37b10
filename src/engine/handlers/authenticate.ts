/**
 * The `authenticate` option of REST and WebSocket handlers:
 *   - `true`: an `Authorization` header must be present (any non-empty value);
 *   - a header name (`'X-Api-Key'`): that header must be present;
 *   - a predicate `(req) => boolean | Promise<boolean>`: must return true.
 * Failure → HttpError 401. A predicate that throws fails with its own error.
 */
import { HttpError } from '../../core/errors.js';
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
