/**
 * Runs filters and pagination over a cached JSON array without copying it: sort (a cached index
 * order per field and direction), filter while walking, keep only the requested page.
 * Result: the page and the count after filters, before paging (X-Total-Count).
 *
 * Match memo: a list UI pages through one filter (`?status=open&skip=0`, `&skip=20`, …). Given the
 * filter signature, the indices of every match (in the requested order) are kept on the file's
 * cache entry, so the next page with the same filter and sort costs a slice, not a scan. The
 * memo lives and dies with the entry (any change to the file builds a new one) and holds at most
 * MAX_MATCH_MEMOS lists per file. Collecting every match costs more than the paged scan, so a
 * filter is memoised only the second time it is seen: one-off filters pay nothing extra.
 *
 * The memos (sorted views, matches, filters seen once) belong to this module: they are kept in a
 * WeakMap keyed by the cache entry, so they go with the entry and the cache knows nothing of them.
 */
import type { FileEntry } from './file-cache.js';
import type { Predicate } from './filters.js';
import type { Page } from './pagination.js';
import { compileScan } from './scan.js';
import { sortOrder } from './sort.js';

export interface QueryResult {
  page: unknown[];
  /** Matches after filters, before paging. */
  total: number;
  /** Indices (in the file's array) of the page's items, when asked for. */
  indices?: number[];
}

const MAX_SORT_VIEWS = 8;
const MAX_MATCH_MEMOS = 16;
// Seen-once signatures kept: a filter that recurs within about twice the memo size is memoised;
// one that comes back only after many others (more than the memo could hold) is not.
const MAX_SEEN = 2 * MAX_MATCH_MEMOS;

/** What this module remembers about one cached file. */
interface EntryMemo {
  /** Sorted index orders of the array, by sort key and direction. */
  sorted?: Map<string, Uint32Array>;
  /** Matching indices by filter signature (and sort). */
  matches?: Map<string, Uint32Array>;
  /** Filter signatures seen once (memoised the second time). */
  seenQueries?: Set<string>;
}

/** Per cache entry; an entry replaced or dropped by the cache takes its memo with it. */
const memos = new WeakMap<FileEntry, EntryMemo>();

function memoOf(entry: FileEntry): EntryMemo {
  let m = memos.get(entry);
  if (m === undefined) memos.set(entry, (m = {}));
  return m;
}

function sortedView(memo: EntryMemo, items: readonly unknown[], page: Page): Uint32Array {
  const key = `${page.desc ? '-' : '+'}${page.sortKey}`;
  let views = memo.sorted;
  const hit = views?.get(key);
  if (hit) return hit;
  const order = sortOrder(items, page.sort!, page.desc);
  if (!views) views = memo.sorted = new Map();
  if (views.size >= MAX_SORT_VIEWS) views.clear();
  views.set(key, order);
  return order;
}

/** Accepts pushes and keeps nothing: lets the scan record indices without collecting items. */
const DISCARD = { length: 0, push(): number { return 0; } } as unknown as unknown[];

/** Indices of all matches, in scan order (the sorted view's when sorting). */
function allMatches(items: readonly unknown[], predicates: readonly Predicate[], order: Uint32Array | undefined): Uint32Array {
  const indices: number[] = [];
  const compiled = compileScan(predicates);
  if (compiled) compiled.scan(items, order, 0, Infinity, DISCARD, indices, compiled.consts);
  else {
    const n = order ? order.length : items.length;
    const np = predicates.length;
    outer: for (let k = 0; k < n; k++) {
      const i = order ? order[k]! : k;
      for (let p = 0; p < np; p++) if (!predicates[p]!(items[i])) continue outer;
      indices.push(i);
    }
  }
  return Uint32Array.from(indices);
}

/** The memoised matches, or undefined the first time a filter is seen (the caller scans). */
function memoizedMatches(memo: EntryMemo, items: readonly unknown[], predicates: readonly Predicate[], page: Page | undefined, signature: string): Uint32Array | undefined {
  const key = page?.sort ? `${signature}|${page.desc ? '-' : '+'}${page.sortKey}` : signature;
  let lists = memo.matches;
  const hit = lists?.get(key);
  if (hit) return hit;
  const seen = (memo.seenQueries ??= new Set());
  if (!seen.has(key)) {
    if (seen.size >= MAX_SEEN) seen.clear();
    seen.add(key);
    return undefined;
  }
  const order = page?.sort ? sortedView(memo, items, page) : undefined;
  const matches = allMatches(items, predicates, order);
  if (!lists) lists = memo.matches = new Map();
  if (lists.size >= MAX_MATCH_MEMOS) lists.delete(lists.keys().next().value!);
  lists.set(key, matches);
  return matches;
}

/**
 * `signature` (from compileFilters) turns on the match memo for reads; leave it out where the
 * result feeds a write (DELETE), which replaces the entry anyway.
 */
export function runQuery(entry: FileEntry, items: readonly unknown[], predicates: readonly Predicate[], page: Page | undefined, withIndices = false, signature = ''): QueryResult {
  const skip = page?.skip ?? 0;
  const limit = page?.limit ?? Infinity;
  const memo = page?.sort || (signature !== '' && predicates.length > 0) ? memoOf(entry) : undefined;
  const matches = memo !== undefined && signature !== '' && predicates.length > 0 ? memoizedMatches(memo, items, predicates, page, signature) : undefined;
  if (matches !== undefined) {
    const end = Math.min(matches.length, skip + limit);
    const out: unknown[] = [];
    const indices: number[] | undefined = withIndices ? [] : undefined;
    for (let k = skip; k < end; k++) {
      out.push(items[matches[k]!]);
      indices?.push(matches[k]!);
    }
    return { page: out, total: matches.length, indices };
  }
  const order = page?.sort ? sortedView(memo!, items, page) : undefined;
  const n = items.length;
  const out: unknown[] = [];
  const indices: number[] | undefined = withIndices ? [] : undefined;

  if (predicates.length === 0 && !withIndices) {
    const end = Math.min(n, skip + limit);
    if (order) for (let k = skip; k < end; k++) out.push(items[order[k]!]);
    else for (let k = skip; k < end; k++) out.push(items[k]);
    return { page: out, total: n };
  }

  if (predicates.length > 0) {
    const compiled = compileScan(predicates);
    if (compiled) {
      const total = compiled.scan(items, order, skip, limit, out, indices, compiled.consts);
      return { page: out, total, indices };
    }
  }
  let total = 0;
  const np = predicates.length;
  outer: for (let k = 0; k < n; k++) {
    const i = order ? order[k]! : k;
    const item = items[i];
    for (let p = 0; p < np; p++) if (!predicates[p]!(item)) continue outer;
    if (total >= skip && out.length < limit) {
      out.push(item);
      indices?.push(i);
    }
    total++;
  }
  return { page: out, total, indices };
}
