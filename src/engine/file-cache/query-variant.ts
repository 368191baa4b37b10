/**
 * Query variants: THE naming of a file that answers one exact query string, `<name>@<query>.<ext>`
 * next to the plain file (`users@a=1&page=2.json` beside `users.json`; `index@q=x.json` in a
 * folder). The recorder writes them (proxy/record-path.ts); file mode serves them.
 *
 *   - `<query>` is canonical: the parameters sorted (by name, then value) and re-encoded with
 *     URLSearchParams, so `?page=2&a=1` and `?a=1&page=2` name the same file and `/` is `%2F`
 *     (a variant is always one file name);
 *   - a GET/HEAD with a query string is answered from its variant file when there is one, as
 *     stored (no pagination or filters: the variant IS the answer to that query); otherwise the
 *     plain file answers with its own pagination and filters, as before;
 *   - the lookup tries `<path>@<query>` with the usual extensions (lookup.ts), then, for a path
 *     with an extension (`logo.png?x=1`), `logo@x=1.png`.
 * Each folder's variant index (which names have `@` files: one readdir, FileCache.variantStems)
 * is read by the first GET of that folder and kept like a lookup (until a change; on disk for the
 * lookup TTL, so a variant file that appears is served within a second). A query on a name with
 * no variants is then decided synchronously: queries keep the fast path.
 */
import { baseName, parentOf } from '../../vfs/path.js';
import type { FileEntry } from './file-cache.js';
import { inFsDir, type FsCall, type FsEnv } from './fs-call.js';
import { hasExtension } from './target-path.js';

/** The separator between a file's name and its query. */
export const VARIANT_MARK = '@';

/** The canonical form of a query string (`?b=2&a=1` → `a=1&b=2`); '' for none. */
export function canonicalQuery(search: string): string {
  const params = [...new URLSearchParams(search)];
  params.sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0));
  return new URLSearchParams(params).toString();
}

/** `<stem>@<query>` (`query` canonical). */
export function variantStem(stem: string, query: string): string {
  return `${stem}${VARIANT_MARK}${query}`;
}

interface VariantTarget {
  /** Lookup-cache key: the raw sub-path and the canonical query (a raw sub-path has no `?`). */
  key: string;
  rel: string;
  trailingSlash: false;
  /** The file-name part before `@` (what the folder's variant index lists). */
  stem: string;
}

/** The folder a request's variants live in (relative to fsDir). */
function folderOf(call: FsCall): string {
  return call.rel === '' || call.trailingSlash ? call.rel : parentOf(call.rel);
}

const MAX_MEMO = 1000;
const memo = new Map<string, VariantTarget[]>();

/** The variant files a request may name, most specific first ([] without a query). */
function variantTargets(call: FsCall): VariantTarget[] {
  const search = call.ctx.search;
  if (search.length <= 1) return [];
  const memoKey = `${call.key}${search}`;
  let targets = memo.get(memoKey);
  if (targets !== undefined) return targets;
  targets = [];
  const query = canonicalQuery(search);
  if (query !== '') {
    const rel = call.rel;
    const key = `${call.key}?${query}`;
    if (rel === '' || call.trailingSlash) {
      targets.push({ key, rel: `${rel === '' ? '' : `${rel}/`}${variantStem('index', query)}`, trailingSlash: false, stem: 'index' });
    } else {
      const base = baseName(rel);
      const dir = rel.slice(0, rel.length - base.length);
      targets.push({ key, rel: variantStem(rel, query), trailingSlash: false, stem: base });
      if (hasExtension(rel)) {
        const dot = base.lastIndexOf('.');
        targets.push({ key: `${key}#ext`, rel: `${dir}${variantStem(base.slice(0, dot), query)}${base.slice(dot)}`, trailingSlash: false, stem: base.slice(0, dot) });
      }
    }
  }
  if (memo.size >= MAX_MEMO) memo.clear();
  memo.set(memoKey, targets);
  return targets;
}

/**
 * Whether the folder's variant index lists a stem this request could name: checked before the
 * query is parsed, so that a query on a name without variants (every filtered GET of a plain
 * collection) never builds its canonical form.
 */
function mayHaveVariant(call: FsCall, stems: ReadonlySet<string>): boolean {
  if (stems.size === 0) return false;
  if (call.rel === '' || call.trailingSlash) return stems.has('index');
  const base = baseName(call.rel);
  if (stems.has(base)) return true;
  return hasExtension(call.rel) && stems.has(base.slice(0, base.lastIndexOf('.')));
}

/**
 * Reads the request's folder's variant index (one readdir, kept like a lookup), so that later
 * requests with a query string can be answered on the synchronous path. Called by every GET/HEAD
 * that takes the promise path.
 */
export function knowVariants(call: FsCall, env: FsEnv): Promise<ReadonlySet<string>> {
  return env.cache.variantStems(inFsDir(env, folderOf(call)), VARIANT_MARK);
}

/** The variant file answering this request's exact query, or null. */
export async function resolveVariant(call: FsCall, env: FsEnv): Promise<FileEntry | null> {
  const stems = await knowVariants(call, env);
  if (!mayHaveVariant(call, stems)) return null;
  for (const t of variantTargets(call)) {
    if (!stems.has(t.stem)) continue;
    const entry = env.cache.lookupEntryNow(t.key) ?? (await env.cache.lookupEntry(t.key, t, true));
    if (entry !== null) return entry;
  }
  return null;
}

/** Synchronously: the variant file (cached), null (certainly none now), or undefined (cannot tell). */
export function peekVariant(call: FsCall, env: FsEnv): FileEntry | null | undefined {
  if (call.ctx.search.length <= 1) return null;
  const stems = env.cache.variantStemsNow(inFsDir(env, folderOf(call)));
  if (stems === undefined) return undefined;
  if (!mayHaveVariant(call, stems)) return null;
  for (const t of variantTargets(call)) {
    if (!stems.has(t.stem)) continue;
    const entry = env.cache.lookupEntryNow(t.key);
    if (entry !== undefined) return entry;
    if (env.cache.lookupNow(t.key, true) !== null) return undefined;
  }
  return null;
}
