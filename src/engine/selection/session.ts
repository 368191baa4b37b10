/**
 * Which session a request belongs to: the `X-Mockyard-Session` header, else a cookie of that
 * name (pages that cannot set headers: an <img>, a navigation), else the `__session` query
 * parameter. Read without building a Headers object on hosts that hand over the raw header list
 * (the node host), so requests without a session pay one short scan.
 */
import { kRawHeaders } from '../../core/body.js';
import { HttpError } from '../../core/errors.js';
import { flatGet } from '../../core/flat-headers.js';
import type { RequestContext } from '../context.js';

export const SESSION_HEADER = 'x-mockyard-session';
export const SESSION_COOKIE = 'X-Mockyard-Session';
export const SESSION_PARAM = '__session';

/** What a session id may be: what a header, a cookie and a query value carry unescaped. */
export const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9._:~-]{0,127}$/;

export function checkSessionId(id: string): string {
  if (!SESSION_ID.test(id)) {
    throw new HttpError(400, `Invalid session id ${JSON.stringify(id.slice(0, 140))}: letters, digits, ".", "_", ":", "~", "-"; at most 128; starting with a letter or digit`);
  }
  return id;
}

function cookieValue(header: string): string | undefined {
  if (!header.includes(SESSION_COOKIE) && !header.includes(SESSION_HEADER)) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq === -1) continue;
    const name = part.slice(0, eq).trim();
    if (name === SESSION_COOKIE || name === SESSION_HEADER) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/**
 * The session id a request carries (undefined: none), trimmed, not yet checked: the session set
 * checks it (`checkSessionId`, a 400) when it does not know it, so known ids skip the pattern.
 */
export function requestedSession(ctx: RequestContext): string | undefined {
  const request = ctx.request;
  const raw = (request as unknown as Record<symbol, unknown>)[kRawHeaders] as readonly string[] | undefined;
  let value: string | null | undefined;
  let cookie: string | null | undefined;
  if (raw !== undefined) {
    value = flatGet(raw, SESSION_HEADER);
    if (value === undefined) cookie = flatGet(raw, 'cookie');
  } else {
    const headers = request.headers;
    value = headers.get(SESSION_HEADER);
    if (value === null) cookie = headers.get('cookie');
  }
  if ((value === undefined || value === null) && cookie) value = cookieValue(cookie);
  if ((value === undefined || value === null || value === '') && ctx.search.includes(SESSION_PARAM)) value = ctx.searchParams.get(SESSION_PARAM);
  if (value === undefined || value === null) return undefined;
  const id = value.trim();
  return id === '' ? undefined : id;
}
