/**
 * Where the recorder writes a proxied answer: the file the files layer's lookup (fs/lookup.ts)
 * finds for the same request next time. Documented in README "Proxy and record".
 *
 *   GET /api/users              (application/json)  → users.json
 *   GET /api/users/1            (application/json)  → users/1.json
 *   GET /api/ or /api           (application/json)  → index.json
 *   GET /api/logo               (image/png)         → logo.png
 *   GET /api/logo.png           (image/png)         → logo.png (the name already has the extension)
 *   GET /api/report             (unknown type)      → report.bin
 *   GET /api/users?page=2&a=1   (application/json)  → users@a=1&page=2.json
 *
 * Query strings: the lookup ignores them (file mode answers queries from the plain file with its
 * own pagination and filters), so an answer to a request WITH a query is kept as a variant next
 * to it: `<name>@<query>.<ext>`, the parameters sorted (by name, then value) and re-encoded with
 * URLSearchParams (so `/` is `%2F`: a variant is always one file name). Variants are for review
 * and for handlers (`res.sendFile`-style use); plain serving answers from the query-less file.
 *
 * The path goes through requestPathToVfs (THE path-safety module): encoding tricks are refused.
 * A JSON answer for a folder path (trailing `/` or the prefix itself) is `index.json`; any other
 * type there has no name the lookup would find, so it is not recorded (null).
 */
import { extensionFor, isJsonMediaType, parseMediaType } from '../../core/media-type.js';
import { requestPathToVfs } from '../../vfs/path.js';

/** Longest file name written (most filesystems allow 255 bytes). */
const MAX_NAME_BYTES = 240;

export interface RecordTarget {
  /** Path below fsDir (normalised, safe). */
  rel: string;
  /** The body is JSON (pretty-printed when written). */
  json: boolean;
}

function canonicalQuery(search: string): string {
  const params = [...new URLSearchParams(search)];
  params.sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0));
  return new URLSearchParams(params).toString();
}

/** The file for an answer, or null when the lookup could not find one for this request. */
export function recordPath(subPath: string, search: string, contentType: string | null): RecordTarget | null {
  const { path, trailingSlash } = requestPathToVfs(subPath);
  const type = parseMediaType(contentType).type;
  const json = isJsonMediaType(type);
  const ext = json ? 'json' : extensionFor(type) ?? 'bin';
  const query = search.length > 1 ? canonicalQuery(search) : '';
  let rel: string;
  if (path === '' || trailingSlash) {
    if (!json) return null;
    rel = path === '' ? `index${query ? `@${query}` : ''}.json` : `${path}/index${query ? `@${query}` : ''}.json`;
  } else {
    const slash = path.lastIndexOf('/');
    const dir = slash === -1 ? '' : path.slice(0, slash + 1);
    let name = path.slice(slash + 1);
    const hasExt = name.toLowerCase().endsWith(`.${ext}`);
    if (hasExt && !query) rel = path;
    else {
      if (hasExt) name = name.slice(0, -(ext.length + 1));
      rel = `${dir}${name}${query ? `@${query}` : ''}.${ext}`;
    }
  }
  const base = rel.slice(rel.lastIndexOf('/') + 1);
  if (new TextEncoder().encode(base).byteLength > MAX_NAME_BYTES) return null;
  return { rel, json };
}
