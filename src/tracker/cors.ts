/**
 * CORS for cross-origin trackers and dashboards (issue 4): an allowed Origin is reflected with
 * `Access-Control-Allow-Credentials: true` and `Vary: Origin` — never `*`, which makes browsers
 * drop credentialed beacons. A disallowed origin gets no CORS headers (its preflight a 403).
 */
import type { ResolvedCollectorOptions } from './options.js';

export const ALLOWED_METHODS = 'GET, HEAD, POST, OPTIONS';
export const ALLOWED_HEADERS = 'Content-Type, Content-Encoding, X-Tracker-Key';

type Cors = ResolvedCollectorOptions['cors'];

/** Headers for an actual (non-preflight) response. */
export function corsHeaders(cors: Cors, origin: string | null): Record<string, string> {
  if (!cors) return {};
  if (origin === null || !cors.allow(origin)) return { Vary: 'Origin' };
  return { 'Access-Control-Allow-Origin': origin, 'Access-Control-Allow-Credentials': 'true', Vary: 'Origin' };
}

/**
 * The answer to a preflight: headers for a 204, or `undefined` when the origin is not allowed
 * (the caller answers 403).
 */
export function preflightHeaders(cors: Cors, request: Request, origin: string): Record<string, string> | undefined {
  if (!cors || !cors.allow(origin)) return undefined;
  const headers: Record<string, string> = {
    'Access-Control-Allow-Origin': origin,
    'Access-Control-Allow-Credentials': 'true',
    'Access-Control-Allow-Methods': ALLOWED_METHODS,
    'Access-Control-Allow-Headers': ALLOWED_HEADERS,
    'Access-Control-Max-Age': String(cors.maxAge),
    Vary: 'Origin',
  };
  // Chrome's Private Network Access: a public page talking to a collector on localhost.
  if (request.headers.get('access-control-request-private-network') === 'true') headers['Access-Control-Allow-Private-Network'] = 'true';
  return headers;
}
