/**
 * Which headers cross the proxy (RFC 9110 §7.6.1): hop-by-hop headers, and every header the
 * `Connection` header names, belong to one connection and are dropped in both directions.
 *
 * Requests: `Host` is not copied (fetch sets it from the target URL: the Host is rewritten),
 * `X-Forwarded-Host` / `X-Forwarded-Proto` tell the target what the client asked for (unless the
 * client already sent them: an outer proxy's values win), configured `proxy.headers` replace the
 * client's of the same name. `Expect` is dropped (fetch cannot do `100-continue`).
 *
 * Responses: fetch has already decoded gzip / deflate / br bodies, so `Content-Encoding` and
 * `Content-Length` (of the encoded body) are dropped when it did; the host re-frames the body.
 */
const HOP_BY_HOP = new Set([
  'connection', 'keep-alive', 'proxy-connection', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer',
  'transfer-encoding', 'upgrade',
]);
const REQUEST_ONLY_DROPPED = new Set(['host', 'expect']);
/** The codings WHATWG fetch (undici, browsers) decodes on its own. */
const DECODED_BY_FETCH = new Set(['gzip', 'x-gzip', 'deflate', 'br']);

function connectionNamed(headers: Headers): Set<string> | undefined {
  const value = headers.get('connection');
  if (!value) return undefined;
  return new Set(value.split(',').map((t) => t.trim().toLowerCase()).filter(Boolean));
}

/** The headers sent to the target for a client request. */
export function upstreamRequestHeaders(request: Request, extra: ReadonlyArray<readonly [string, string]>): Headers {
  const incoming = request.headers;
  const named = connectionNamed(incoming);
  const out = new Headers();
  for (const [name, value] of incoming) {
    if (HOP_BY_HOP.has(name) || REQUEST_ONLY_DROPPED.has(name) || named?.has(name)) continue;
    out.append(name, value);
  }
  const url = new URL(request.url);
  if (!out.has('x-forwarded-host')) out.set('x-forwarded-host', incoming.get('host') ?? url.host);
  if (!out.has('x-forwarded-proto')) out.set('x-forwarded-proto', url.protocol.slice(0, -1));
  for (const [name, value] of extra) out.set(name, value);
  return out;
}

/** Whether fetch decoded the body of an answer with these headers (its Content-Encoding is stale). */
export function decodedByFetch(headers: Headers): boolean {
  const coding = headers.get('content-encoding');
  if (!coding) return false;
  return coding.split(',').every((c) => DECODED_BY_FETCH.has(c.trim().toLowerCase()));
}

/** The headers sent back to the client for the target's answer. */
export function clientResponseHeaders(upstream: Headers, bodyDecoded: boolean): Headers {
  const named = connectionNamed(upstream);
  const out = new Headers();
  for (const [name, value] of upstream) {
    if (HOP_BY_HOP.has(name) || named?.has(name)) continue;
    if (bodyDecoded && (name === 'content-encoding' || name === 'content-length')) continue;
    out.append(name, value);
  }
  return out;
}
