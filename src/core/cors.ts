/**
 * CORS: the one rule both engines (the collector and the mock API) answer browsers with.
 *
 * Options (`cors: { origins, credentials, maxAge }`, or `false` for none):
 *  - `origins`: `'*'` (any origin), a list of exact origins (`https://app.example.com`) and
 *    RegExps, or a function deciding per origin.
 *  - `credentials`: send `Access-Control-Allow-Credentials: true`. The allowed origin is then
 *    always reflected (with `Vary: Origin`), never `*` — browsers refuse `*` with credentials,
 *    and `'*'` + credentials from any site is refused at start-up where the engine says so
 *    (`allowAnyWithCredentials: false`, the mock API).
 *  - `maxAge`: `Access-Control-Max-Age` of preflight answers, seconds.
 *
 * An origin that is not allowed gets no CORS headers on actual responses and a 403 on its
 * preflight (the browser then blocks the request, as it would without CORS).
 */
import type { FastHeaders } from './fast-response.js';
import { check, OptionsError } from './options.js';

export interface CorsOptions {
  origins?: '*' | ReadonlyArray<string | RegExp> | ((origin: string) => boolean);
  credentials?: boolean;
  maxAge?: number;
}

export interface CorsPolicy {
  allow(origin: string): boolean;
  /** `origins: '*'` without credentials: `Access-Control-Allow-Origin: *`. */
  readonly wildcard: boolean;
  readonly credentials: boolean;
  readonly maxAge: number;
  /** `Access-Control-Allow-Methods` of preflights. */
  readonly methods: string;
  /** `Access-Control-Allow-Headers`; `undefined` reflects the preflight's requested headers. */
  readonly headers: string | undefined;
  /** `Access-Control-Expose-Headers` of actual responses, if any. */
  readonly expose: string | undefined;
  /** The headers of an actual response for this request Origin (frozen, shared; see corsHeaders). */
  actual(origin: string | null): FastHeaders;
}

export interface CorsDefaults {
  credentials: boolean;
  maxAge: number;
  methods: string;
  headers?: string;
  expose?: string;
  /**
   * Also expose every header (`*`): a page on another origin then reads a handler's or a
   * recording's own headers (`ETag`, `X-Request-Id`) as a same-origin page would. Browsers read
   * `*` as a wildcard on requests sent without credentials (the fetch spec decides by the
   * request's credentials mode, whatever the policy allows); `expose` stays listed for a request
   * with credentials (where `*` is taken literally) and for browsers that predate the wildcard.
   */
  exposeAll?: boolean;
  /** Whether `origins: '*'` may be combined with credentials (reflecting every origin). */
  allowAnyWithCredentials: boolean;
}

function originMatcher(origins: unknown, name: string): ((origin: string) => boolean) | '*' {
  if (origins === undefined || origins === '*') return '*';
  if (typeof origins === 'function') return (o) => (origins as (o: string) => unknown)(o) === true;
  const list = check.array<unknown>(origins, name);
  const exact = new Set<string>();
  const patterns: RegExp[] = [];
  for (const [i, o] of list.entries()) {
    if (o instanceof RegExp) patterns.push(o);
    else if (typeof o === 'string' && o !== '' && o !== '*') exact.add(o.replace(/\/+$/, '').toLowerCase());
    else throw new OptionsError(`${name}[${i}]`, `must be an origin string such as "https://app.example.com" or a RegExp (got ${JSON.stringify(o)})`);
  }
  return (origin) => exact.has(origin.toLowerCase()) || patterns.some((p) => { p.lastIndex = 0; return p.test(origin); });
}

/**
 * Validates a `cors` option (`name` e.g. `mock.cors`): `undefined` → `absent` (the engine's
 * default: `{}` on, `false` off), `false` → off, an object → the policy.
 */
export function resolveCors(input: unknown, name: string, defaults: CorsDefaults, absent: CorsOptions | false): CorsPolicy | undefined {
  const value = input === undefined ? absent : input;
  if (value === false) return undefined;
  if (value === true) return resolveCors({}, name, defaults, false);
  const c = check.object(value, name) ?? {};
  check.knownKeys(c, name, ['origins', 'credentials', 'maxAge']);
  const maxAge = check.number(c.maxAge, `${name}.maxAge`, defaults.maxAge, { min: 0, integer: true });
  const credentials = check.boolean(c.credentials, `${name}.credentials`, defaults.credentials);
  const matcher = originMatcher(c.origins, `${name}.origins`);
  if (matcher === '*' && credentials && !defaults.allowAnyWithCredentials) {
    throw new OptionsError(`${name}.credentials`, 'cannot be true with origins "*": list the origins that may send credentials');
  }
  const policy = {
    allow: matcher === '*' ? () => true : matcher,
    wildcard: matcher === '*' && !credentials,
    credentials,
    maxAge,
    methods: defaults.methods,
    headers: defaults.headers,
    expose: defaults.exposeAll ? (defaults.expose ? `*, ${defaults.expose}` : '*') : defaults.expose,
    cacheable: typeof c.origins !== 'function',
  };
  return { ...policy, actual: actualHeaders(policy) };
}

