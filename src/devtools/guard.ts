/**
 * Who may use the devtools admin surface (`/_mockyard/api/`). THE rule, for every host:
 *   - on by default only where the only client is the developer's machine: a node host listening
 *     on a loopback address (127.0.0.0/8, ::1, localhost) and the browser (the service worker
 *     answers the page's own requests only);
 *   - anywhere else it is off unless the host options say `devtools: { token }`; every admin
 *     request must then carry `Authorization: Bearer <token>` (401 otherwise);
 *   - `devtools: false` turns it off everywhere; `devtools: true` off loopback is refused at
 *     start-up (OptionsError: a token is needed).
 * A token may be given on loopback too (then it is required there as well).
 */
import { check, describe, isPlainObject, OptionsError } from '../core/options.js';

export type DevtoolsOption = boolean | { token?: string };

export interface DevtoolsGuard {
  readonly enabled: boolean;
  /** Required bearer token, or undefined (none needed). */
  readonly token: string | undefined;
}

/** Whether a listen address is loopback only. Unspecified addresses (0.0.0.0, ::) are not. */
export function isLoopbackHost(host: string): boolean {
  const h = host.trim().toLowerCase().replace(/^\[|\]$/g, '');
  return h === 'localhost' || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h) || /^::ffff:127(\.\d{1,3}){3}$/.test(h);
}

export function resolveDevtoolsGuard(option: unknown, local: boolean, name = 'devtools'): DevtoolsGuard {
  if (option === false) return { enabled: false, token: undefined };
  if (option === undefined || option === true) {
    if (local) return { enabled: true, token: undefined };
    if (option === true) throw new OptionsError(name, 'needs a token on a host that is not loopback-only: devtools: { token: "…" } (clients send Authorization: Bearer <token>)');
    return { enabled: false, token: undefined };
  }
  if (!isPlainObject(option)) throw new OptionsError(name, `must be true, false or { token } (got ${describe(option)})`);
  check.knownKeys(option, name, ['token']);
  const token = check.string(option.token, `${name}.token`, undefined, { nonEmpty: true });
  if (token === undefined && !local) throw new OptionsError(`${name}.token`, 'is required on a host that is not loopback-only');
  if (token !== undefined && token.length < 16) throw new OptionsError(`${name}.token`, 'must be at least 16 characters');
  return { enabled: true, token };
}

/** Compares the request's bearer token with `token` in time independent of where they differ. */
export function bearerMatches(authorization: string | null, token: string): boolean {
  if (authorization === null) return false;
  const m = /^Bearer\s+(.+)$/i.exec(authorization.trim());
  if (!m) return false;
  const given = m[1]!;
  let diff = given.length ^ token.length;
  for (let i = 0; i < token.length; i++) diff |= token.charCodeAt(i) ^ (given.charCodeAt(i % Math.max(1, given.length)) || 0);
  return diff === 0;
}
