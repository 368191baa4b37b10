/**
 * The document's contract for a request, before its parameters and body are checked (the
 * `openapi` layer), in Prism's order:
 *   401  a security requirement whose credentials are absent: apiKey (header, query or cookie),
 *        http basic / bearer (the Authorization scheme), oauth2 / openIdConnect (a bearer token).
 *        Presence only (any value is accepted), except Basic credentials, which must be
 *        base64(user:pass) as Prism checks. An operation lists alternatives; one is enough.
 *   415  a body whose Content-Type the operation does not accept, or a body to an operation
 *        documenting no request body;
 *   406  an Accept header that excludes every media type the operation answers with
 *        (core/accept.ts, q-values included).
 * `withheld`: the lower-case names of headers that were sent but whose value a recording withheld
 * (a HAR log's `[redacted]`, engine/recordings/har.ts): `Authorization` then holds any scheme's
 * credentials and `Cookie` any cookie (`mockyard check` reads such logs).
 * `credentialed`: the request is the devtools page's own write (engine/page-write.ts, a mark no
 * client can send): the security requirement counts as met.
 * `invalidStatus` is the status of a request that breaks the schema: 422 when the operation
 * documents 422 and not 400, else 400.
 */
import { negotiate } from '../../core/accept.js';
import { parseMediaType } from '../../core/media-type.js';
import type { Operation, SecurityScheme } from '../openapi-document/operations.js';

export interface Refusal {
  status: 401 | 406 | 415;
  message: string;
  headers?: Record<string, string>;
}

const NONE_WITHHELD: ReadonlySet<string> = new Set();

function cookieHas(header: string | null, name: string): boolean {
  if (!header) return false;
  return header.split(';').some((part) => part.trim().startsWith(`${name}=`));
}

/** `Basic base64(user:pass)`: the token decodes, and holds a colon. */
function basicCredentials(auth: string): boolean {
  if (!auth.toLowerCase().startsWith('basic ')) return false;
  const token = auth.slice(6).trim();
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(token) || token.length % 4 !== 0) return false;
  try {
    return atob(token).includes(':');
  } catch {
    return false;
  }
}

function present(s: SecurityScheme, headers: Headers, query: URLSearchParams, withheld: ReadonlySet<string>): boolean {
  const auth = headers.get('authorization') ?? '';
  if (s.type !== 'apiKey' && withheld.has('authorization')) return true;
  switch (s.type) {
    case 'apiKey':
      if (!s.name) return true;
      if (s.in === 'query') return query.has(s.name);
      if (s.in === 'cookie') return withheld.has('cookie') || cookieHas(headers.get('cookie'), s.name);
      return headers.has(s.name);
    case 'http':
      if (s.scheme === 'basic') return basicCredentials(auth);
      return s.scheme ? auth.toLowerCase().startsWith(`${s.scheme} `) : auth !== '';
    case 'basic': // Swagger 2
      return basicCredentials(auth);
    case 'oauth2':
    case 'openIdConnect':
      return auth.toLowerCase().startsWith('bearer ');
    default:
      return true;
  }
}

function describe(s: SecurityScheme): string {
  if (s.type === 'apiKey') return `the ${s.in ?? 'header'} ${s.in === 'header' || !s.in ? '' : 'parameter '}${s.name ?? ''}`.replace(/\s+/g, ' ').trim();
  if (s.type === 'basic' || (s.type === 'http' && s.scheme === 'basic')) return 'an Authorization: Basic header with base64(user:pass)';
  if (s.type === 'http') return `an Authorization: ${s.scheme === 'bearer' ? 'Bearer' : (s.scheme ?? 'Bearer')} header`;
  return 'an Authorization: Bearer header';
}

/** A wildcard-aware media type match (`*\/*`, `application/*`). */
export function mediaMatches(pattern: string, type: string): boolean {
  const [pt, ps] = pattern.toLowerCase().split('/');
  const [t, sub] = type.toLowerCase().split('/');
  return (pt === '*' || pt === t) && (ps === '*' || ps === sub);
}

const offeredByOp = new WeakMap<Operation, string[]>();

/** The media types an operation answers with (made once per operation). */
function offeredTypes(op: Operation): string[] {
  let types = offeredByOp.get(op);
  if (!types) offeredByOp.set(op, (types = [...new Set(op.responses.flatMap((r) => r.contents.map((c) => parseMediaType(c.type).type)))]));
  return types;
}

/** The 415 of a body sent to an operation that documents none. */
export function unexpectedBody(op: Operation): Refusal {
  return { status: 415, message: `${op.label} takes no request body, and one was sent` };
}

/**
 * `hasBody`: the request carries a body; `certain` false when that is only the host's hint (a
 * page's DELETE may hold an empty stream): the no-request-body rule is then left to the caller,
 * which reads the body (core/body.ts `carriesBody`).
 */
export function contractRefusal(op: Operation, headers: Headers, query: URLSearchParams, hasBody: boolean, certain = true, withheld: ReadonlySet<string> = NONE_WITHHELD, credentialed = false): Refusal | undefined {
  if (!credentialed && op.security.length > 0 && !op.security.some((alt) => alt.every((s) => present(s, headers, query, withheld)))) {
    const first = op.security.find((alt) => alt.length > 0) ?? [];
    const http = first.find((s) => s.type === 'http' || s.type === 'basic' || s.type === 'oauth2' || s.type === 'openIdConnect');
    return {
      status: 401,
      message: `${op.label} needs credentials: ${op.security.map((alt) => alt.map(describe).join(' and ')).join(', or ')}`,
      ...(http ? { headers: { 'WWW-Authenticate': http.scheme === 'basic' || http.type === 'basic' ? 'Basic realm="mockyard"' : 'Bearer' } } : {}),
    };
  }
  if (hasBody && certain && !op.body) return unexpectedBody(op);
  const contentType = headers.get('content-type');
  if (hasBody && op.body && op.body.contents.length > 0 && contentType) {
    const type = parseMediaType(contentType).type;
    if (!op.body.contents.some((c) => mediaMatches(parseMediaType(c.type).type, type))) {
      return { status: 415, message: `${op.label} does not accept ${type} (it takes ${op.body.contents.map((c) => c.type).join(', ')})` };
    }
  }
  const accept = headers.get('accept');
  if (accept && accept.trim() !== '' && accept !== '*/*') {
    const offered = offeredTypes(op);
    if (offered.length > 0 && !offered.some((o) => o.includes('*')) && negotiate(accept, offered) === undefined) {
      return { status: 406, message: `${op.label} answers ${offered.join(', ')}, which Accept: ${accept} excludes` };
    }
  }
  return undefined;
}

export function invalidStatus(op: Operation | undefined): 400 | 422 {
  if (!op) return 400;
  const codes = new Set(op.responses.map((r) => r.code));
  return codes.has('422') && !codes.has('400') ? 422 : 400;
}
