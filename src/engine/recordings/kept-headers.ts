/**
 * THE rule for which answer headers a recording keeps and a replay sends: the ones that carry
 * meaning for a client. Used by the recorder (what goes into `<name>@recorded.json`) and by both
 * replay layers (what a HAR entry or a hand-edited recording answers with).
 *
 * Kept: `Content-Type`, `X-Total-Count`, `Link`, `Location`, the caching headers
 * (`Cache-Control`, `ETag`, `Last-Modified`, `Expires`, `Vary`, `Age`), `Content-Disposition`,
 * `Content-Language`, `Content-Location`, `WWW-Authenticate`, `Retry-After`, `Allow`,
 * `Accept-Ranges`, and every custom `X-*` header.
 * Never: cookies and credentials (`Set-Cookie`, `Cookie`, `Authorization`, `Proxy-*`), the names
 * the recording is told to redact and, when recording, names that say they carry a credential
 * (`X-Auth-Token`, `X-CSRF-Token`: har.ts isRedacted), hop-by-hop headers, and the framing the host recomputes
 * (`Content-Length`, `Content-Encoding`: bodies are stored decoded), `X-Forwarded-*`.
 */
import { isHeaderName } from '../../core/header-name.js';
import { isRedacted } from './har.js';

const KEPT = new Set([
  'content-type', 'x-total-count', 'link', 'location', 'cache-control', 'etag', 'last-modified', 'expires', 'vary', 'age',
  'content-disposition', 'content-language', 'content-location', 'www-authenticate', 'retry-after', 'allow', 'accept-ranges',
]);

/** Whether an answer header (lower-case name) is recorded and replayed. */
export function keepsHeader(lowerName: string, redact?: ReadonlySet<string>): boolean {
  if (redact !== undefined && isRedacted(lowerName, redact)) return false;
  if (KEPT.has(lowerName)) return true;
  return lowerName.startsWith('x-') && !lowerName.startsWith('x-forwarded-') && isHeaderName(lowerName);
}

/** The kept headers of an answer, names lower-case, in their order (repeated names joined with `, `). */
export function keptHeaders(headers: Iterable<readonly [string, string]>, redact?: ReadonlySet<string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [rawName, value] of headers) {
    const name = rawName.toLowerCase();
    if (!keepsHeader(name, redact)) continue;
    out[name] = name in out ? `${out[name]}, ${value}` : value;
  }
  return out;
}
