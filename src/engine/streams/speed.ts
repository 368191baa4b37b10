/**
 * The speed a request asks a stream to play at: the `X-Mockyard-Speed` header, else the
 * `__speed` query parameter (per request, so an `EventSource`, which cannot set headers, can ask
 * too). A number ≥ 0 divides every delay: `2` twice as fast, `0.5` half as fast, `0` at once.
 * Anything else is a 400. Undefined = not asked (the option or 1 applies).
 */
import { HttpError } from '../../core/errors.js';
import { isSpeed } from './iterable-body.js';

export const SPEED_HEADER = 'x-mockyard-speed';
export const SPEED_PARAM = '__speed';

function parse(raw: string, where: string): number {
  const value = raw.trim() === '' ? NaN : Number(raw);
  if (!isSpeed(value)) throw new HttpError(400, `${where} must be a number ≥ 0 (0 plays a stream at once; got ${JSON.stringify(raw)})`);
  return value;
}

export function requestedSpeed(request: { readonly headers: Headers; readonly url?: string }): number | undefined {
  const header = request.headers.get(SPEED_HEADER);
  if (header !== null) return parse(header, 'X-Mockyard-Speed');
  const url = request.url;
  if (url === undefined || !url.includes(SPEED_PARAM)) return undefined;
  const query = url.indexOf('?');
  if (query === -1) return undefined;
  const value = new URLSearchParams(url.slice(query + 1)).get(SPEED_PARAM);
  return value === null ? undefined : parse(value, SPEED_PARAM);
}
