/**
 * The collector's CORS, on the shared rule of src/core/cors.ts: any origin by default,
 * an allowed Origin reflected with `Access-Control-Allow-Credentials: true` and `Vary: Origin` —
 * never `*`, which makes browsers drop credentialed beacons. A disallowed origin gets no CORS
 * headers (its preflight a 403).
 */
import { resolveCors, type CorsPolicy } from '../core/cors.js';

export { corsHeaders, preflightHeaders } from '../core/cors.js';

export const ALLOWED_METHODS = 'GET, HEAD, POST, OPTIONS';
export const ALLOWED_HEADERS = 'Content-Type, Content-Encoding, X-Tracker-Key';

/** The collector's `cors` option (default on for every origin, credentials on, maxAge 600). */
export function resolveCollectorCors(input: unknown, name: string): CorsPolicy | undefined {
  return resolveCors(input, name, { credentials: true, maxAge: 600, methods: ALLOWED_METHODS, headers: ALLOWED_HEADERS, allowAnyWithCredentials: true }, {});
}
