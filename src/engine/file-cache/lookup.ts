/**
 * File lookup: which file a request path names. Deterministic (never depends on readdir order):
 *   1. the exact file (`/users/1.json` → `users/1.json`), unless the path ends with `/`;
 *   2. for a directory, a trailing `/` or the prefix itself: its `index.json`;
 *   3. `<path>.json`;
 *   4. `<path>.<ext>` for the other extensions in EXTENSION_ORDER, then any other
 *      `<path>.<ext>` in the folder in code-unit order of the name.
 * A directory without `index.json` does not hide `users.json` (step 2 misses, step 3 hits).
 */
import type { Vfs, VfsDirent } from '../../vfs/types.js';
import type { FolderListings } from './folder-listings.js';
import { baseName, joinSafe, parentOf, requestPathToVfs } from '../../vfs/path.js';

/** What the file cache's `lookup` takes besides the key: the request path's safe decoded form (vfs/path.ts). */
export interface LookupTarget {
  readonly rel: string;
  readonly trailingSlash: boolean;
}

/** The lookup target of a request key, or undefined when the path is unsafe (file mode answers it 400). */
export function lookupTarget(key: string): LookupTarget | undefined {
  try {
    const p = requestPathToVfs(key);
    return { rel: p.path, trailingSlash: p.trailingSlash };
  } catch {
    return undefined;
  }
}

/** The extensions tried after `.json`, in this order (documented in docs/files.md, "Lookup order"; tested). */
export const EXTENSION_ORDER: readonly string[] = [
  'xml', 'txt', 'html', 'htm', 'csv', 'tsv', 'yaml', 'yml', 'md', 'js', 'mjs', 'css', 'svg', 'png', 'jpg', 'jpeg', 'gif', 'webp',
  'avif', 'ico', 'pdf', 'zip', 'bin',
];
const RANK = new Map(EXTENSION_ORDER.map((e, i) => [e, i]));

/**
 * Resolves `rel` (a safe path relative to `fsDir`) to the Vfs path of a file, or null.
 * `fsDir` is the mocks folder inside the Vfs (`''` = root). `seen.folder` tells whether the path
 * itself is a folder (its `index.json` was looked for).
 */
export async function lookupFile(
  vfs: Vfs,
  fsDir: string,
  rel: string,
  trailingSlash: boolean,
  seen?: { folder: boolean },
  listings?: FolderListings,
): Promise<string | null> {
  const full = joinSafe(fsDir, rel);
  let isDir = rel === '';
  if (!isDir) {
    const s = await vfs.stat(full);
    if (s) {
      if (s.kind === 'file') {
        if (!trailingSlash) return full;
      } else isDir = true;
    }
  }
  if (seen) seen.folder = isDir;
  if (isDir || trailingSlash) {
    const index = joinSafe(full, 'index.json');
    const s = await vfs.stat(index);
    if (s && s.kind === 'file') return index;
  }
  if (rel === '') return null;
  const json = `${full}.json`;
  const sj = await vfs.stat(json);
  if (sj && sj.kind === 'file') return json;
  return findByExtension(vfs, parentOf(full), baseName(full), listings);
}

/** Step 4; `listings` (folder-listings.ts) answers from a kept listing of `dir` when it can. */
async function findByExtension(vfs: Vfs, dir: string, base: string, listings: FolderListings | undefined): Promise<string | null> {
  let entries: readonly VfsDirent[];
  try {
    entries = listings === undefined ? await vfs.readdir(dir) : await listings.candidates(dir, base);
  } catch {
    return null;
  }
  const stem = `${base}.`;
  let best: string | null = null;
  let bestRank = Infinity;
  for (const e of entries) {
    if (e.kind !== 'file' || e.name.length <= stem.length || !e.name.startsWith(stem)) continue;
    const ext = e.name.slice(stem.length);
    if (ext === 'json') continue; // already tried (and absent or not a file)
    const rank = RANK.get(ext.toLowerCase()) ?? EXTENSION_ORDER.length;
    // Same rank (unlisted extensions): the smaller name wins, whatever the listing order.
    if (rank < bestRank || (rank === bestRank && best !== null && e.name < baseName(best))) {
      best = joinSafe(dir, e.name);
      bestRank = rank;
    }
  }
  return best;
}
