/**
 * THE content-negotiation rule: which of the offered media types an `Accept` header picks
 * (RFC 9110 §12.5.1). Each offered type takes the q of the most specific range that matches it
 * (`application/json;q=0.8, application/xml` → XML; `application/json;q=0, text/csv` never JSON);
 * the highest q wins, then the more specific range, then `preferred` (mockyard: JSON), then the
 * order offered. No `Accept` (or an empty one) accepts everything.
 */

interface Range {
  type: string;
  sub: string;
  q: number;
  /** 0 for `*\/*`, 1 for `type/*`, 2 for `type/sub`, 3 with parameters other than q. */
  specificity: number;
  params: string[];
}

function parseAccept(header: string): Range[] {
  const out: Range[] = [];
  for (const part of header.split(',')) {
    const [full, ...rawParams] = part.split(';').map((p) => p.trim());
    if (!full) continue;
    const [type = '', sub = ''] = full.toLowerCase().split('/');
    if (!type || !sub) continue;
    let q = 1;
    const params: string[] = [];
    for (const p of rawParams) {
      const [k, v] = p.split('=').map((x) => x.trim());
      if (k?.toLowerCase() === 'q') {
        const n = Number(v);
        q = Number.isFinite(n) ? Math.min(1, Math.max(0, n)) : 1;
      } else if (k) params.push(p.toLowerCase().replace(/\s+/g, ''));
    }
    out.push({ type, sub, q, params, specificity: type === '*' ? 0 : sub === '*' ? 1 : params.length ? 3 : 2 });
  }
  return out;
}

function matches(range: Range, offered: string): boolean {
  const [main, ...rest] = offered.toLowerCase().split(';').map((p) => p.trim());
  const [type, sub] = (main ?? '').split('/');
  if (range.type !== '*' && range.type !== type) return false;
  if (range.sub !== '*' && range.sub !== sub) return false;
  const have = rest.map((p) => p.replace(/\s+/g, ''));
  return range.params.every((p) => have.includes(p));
}

/** The q an Accept header gives a media type (0: excluded). */
function qualityOf(ranges: Range[], offered: string): { q: number; specificity: number } {
  let best: Range | undefined;
  for (const r of ranges) if (matches(r, offered) && (!best || r.specificity > best.specificity)) best = r;
  return best ? { q: best.q, specificity: best.specificity } : { q: 0, specificity: -1 };
}

/**
 * The offered media type the request's `Accept` prefers, or undefined when it accepts none of
 * them. `preferred` breaks ties between equally acceptable types (e.g. JSON ones first).
 */
export function negotiate(accept: string | null | undefined, offered: readonly string[], preferred?: (type: string) => boolean): string | undefined {
  if (offered.length === 0) return undefined;
  const ranges = accept && accept.trim() !== '' ? parseAccept(accept) : [];
  if (ranges.length === 0) return (preferred && offered.find(preferred)) ?? offered[0];
  let best: { type: string; q: number; specificity: number; preferred: boolean } | undefined;
  for (const type of offered) {
    const { q, specificity } = qualityOf(ranges, type);
    if (q <= 0) continue;
    const pref = preferred?.(type) ?? false;
    if (!best || q > best.q || (q === best.q && (specificity > best.specificity || (specificity === best.specificity && pref && !best.preferred)))) best = { type, q, specificity, preferred: pref };
  }
  return best?.type;
}
