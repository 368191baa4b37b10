/**
 * Who may use the devtools (`/_mockyard/`: the page and the admin API below it). THE admin access
 * rule, for every host; the admin engine (admin-engine.ts) asks `refusal()` before any route.
 *
 * Whether it is on:
 *   - on by default only where the only client is the developer's machine: a node host listening
 *     on a loopback address (127.0.0.0/8, ::1, localhost), the Vite plugin on a loopback dev
 *     server, and the browser (the service worker answers the page's own requests only);
 *   - anywhere else it is off unless the host options say `devtools: { token }`; every admin
 *     request must then carry `Authorization: Bearer <token>` (401 otherwise);
 *   - `devtools: false` turns it off everywhere; `devtools: true` off loopback is refused at
 *     start-up (OptionsError: a token is needed).
 * A token may be given on loopback too (then it is required there as well).
 *
 * Which requests it refuses (403, the JSON error body naming the option), as Vite
 * (`server.allowedHosts`, CVE-2025-24010) and webpack-dev-server (CVE-2025-30359/30360) do:
 *   - Host: on a node host (serve, the CLI, middleware, the Vite plugin) every devtools request
 *     whose Host is not one of the server's names — loopback names (`localhost`, `*.localhost`),
 *     IP addresses (DNS rebinding needs a name), the listen address, the server's own allowed
 *     hosts (Vite's `server.allowedHosts`) and `devtools.allowedHosts` (`true`: any). A page that
 *     rebinds its own name to 127.0.0.1 reads nothing.
 *   - Origin: a request that changes state (any method but GET, HEAD, OPTIONS) from another
 *     origin — an `Origin` that is not the server's own (the Host it was sent to), nor in
 *     `devtools.allowedOrigins`, nor listed by `mock.cors` (an explicit list: `'*'` lets pages read
 *     the mocks, not reset them), or `Sec-Fetch-Site: cross-site` — simple requests included
 *     (a `text/plain` POST needs no preflight, so only this check stops its effect). A request
 *     with the right bearer token passes (a token is never sent by a browser on its own).
 */
import { check, describe, isPlainObject, OptionsError } from '../core/options.js';
import { HttpError } from '../core/errors.js';

export interface DevtoolsAccessOptions {
  /** The bearer token every admin request must carry (at least 16 characters). */
  token?: string;
  /** Host names (besides loopback names, IP addresses and the listen address) the devtools answer; `.example.com` also takes its subdomains; `true`: any. */
  allowedHosts?: readonly string[] | true;
  /** Origins (`https://app.example.com`) whose pages may change state (reset, scenario, sessions). */
  allowedOrigins?: readonly string[];
}

export type DevtoolsOption = boolean | DevtoolsAccessOptions;

/** Where a node host is reached: its listen address and the server's own allowed hosts (Vite's). */
export interface ServerNames {
  /** The address or name the server listens on (`127.0.0.1`, `0.0.0.0`, `my-box.local`). */
  listen?: string;
  /** The server's own host rule (Vite's `server.allowedHosts`): names, or `true` for any. */
  allowed?: readonly string[] | true;
  /** Where the server's rule is set, named in the 403 (default `devtools.allowedHosts`). */
  option?: string;
}

export interface DevtoolsGuard {
  readonly enabled: boolean;
  /** Required bearer token, or undefined (none needed). */
  readonly token: string | undefined;
  /** The Host rule (node hosts), or undefined (the page: no Host to check). */
  readonly hosts: HostRule | undefined;
  /** Origins allowed to change state besides the server's own. */
  readonly origins: readonly string[];
}

interface HostRule {
  any: boolean;
  names: readonly string[];
  option: string;
}

/** Whether a listen address is loopback only. Unspecified addresses (0.0.0.0, ::) are not. */
export function isLoopbackHost(host: string): boolean {
  const h = host.trim().toLowerCase().replace(/^\[|\]$/g, '');
  return h === 'localhost' || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h) || /^::ffff:127(\.\d{1,3}){3}$/.test(h);
}

function hostList(value: unknown, name: string): readonly string[] | true | undefined {
  if (value === undefined || value === true) return value;
  const list = check.array<unknown>(value, name);
  for (const h of list) {
    if (typeof h !== 'string' || h === '' || /[\s/:@]/.test(h.replace(/^\[.*\]$/, ''))) throw new OptionsError(name, `must hold host names such as "my-box.local" or ".example.com" (got ${describe(h)})`);
  }
  return list.map((h) => (h as string).toLowerCase());
}

function originList(value: unknown, name: string): readonly string[] {
  const list = check.array<unknown>(value, name);
  return list.map((o) => {
    let parsed: URL | undefined;
    try {
      parsed = typeof o === 'string' ? new URL(o) : undefined;
    } catch {
      parsed = undefined;
    }
    if (!parsed || parsed.origin === 'null' || parsed.origin !== (o as string).replace(/\/$/, '').toLowerCase()) throw new OptionsError(name, `must hold origins such as "https://app.example.com" (got ${describe(o)})`);
    return parsed.origin;
  });
}

/**
 * The guard from the host's `devtools` option. `local`: only this machine can reach the host.
 * `server`: where a node host is reached (its Host rule); leave it out where there is no Host to
 * check (the page).
 */
