/**
 * The collection a request key names (`/posts`, `/v1/users`): the file mode cache's entry of
 * that file when it holds a JSON array, else null. The store's lookup (`open`, by name or request
 * path), also the one file mode's preset hints ask, so all see the same version of a collection:
 * parsed once per file version, its id index and query memos kept with it.
 */
import type { FileEntry } from '../file-cache/file-cache.js';
import { lookupTarget } from '../file-cache/lookup.js';
import type { FsEnv } from '../file-cache/fs-call.js';

/** The collection at `key` (a raw request sub-path); null when the path is unsafe, a folder, or no JSON array. */
export async function collectionFile(env: FsEnv, key: string): Promise<FileEntry | null> {
  const target = lookupTarget(key);
  if (target === undefined || target.trailingSlash) return null;
  const entry = env.cache.lookupEntryNow(key) ?? (await env.cache.lookupEntry(key, target));
  return entry !== null && entry.array !== undefined ? entry : null;
}