const VARY_ONLY: FastHeaders = Object.freeze({ Vary: 'Origin' }) as FastHeaders;
const NONE: FastHeaders = Object.freeze({}) as FastHeaders;
/** Allowed origins whose header sets are kept (beyond it, sets are built per request). */
const ORIGIN_CACHE = 64;

/**
 * The `actual()` of a policy: header sets are frozen and reused (one per allowed origin, up to
 * ORIGIN_CACHE of them), so a host merging them onto a cached answer does it once
 * (fast-response.ts mergeHeaders) and the hot path allocates nothing for CORS.
 */
function actualHeaders(p: Omit<CorsPolicy, 'actual'> & { cacheable: boolean }): (origin: string | null) => FastHeaders {
  if (p.wildcard) {
    const any = Object.freeze(p.expose ? { 'Access-Control-Allow-Origin': '*', 'Access-Control-Expose-Headers': p.expose } : { 'Access-Control-Allow-Origin': '*' }) as FastHeaders;
    return () => any;
  }
  const known = new Map<string, FastHeaders>();
  // The origin asked last and its set (a page asks from one origin): compared, not hashed.
  let lastOrigin: string | undefined;
  let lastSet: FastHeaders = VARY_ONLY;
  return (origin) => {
    if (origin === null) return VARY_ONLY;
    if (origin === lastOrigin) return lastSet;
    const hit = known.get(origin);
    if (hit !== undefined) {
      lastOrigin = origin;
      lastSet = hit;
      return hit;
    }
    if (!p.allow(origin)) return VARY_ONLY;
    const h: FastHeaders = { 'Access-Control-Allow-Origin': origin, Vary: 'Origin' };
    if (p.credentials) h['Access-Control-Allow-Credentials'] = 'true';
    if (p.expose) h['Access-Control-Expose-Headers'] = p.expose;
    Object.freeze(h);
    // An origin function may answer differently later; only lists and patterns are cached.
    if (p.cacheable && known.size < ORIGIN_CACHE) known.set(origin, h);
    return h;
  };
}

/** Headers for an actual (non-preflight) response; `{}` / `Vary` only when nothing is allowed. */
export function corsHeaders(cors: CorsPolicy | undefined, origin: string | null): FastHeaders {
  return cors ? cors.actual(origin) : NONE;
}

/** A header list as browsers send it in `Access-Control-Request-Headers` (tokens and commas). */
const HEADER_LIST = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+(\s*,\s*[!#$%&'*+\-.^_`|~0-9A-Za-z]+)*$/;

/**
 * The answer to a preflight: headers for a 204, or `undefined` when the origin is not allowed
 * (the caller answers 403).
 */
export function preflightHeaders(cors: CorsPolicy | undefined, request: Request, origin: string): FastHeaders | undefined {
  if (!cors || !cors.allow(origin)) return undefined;
  const headers: FastHeaders = {
    'Access-Control-Allow-Origin': cors.wildcard ? '*' : origin,
    'Access-Control-Allow-Methods': cors.methods,
    'Access-Control-Max-Age': String(cors.maxAge),
  };
  if (cors.credentials) headers['Access-Control-Allow-Credentials'] = 'true';
  let allowHeaders = cors.headers;
  const vary = cors.wildcard ? [] : ['Origin'];
  if (allowHeaders === undefined) {
    // Reflected: the answer depends on the request's list.
    vary.push('Access-Control-Request-Headers');
    const requested = request.headers.get('access-control-request-headers')?.trim();
    if (requested && HEADER_LIST.test(requested)) allowHeaders = requested;
  }
  if (allowHeaders) headers['Access-Control-Allow-Headers'] = allowHeaders;
  if (vary.length > 0) headers.Vary = vary.join(', ');
  // Chrome's Private Network Access: a public page talking to a server on localhost.
  if (request.headers.get('access-control-request-private-network') === 'true') headers['Access-Control-Allow-Private-Network'] = 'true';
  return headers;
}

/** Whether a request is a CORS preflight (OPTIONS with Origin and Access-Control-Request-Method). */
export function isPreflight(request: Request, method: string): boolean {
  return method === 'OPTIONS' && request.headers.get('origin') !== null && request.headers.get('access-control-request-method') !== null;
}
