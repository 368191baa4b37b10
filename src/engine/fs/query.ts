/**
 * Runs filters and pagination over a cached JSON array without copying it: sort (a cached index
 * order per field and direction), filter while walking, keep only the requested page.
 * Result: the page and the count after filters, before paging (X-Total-Count).
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

function sortedView(entry: FileEntry, items: readonly unknown[], page: Page): Uint32Array {
  const key = `${page.desc ? '-' : '+'}${page.sortKey}`;
  let views = entry.sorted;
  const hit = views?.get(key);
  if (hit) return hit;
  const order = sortOrder(items, page.sort!, page.desc);
  if (!views) views = entry.sorted = new Map();
  if (views.size >= MAX_SORT_VIEWS) views.clear();
  views.set(key, order);
  return order;
}

export function runQuery(entry: FileEntry, items: readonly unknown[], predicates: readonly Predicate[], page: Page | undefined, withIndices = false): QueryResult {
  const skip = page?.skip ?? 0;
  const limit = page?.limit ?? Infinity;
  const order = page?.sort ? sortedView(entry, items, page) : undefined;
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
