/**
 * Where the recorder writes a proxied answer: the file the files layer's lookup (file-cache/lookup.ts)
 * finds for the same request next time. Documented in docs/proxy.md.
 *
 *   GET /api/users              (application/json)  → users.json
 *   GET /api/users/1            (application/json)  → users/1.json
 *   GET /api/ or /api           (application/json)  → index.json
 *   GET /api/logo               (image/png)         → logo.png
 *   GET /api/logo.png           (image/png)         → logo.png (the name already has the extension)
 *   GET /api/report             (unknown type)      → report.bin
 *   GET /api/users?page=2&a=1   (application/json)  → users@a=1&page=2.json
 *
 * Query strings: an answer to a request WITH a query is kept as a query variant next to the
 * plain file, `<name>@<query>.<ext>` (the naming is file-cache/query-variant.ts: parameters sorted and
 * re-encoded), which file mode serves for that exact query string.
 *
 * The path goes through requestPathToVfs (THE path-safety module): encoding tricks are refused.
 * A JSON answer for a folder path (trailing `/` or the prefix itself) is `index.json`; any other
 * type there has no name the lookup would find, so it is not recorded (null).
 */
import { extensionFor, isJsonMediaType, parseMediaType } from '../../core/media-type.js';
import { requestPathToVfs } from '../../vfs/path.js';
import { canonicalQuery, variantStem } from '../file-cache/query-variant.js';

/** Longest file name written (most filesystems allow 255 bytes). */
const MAX_NAME_BYTES = 240;

export interface RecordTarget {
  /** Path below fsDir (normalised, safe). */
  rel: string;
  /** The body is JSON (pretty-printed when written). */
  json: boolean;
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
    const index = query ? variantStem('index', query) : 'index';
    rel = path === '' ? `${index}.json` : `${path}/${index}.json`;
  } else {
    const slash = path.lastIndexOf('/');
    const dir = slash === -1 ? '' : path.slice(0, slash + 1);
    let name = path.slice(slash + 1);
    const hasExt = name.toLowerCase().endsWith(`.${ext}`);
    if (hasExt && !query) rel = path;
    else {
      if (hasExt) name = name.slice(0, -(ext.length + 1));
      rel = `${dir}${query ? variantStem(name, query) : name}.${ext}`;
    }
  }
  const base = rel.slice(rel.lastIndexOf('/') + 1);
  if (new TextEncoder().encode(base).byteLength > MAX_NAME_BYTES) return null;
  return { rel, json };
}
