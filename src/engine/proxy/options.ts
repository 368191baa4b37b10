/**
 * The `proxy` option (with `proxy.record`), resolved next to the proxy layer that uses it:
 * `{ target, rewrite?, headers?, timeout?, record? }` → ResolvedProxyOptions (engine/options.ts
 * calls resolveProxy once; the page host, src/sw/engines.ts, reads the target to let requests
 * through to it).
 */
import { check, describe, isPlainObject, OptionsError } from '../../core/options.js';
import { isHeaderName, isHeaderValue } from '../../core/header-name.js';
import { ALWAYS_REDACTED } from '../recordings/har.js';

export const DEFAULT_PROXY_TIMEOUT = 30_000;

export interface ResolvedProxyOptions {
  /** The target's origin (`https://staging.example.com`). */
  origin: string;
  /** The target's path without a trailing `/` (`''` or `/v2`). */
  basePath: string;
  rewrite: ((path: string) => string) | undefined;
  /** Extra request headers, names lower-cased. */
  headers: ReadonlyArray<readonly [string, string]>;
  timeout: number;
  /** `proxy.record`, validated (null: not recording). */
  record: ResolvedRecordOptions | null;
}

export const DEFAULT_CAPTURE_LIMIT = 50 * 1024 * 1024;

export interface ResolvedRecordOptions {
  overwrite: boolean;
  /** Header names (lower-case) whose values the HAR log never holds. */
  redact: ReadonlySet<string>;
  /** false: existing files are not served, every request goes to the target (`mockyard record`). */
  serveFiles: boolean;
  /** Largest body kept (file and HAR text), in bytes. */
  captureLimit: number;
}

/** Validates `proxy` (`{ target, rewrite?, headers?, timeout? }`). */
export function resolveProxy(value: unknown, option: string): ResolvedProxyOptions | null {
  if (value === undefined || value === null) return null;
  if (!isPlainObject(value)) throw new OptionsError(option, `must be an object { target, rewrite?, headers?, timeout? } (got ${describe(value)})`);
  check.knownKeys(value, option, ['target', 'rewrite', 'headers', 'timeout', 'record']);
  const raw = check.string(value.target, `${option}.target`, undefined, { nonEmpty: true });
  if (raw === undefined) throw new OptionsError(`${option}.target`, 'is required (an absolute http(s) URL)');
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new OptionsError(`${option}.target`, `must be an absolute http(s) URL (got ${describe(raw)})`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new OptionsError(`${option}.target`, `must be an http: or https: URL (got ${describe(raw)})`);
  if (url.search || url.hash || url.username || url.password) {
    throw new OptionsError(`${option}.target`, `must not carry a query, a fragment or credentials (put credentials in ${option}.headers) (got ${describe(raw)})`);
  }
  const rewrite = check.fn<(path: string) => string>(value.rewrite, `${option}.rewrite`);
  const headerMap = check.object(value.headers, `${option}.headers`) ?? {};
  const headers: Array<readonly [string, string]> = [];
  for (const [name, v] of Object.entries(headerMap)) {
    if (!isHeaderName(name)) throw new OptionsError(`${option}.headers`, `has an invalid header name ${describe(name)}`);
    if (typeof v !== 'string' || !isHeaderValue(v)) throw new OptionsError(`${option}.headers.${name}`, `must be a string a header can carry: no CR, LF or other control character, nothing past U+00FF (got ${describe(v)})`);
    headers.push([name.toLowerCase(), v]);
  }
  const timeout = check.number(value.timeout, `${option}.timeout`, DEFAULT_PROXY_TIMEOUT, { min: 1, max: 2_147_483_647 });
  const record = resolveRecord(value.record, `${option}.record`, headers.map(([name]) => name));
  return { origin: url.origin, basePath: url.pathname.replace(/\/+$/, ''), rewrite, headers, timeout, record };
}

/** `proxy.record` validated; also what a recording started at run time uses (`true`: the defaults). */
export function resolveRecord(value: unknown, option: string, proxyHeaderNames: readonly string[]): ResolvedRecordOptions | null {
  if (value === undefined || value === false || value === null) return null;
  const o = value === true ? {} : value;
  if (!isPlainObject(o)) throw new OptionsError(option, `must be true, false or { overwrite?, redact?, serveFiles?, captureLimit? } (got ${describe(value)})`);
  check.knownKeys(o, option, ['overwrite', 'redact', 'serveFiles', 'captureLimit']);
  const names = check.array<unknown>(o.redact, `${option}.redact`);
  names.forEach((n, i) => {
    if (typeof n !== 'string' || !isHeaderName(n)) throw new OptionsError(`${option}.redact[${i}]`, `must be a header name (got ${describe(n)})`);
  });
  return {
    overwrite: check.boolean(o.overwrite, `${option}.overwrite`, false),
    redact: new Set([...ALWAYS_REDACTED, ...proxyHeaderNames, ...(names as string[]).map((n) => n.toLowerCase())]),
    serveFiles: check.boolean(o.serveFiles, `${option}.serveFiles`, true),
    captureLimit: check.number(o.captureLimit, `${option}.captureLimit`, DEFAULT_CAPTURE_LIMIT, { min: 0, integer: true }),
  };
}
