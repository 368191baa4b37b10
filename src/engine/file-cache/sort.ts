/**
 * Sorting JSON items by a field: stable and deterministic for any mix of value types.
 * Order of kinds: numbers, strings (code-unit order, locale-independent), booleans (false first),
 * objects/arrays (keep their relative order); null and missing values always come last, in both
 * directions. Ties keep the file's order in both directions.
 */
import { getAt, type DotPath } from './dot-path.js';

function kind(v: unknown): number {
  switch (typeof v) {
    case 'number': return Number.isNaN(v) ? 4 : 0;
    case 'string': return 1;
    case 'boolean': return 2;
    case 'undefined': return 5;
    default: return v === null ? 4 : 3;
  }
}

function compareSame(a: unknown, b: unknown, k: number): number {
  if (k === 0) return (a as number) - (b as number);
  if (k === 1) return a === b ? 0 : (a as string) < (b as string) ? -1 : 1;
  if (k === 2) return a === b ? 0 : a ? 1 : -1;
  return 0;
}

/** Indices of `items` in sorted order (ascending or descending), stable. */
export function sortOrder(items: readonly unknown[], path: DotPath, desc: boolean): Uint32Array {
  const n = items.length;
  const keys = new Array<unknown>(n);
  const kinds = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const v = getAt(items[i], path);
    keys[i] = v;
    kinds[i] = kind(v);
  }
  const idx = new Uint32Array(n);
  for (let i = 0; i < n; i++) idx[i] = i;
  const sign = desc ? -1 : 1;
  idx.sort((i, j) => {
    const ki = kinds[i]!;
    const kj = kinds[j]!;
    if (ki !== kj) return ki - kj;
    const c = ki < 4 ? compareSame(keys[i], keys[j], ki) * sign : 0;
    return c !== 0 ? c : i - j;
  });
  return idx;
}
