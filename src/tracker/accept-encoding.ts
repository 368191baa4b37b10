/**
 * Whether a client accepts a gzip response: a header that names gzip (or `*`) with q > 0. The
 * spec has the collector gzip its reads, and the dashboard's browser always sends
 * `Accept-Encoding: gzip`; a client that sends no Accept-Encoding (plain `curl`, a script) gets
 * identity, as nginx and Express's compression answer it, so it never prints binary (RFC 9110
 * §12.5.3 lets a server pick any coding then; identity is the one every client reads). A header
 * that excludes gzip (`identity`, `br`, `gzip;q=0`) gets plain JSON.
 */
export function acceptsGzip(header: string | null): boolean {
  if (header === null) return false;
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
