/**
 * json-server's rewrite rules (`--routes routes.json`, option `routes`), read as json-server 0.17
 * reads them (express-urlrewrite over path-to-regexp 1.x):
 *
 *   "/api/*": "/$1"                          `*` captures anything (`$1`, `$2`… by position)
 *   "/:resource/:id/show": "/:resource/:id"  `:name` captures one segment (`:name` in the target)
 *   "/posts/:category": "/posts?category=:category"   a target may carry a query
 *   "/articles?id=:id": "/posts/:id"         a rule may match the query too (`?` is literal;
 *   "/articles\\?_id=:id": "/posts/:id"      escaped as path-to-regexp escapes it, as json-server's READMEs also show)
 *
 * A rule matches the whole path below the prefix with its query (`/posts/1?x=1`), ignoring case,
 * with an optional trailing slash. Rules apply in order, each to the result of the ones before
 * (so `/api/posts/1/show` → `/posts/1/show` → `/posts/1`), as json-server chains them.
 */
import { describe, OptionsError } from '../../core/options.js';

export interface RewriteRule {
  readonly from: string;
  readonly to: string;
  readonly re: RegExp;
  /** Capture group (1-based) of each `:name`. */
  readonly names: ReadonlyMap<string, number>;
}

const SPECIAL = /[.+?^${}()|[\]\\=!]/;

export function compileRoute(from: string, option: string): RegExp & { names: Map<string, number> } {
  let source = '^';
  const names = new Map<string, number>();
  let group = 0;
  for (let i = 0; i < from.length; ) {
    const c = from[i]!;
    if (c === ':' && /[A-Za-z0-9_]/.test(from[i + 1] ?? '')) {
      let j = i + 1;
      while (j < from.length && /[A-Za-z0-9_]/.test(from[j]!)) j++;
      names.set(from.slice(i + 1, j), ++group);
      source += '([^/]+?)';
      i = j;
    } else if (c === '\\' && i + 1 < from.length) {
      // path-to-regexp's escape: `\\?` in routes.json (`"/articles\\?_id=:id"`) is a literal `?`.
      const next = from[i + 1]!;
      source += SPECIAL.test(next) ? `\\${next}` : next;
      i += 2;
    } else if (c === '*') {
      group++;
      source += '(.*)';
      i++;
    } else {
      source += SPECIAL.test(c) ? `\\${c}` : c;
      i++;
    }
  }
  source += '(?:/(?=$))?$';
  let re: RegExp;
  try {
    re = new RegExp(source, 'i');
  } catch {
    throw new OptionsError(option, `cannot be read as a json-server route (got ${describe(from)})`);
  }
  return Object.assign(re, { names });
}

/** `url` (path below the prefix + query) after every rule, or undefined when none matched. */
export function applyRoutes(rules: readonly RewriteRule[], url: string): string | undefined {
  let out = url;
  let changed = false;
  for (const rule of rules) {
    const m = rule.re.exec(out);
    if (!m) continue;
    changed = true;
    out = rule.to.replace(/\$(\d+)|:(\w+)/g, (whole, n: string | undefined, name: string | undefined) => {
      if (name !== undefined) {
        const g = rule.names.get(name);
        return g === undefined ? whole : (m[g] ?? '');
      }
      return m[Number(n)] ?? '';
    });
  }
  return changed ? out : undefined;
}