export function resolveDevtoolsGuard(option: unknown, local: boolean, name = 'devtools', server?: ServerNames): DevtoolsGuard {
  const hostsFrom = (allowed: readonly string[] | true | undefined): HostRule | undefined => {
    if (!server) return undefined;
    const own = server.allowed;
    const names = [...(server.listen ? [server.listen.toLowerCase().replace(/^\[|\]$/g, '')] : []), ...(Array.isArray(own) ? own : []), ...(Array.isArray(allowed) ? allowed : [])];
    return { any: own === true || allowed === true, names, option: server.option ?? `${name}.allowedHosts` };
  };
  const off: DevtoolsGuard = { enabled: false, token: undefined, hosts: undefined, origins: [] };
  if (option === false) return off;
  if (option === undefined || option === true) {
    if (local) return { enabled: true, token: undefined, hosts: hostsFrom(undefined), origins: [] };
    if (option === true) throw new OptionsError(name, 'needs a token on a host that is not loopback-only: devtools: { token: "…" } (clients send Authorization: Bearer <token>)');
    return off;
  }
  if (!isPlainObject(option)) throw new OptionsError(name, `must be true, false or { token, allowedHosts, allowedOrigins } (got ${describe(option)})`);
  check.knownKeys(option, name, ['token', 'allowedHosts', 'allowedOrigins']);
  const token = check.string(option.token, `${name}.token`, undefined, { nonEmpty: true });
  const allowedHosts = hostList(option.allowedHosts, `${name}.allowedHosts`);
  const origins = originList(option.allowedOrigins, `${name}.allowedOrigins`);
  if (token === undefined && !local) throw new OptionsError(`${name}.token`, 'is required on a host that is not loopback-only');
  if (token !== undefined && token.length < 16) throw new OptionsError(`${name}.token`, 'must be at least 16 characters');
  return { enabled: true, token, hosts: hostsFrom(allowedHosts), origins };
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

const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;

/** The host name of a Host header value (`a.example:5173` → `a.example`, `[::1]:3000` → `::1`). */
function hostName(host: string): string {
  const h = host.trim().toLowerCase();
  if (h.startsWith('[')) return h.slice(1, h.indexOf(']') === -1 ? undefined : h.indexOf(']'));
  const colon = h.lastIndexOf(':');
  return (colon === -1 ? h : h.slice(0, colon)).replace(/\.$/, '');
}

function hostAllowed(rule: HostRule, host: string): boolean {
  if (rule.any) return true;
  const name = hostName(host);
  if (name === 'localhost' || name.endsWith('.localhost') || IPV4.test(name) || name.includes(':')) return true;
  return rule.names.some((n) => (n.startsWith('.') ? name === n.slice(1) || name.endsWith(n) : name === n));
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Extra origins a host allows (the mock API's CORS list, never its wildcard). */
export type OriginAllowed = (origin: string) => boolean;

/**
 * Why a devtools request is refused (an HttpError to answer with), or undefined when it may pass.
 * `api`: the request is for the admin API (the page's shell and bundle hold no data: Host only).
 */
export function refusal(guard: DevtoolsGuard, request: Request, api: boolean, corsAllows?: OriginAllowed): HttpError | undefined {
  const url = new URL(request.url);
  const host = request.headers.get('host') ?? url.host;
  if (guard.hosts && !hostAllowed(guard.hosts, host)) {
    return new HttpError(403, `Host "${hostName(host)}" is not one of this server's names: the devtools answer only loopback names, IP addresses, the listen address and the hosts in ${guard.hosts.option} (add "${hostName(host)}" there if it is yours)`, { details: { option: guard.hosts.option } });
  }
  if (!api) return undefined;
  const token = guard.token;
  if (token !== undefined) {
    if (bearerMatches(request.headers.get('authorization'), token)) return undefined;
    return new HttpError(401, 'The devtools admin API needs Authorization: Bearer <token> (the token of devtools: { token })', { headers: { 'WWW-Authenticate': 'Bearer realm="mockyard devtools"' }, details: { option: 'devtools.token' } });
  }
  if (SAFE_METHODS.has(request.method.toUpperCase())) return undefined;
  const origin = request.headers.get('origin');
  const allowed = (o: string) => guard.origins.includes(o.toLowerCase()) || corsAllows?.(o) === true;
  if (origin !== null) {
    let own = false;
    try {
      own = origin !== 'null' && new URL(origin).host === host.trim().toLowerCase();
    } catch {
      own = false;
    }
    if (own || allowed(origin)) return undefined;
    return new HttpError(403, `Origin ${origin} may not change the devtools' state: only the server's own pages and the origins in devtools.allowedOrigins may (or requests with devtools.token's Authorization: Bearer)`, { details: { option: 'devtools.allowedOrigins' } });
  }
  if (request.headers.get('sec-fetch-site')?.toLowerCase() === 'cross-site') {
    return new HttpError(403, "A cross-site request (Sec-Fetch-Site: cross-site) may not change the devtools' state: only the server's own pages and the origins in devtools.allowedOrigins may (or requests with devtools.token's Authorization: Bearer)", { details: { option: 'devtools.allowedOrigins' } });
  }
  return undefined;
}
