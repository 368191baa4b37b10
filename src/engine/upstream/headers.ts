/**
 * Which headers cross the proxy (RFC 9110 §7.6.1): hop-by-hop headers, and every header the
 * `Connection` header names, belong to one connection and are dropped in both directions.
 *
 * Requests: `Host` is not copied (the transport sets it from the target URL: the Host is
 * rewritten), `X-Forwarded-Host` / `X-Forwarded-Proto` tell the target what the client asked for
 * (unless the client already sent them: an outer proxy's values win), configured `proxy.headers`
 * replace the client's of the same name, `Via` gets this proxy appended (loop detection, layer.ts).
 * `Expect` is dropped (neither transport does `100-continue`).
 *
 * Responses: when the transport decoded a gzip / deflate / br body (both do, transport.ts),
 * `Content-Encoding` and `Content-Length` (of the encoded body) are dropped; the host re-frames
 * the body.
 *
 * Headers travel as flat `[name, value, name, value, …]` lists (core/flat-headers.ts: what
 * node:http and undici read and write without building a Headers object), so a proxied request
 * on Node never builds a Headers object at all.
 */
import { kRawHeaders } from '../../core/body.js';
import { flatHeaders, type FlatHeaders } from '../../core/flat-headers.js';

const HOP_BY_HOP = new Set([
  'connection', 'keep-alive', 'proxy-connection', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer',
  'transfer-encoding', 'upgrade',
]);
const REQUEST_ONLY_DROPPED = new Set(['host', 'expect', 'via']);
/** The content codings both transports remove from an answer's body (what WHATWG fetch decodes). */
const DECODABLE = new Set(['gzip', 'x-gzip', 'deflate', 'br']);

/** The header names a `Connection` header in the list names, lower case. */
function connectionNamed(flat: readonly string[]): Set<string> | undefined {
  let named: Set<string> | undefined;
  for (let i = 0; i < flat.length; i += 2) {
    const n = flat[i]!;
    if (n.length !== 10 || n.toLowerCase() !== 'connection') continue;
    for (const token of flat[i + 1]!.split(',')) {
      const t = token.trim().toLowerCase();
      if (t) (named ??= new Set()).add(t);
    }
  }
  return named;
}

/** The client request's headers as a flat list: the host's raw list when it has one. */
function requestHeaderList(request: Request): readonly string[] {
  const raw = (request as unknown as Record<symbol, unknown>)[kRawHeaders];
  return Array.isArray(raw) ? (raw as string[]) : flatHeaders(request.headers);
}

/**
 * The headers sent to the target for a client request. `extra`: `proxy.headers` (lower-case
 * names); `via`: this proxy's `Via` entry, appended to the client's.
 */
export function upstreamRequestHeaders(request: Request, extra: ReadonlyArray<readonly [string, string]>, via: string): FlatHeaders {
  const incoming = requestHeaderList(request);
  const named = connectionNamed(incoming);
  const out: FlatHeaders = [];
  let forwardedHost = false;
  let forwardedProto = false;
  let host: string | undefined;
  let incomingVia: string | undefined;
  for (let i = 0; i < incoming.length; i += 2) {
    const name = incoming[i]!.toLowerCase();
    const value = incoming[i + 1]!;
    if (name === 'host') host ??= value;
    else if (name === 'via') incomingVia = incomingVia === undefined ? value : `${incomingVia}, ${value}`;
    if (HOP_BY_HOP.has(name) || REQUEST_ONLY_DROPPED.has(name) || named?.has(name)) continue;
    if (extra.length > 0 && extra.some(([n]) => n === name)) continue;
    if (name === 'x-forwarded-host') forwardedHost = true;
    else if (name === 'x-forwarded-proto') forwardedProto = true;
    out.push(name, value);
  }
  if (!forwardedHost) out.push('x-forwarded-host', host ?? new URL(request.url).host);
  if (!forwardedProto) out.push('x-forwarded-proto', request.url.startsWith('https:') ? 'https' : 'http');
  for (const [name, value] of extra) out.push(name, value);
  out.push('via', incomingVia === undefined ? via : `${incomingVia}, ${via}`);
  return out;
}

/** Whether a transport removes the content codings of an answer with this `Content-Encoding`. */
export function decodable(contentEncoding: string | null | undefined): boolean {
  if (!contentEncoding) return false;
  return contentEncoding.split(',').every((c) => DECODABLE.has(c.trim().toLowerCase()));
}

/** The headers sent back to the client for the target's answer (`bodyDecoded`: the transport decoded it). */
export function clientResponseHeaders(upstream: readonly string[], bodyDecoded: boolean): FlatHeaders {
  const named = connectionNamed(upstream);
  const out: FlatHeaders = [];
  for (let i = 0; i < upstream.length; i += 2) {
    const name = upstream[i]!.toLowerCase();
    if (HOP_BY_HOP.has(name) || named?.has(name)) continue;
    if (bodyDecoded && (name === 'content-encoding' || name === 'content-length')) continue;
    out.push(upstream[i]!, upstream[i + 1]!);
  }
  return out;
}
