/**
 * A query on one collection, as the store runs it: filters (each a predicate; plain equality
 * filters apart, dropped when no item has the field, as json-server 0.17 does), a stable sort
 * on one or more fields, then a slice or 1.x's page envelope. The collections layer builds one
 * from json-server's query syntax (collections/json-server-query.ts); the store runs it on a
 * stored collection through the compiled column scan (scan.ts), or on any array here
 * (`runQuery`: the same answers, by filtering and sorting in full).
 */
import type { CollectionQuery, QueryResult } from '../store-contract/contract.js';
import { getAt } from '../file-cache/dot-path.js';

export function hasPath(item: unknown, path: readonly string[]): boolean {
  let v: unknown = item;
  for (const k of path) {
    if (v === null || typeof v !== 'object' || !Object.prototype.hasOwnProperty.call(v, k)) return false;
    v = (v as Record<string, unknown>)[k];
  }
  return true;
}

export function text(v: unknown): string {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? JSON.stringify(v) : String(v);
}

function compareValues(a: unknown, b: unknown): number {
  const an = a === undefined || a === null;
  const bn = b === undefined || b === null;
  if (an || bn) return an && bn ? 0 : an ? 1 : -1; // missing last
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const x = typeof a === 'string' ? a : text(a);
  const y = typeof b === 'string' ? b : text(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Filters, sorts (stable) and slices `items` (never mutated). */
export function runQuery(items: readonly unknown[], q: CollectionQuery): QueryResult {
  // 0.17: an equality filter on a field no item has is dropped.
  const equals = q.equals.filter((e) => anyHas(items, e.path));
  const test = equals.length === 0 ? q.test : (item: unknown) => (q.test === undefined || q.test(item)) && equals.every((e) => e.test(item));
  let out: unknown[] = test ? items.filter(test) : items.slice();
  const total = out.length;
  if (q.sort.length > 0) {
    const sorted = out;
    out = Array.from(sortIndices(sorted, q.sort), (i) => sorted[i]);
  }
  return windowOf(out, total, q);
}

/** The page, slice or 1.x envelope of the matches `out` (all `total` of them, in order). */
export function windowOf(out: unknown[], total: number, q: CollectionQuery): QueryResult {
  if (q.envelope) {
    const per = q.envelope.perPage;
    const pages = Math.max(1, Math.ceil(total / per));
    const current = Math.max(1, Math.min(q.envelope.page, pages));
    const start = (current - 1) * per;
    return {
      items: out.slice(start, start + per),
      total,
      envelope: { first: 1, prev: current > 1 ? current - 1 : null, next: current < pages ? current + 1 : null, last: pages, pages, items: total, data: out.slice(start, start + per) },
    };
  }
  if (q.slice) out = out.slice(q.slice.start, q.slice.end);
  return { items: out, total };
}

/**
 * Indices of `items` in the order `_sort`/`_order` ask for: each key compared as compareValues
 * does, missing values last in both directions, ties in the file's order.
 */
export function sortIndices(items: readonly unknown[], sort: CollectionQuery['sort']): Uint32Array {
  const n = items.length;
  const idx = new Uint32Array(n);
  for (let i = 0; i < n; i++) idx[i] = i;
  const columns = sort.map((k) => items.map((item) => getAt(item, k.path)));
  idx.sort((x, y) => {
    for (let s = 0; s < columns.length; s++) {
      const a = columns[s]![x];
      const b = columns[s]![y];
      const c = compareValues(a, b);
      if (c !== 0) return sort[s]!.desc && a != null && b != null ? -c : c; // missing stays last
    }
    return x - y;
  });
  return idx;
}

/** Whether any item has the field at `path` (0.17 drops an equality filter on a field none has). */
export function anyHas(items: readonly unknown[], path: readonly string[]): boolean {
  return items.some((item) => hasPath(item, path));
}

