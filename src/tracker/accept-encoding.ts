/**
 * Whether a client accepts a gzip response. The spec has the collector always gzip its reads;
 * we honour HTTP as well: no Accept-Encoding header means any coding is fine (RFC 9110 §12.5.3),
 * so gzip; a header that names gzip (or `*`) with q > 0 gets gzip; a header that excludes it
 * (`identity`, `br`, `gzip;q=0`) gets plain JSON.
 */
export function acceptsGzip(header: string | null): boolean {
  if (header === null) return true;
  let star: boolean | undefined;
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.split(';');
    const coding = name.trim().toLowerCase();
    let q = 1;
    for (const p of params) {
      const m = /^\s*q\s*=\s*([0-9.]+)\s*$/i.exec(p);
      if (m) q = Number(m[1]);
    }
    if (coding === 'gzip' || coding === 'x-gzip') return q > 0;
    if (coding === '*') star = q > 0;
  }
  return star === true;
}
