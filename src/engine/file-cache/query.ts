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
 */
import type { FileEntry } from './file-cache.js';
import type { Predicate } from './filters.js';
import type { Page } from './pagination.js';
import { compileScan } from './scan.js';
import { sortOrder } from './sort.js';

/** What this module remembers about one cached file (the cache entry knows nothing of it). */
interface EntryMemo {
  /** Sorted index orders of the array, by sort key and direction. */
  sorted?: Map<string, Uint32Array>;
  /** Matching indices by filter signature (and sort). */
  matches?: Map<string, Uint32Array>;
  /** Whether every item of the array is a non-null object (found on first use). */
  objectItems?: boolean;
  /** Per filtered key, the field of every item of the array (for the compiled scan). */
  columns?: Map<string, readonly unknown[]>;
  /** Filter signatures seen once (memoised the second time). */
  seenQueries?: Set<string>;
}

/**
 * The memos, per cache entry: kept in a WeakMap keyed by the entry, so they live and die with it
 * (a replaced or dropped entry takes its memo with it) and FileEntry carries no query fields.
 */
const entryMemos = new WeakMap<FileEntry, EntryMemo>();

function memoOf(entry: FileEntry): EntryMemo {
  let m = entryMemos.get(entry);
  if (m === undefined) entryMemos.set(entry, (m = {}));
  return m;
}

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

function sortedView(entry: FileEntry, items: readonly unknown[], page: Page): Uint32Array {
  const key = `${page.desc ? '-' : '+'}${page.sortKey}`;
  let views = memoOf(entry).sorted;
  const hit = views?.get(key);
  if (hit) return hit;
  const order = sortOrder(items, page.sort!, page.desc);
  if (!views) views = memoOf(entry).sorted = new Map();
  if (views.size >= MAX_SORT_VIEWS) views.clear();
  views.set(key, order);
  return order;
}

/**
 * Whether every item of the entry's array is a non-null object (the compiled scan then reads
 * fields without checking each item). Found once per cached array, kept on the entry.
 */
function objectItems(entry: FileEntry, items: readonly unknown[]): boolean {
  if (items !== entry.array) return false;
  const memo = memoOf(entry);
  return (memo.objectItems ??= items.every((item) => typeof item === 'object' && item !== null));
}

const MAX_COLUMNS = 16;

/**
 * The column reader for the compiled scan: `key` → the field of every item (own or not: the
 * scan only asks for keys no plain object or array inherits), built on first use and kept on
 * the entry like the sorted views. Undefined unless every item is an object.
 */
function columnsOf(entry: FileEntry, items: readonly unknown[]): ((key: string) => readonly unknown[]) | undefined {
  if (!objectItems(entry, items)) return undefined;
  return (key) => {
    const columns = (memoOf(entry).columns ??= new Map());
    let column = columns.get(key);
    if (column === undefined) {
      // push: a packed array (all numbers → unboxed doubles), never a holey one.
      const built: unknown[] = [];
      for (let i = 0; i < items.length; i++) built.push((items[i] as Record<string, unknown>)[key]);
      if (columns.size >= MAX_COLUMNS) columns.clear();
      columns.set(key, (column = built));
    }
    return column;
  };
}

/** Accepts pushes and keeps nothing: lets the scan record indices without collecting items. */
const DISCARD = { length: 0, push(): number { return 0; } } as unknown as unknown[];

/** Indices of all matches, in scan order (the sorted view's when sorting). */
function allMatches(entry: FileEntry, items: readonly unknown[], predicates: readonly Predicate[], order: Uint32Array | undefined): Uint32Array {
  const indices: number[] = [];
  const compiled = compileScan(predicates, columnsOf(entry, items));
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
function memoizedMatches(entry: FileEntry, items: readonly unknown[], predicates: readonly Predicate[], order: Ordering | undefined, signature: string): Uint32Array | undefined {
  const key = order ? `${signature}|${order.key}` : signature;
  let memos = memoOf(entry).matches;
  const hit = memos?.get(key);
  if (hit) return hit;
  const seen = (memoOf(entry).seenQueries ??= new Set());
  if (!seen.has(key)) {
    if (seen.size >= MAX_SEEN) seen.clear();
    seen.add(key);
    return undefined;
  }
  const matches = allMatches(entry, items, predicates, order?.indices());
  if (!memos) memos = memoOf(entry).matches = new Map();
  if (memos.size >= MAX_MATCH_MEMOS) memos.delete(memos.keys().next().value!);
  memos.set(key, matches);
  return matches;
}

/** An order to walk the items in: its memo key and the indices (built on first use by the caller's rule). */
export interface Ordering {
  readonly key: string;
  indices(): Uint32Array;
}

/**
 * `signature` (from compileFilters) turns on the match memo for reads; leave it out where the
 * result feeds a write (DELETE), which replaces the entry anyway.
 */
export function runQuery(entry: FileEntry, items: readonly unknown[], predicates: readonly Predicate[], page: Page | undefined, withIndices = false, signature = ''): QueryResult {
  const order: Ordering | undefined = page?.sort ? { key: `${page.desc ? '-' : '+'}${page.sortKey}`, indices: () => sortedView(entry, items, page) } : undefined;
  return scanInOrder(entry, items, predicates, order, page?.skip ?? 0, page?.limit ?? Infinity, withIndices, signature);
}

/**
 * The page `skip`..`skip + limit` of the items that pass every predicate, walked in `order` (file
 * order without one), and the count of all that pass: the compiled scan over the entry's columns,
 * the match memo (with a `signature`: the same predicates always select the same items). `items`
 * must be the entry's array when a signature is given (the memo lives on the entry).
 */
export function scanInOrder(entry: FileEntry, items: readonly unknown[], predicates: readonly Predicate[], ordering: Ordering | undefined, skip: number, limit: number, withIndices = false, signature = ''): QueryResult {
  const matches = signature !== '' && predicates.length > 0 ? memoizedMatches(entry, items, predicates, ordering, signature) : undefined;
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
  const order = ordering?.indices();
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
    const compiled = compileScan(predicates, columnsOf(entry, items));
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
