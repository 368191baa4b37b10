/**
 * THE walk over a document's path table: the first route (concrete segments before templates)
 * whose pattern matches and that has the method (HEAD falls back to GET) answers, with its path
 * parameters percent-decoded (kept raw when not decodable); a path matched only under other
 * methods is a 405 naming them; anything else a 404. The table is built once per document
 * (routes.ts, document-loader.ts) for the request validator and the backend.
 */
export interface PathRoute<Op> {
  regex: RegExp;
  names: string[];
  /** Template segment count (fewer = more concrete), the table's order. */
  templated: number;
  ops: Map<string, Op>;
}

export type PathMatch<Op> =
  | { operation: Op; params: Record<string, string> }
  | { status: 404 }
  | { status: 405; allow: string[] };

export function matchPath<Op>(routes: readonly PathRoute<Op>[], method: string, subPath: string): PathMatch<Op> {
  const path = subPath === '' ? '/' : subPath;
  let allowed: PathRoute<Op> | undefined;
  for (const r of routes) {
    const m = r.regex.exec(path);
    if (!m) continue;
    const op = r.ops.get(method) ?? (method === 'HEAD' ? r.ops.get('GET') : undefined);
    if (!op) {
      allowed ??= r;
      continue;
    }
    const params: Record<string, string> = {};
    r.names.forEach((n, i) => {
      const raw = m[i + 1]!;
      try {
        params[n] = decodeURIComponent(raw);
      } catch {
        params[n] = raw;
      }
    });
    return { operation: op, params };
  }
  if (allowed) return { status: 405, allow: [...allowed.ops.keys()] };
  return { status: 404 };
}
