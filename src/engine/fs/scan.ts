/**
 * The filter scan, compiled. A filtered query over a large array is dominated by the per-item
 * work; closures with variable keys cost keyed (megamorphic) loads and indirect calls per item.
 * For the common filters (top-level key, string or number type) this module generates one scan
 * function with the keys as literals, so V8 emits named property loads and inlines the tests.
 * Generated functions are cached by their shape (keys, comparisons, types), never by values:
 * values arrive as arguments, so a few hundred distinct shapes at most are ever compiled.
 * Keys enter the source only as JSON string literals. Where code generation is refused (a strict
 * Content-Security-Policy in a browser), `compileScan` answers undefined and the caller walks
 * with the closures.
 */
import { itemValue, type Predicate } from './filters.js';

export type Scan = (
  items: readonly unknown[],
  order: Uint32Array | undefined,
  skip: number,
  limit: number,
  out: unknown[],
  indices: number[] | undefined,
  consts: readonly unknown[],
) => number;

const cache = new Map<string, Scan>();
const MAX_SHAPES = 256;
let codegen = true;

const toNumber = (v: unknown) => itemValue(v, 'number');

const TEST: Record<string, (x: string, c: string) => string> = {
  eq: (x, c) => `${x} === ${c}`,
  neq: (x, c) => `${x} !== ${c}`,
  gt: (x, c) => `${x} > ${c}`,
  gte: (x, c) => `${x} >= ${c}`,
  lt: (x, c) => `${x} < ${c}`,
  lte: (x, c) => `${x} <= ${c}`,
  in: (x, c) => `${c}.has(${x})`,
  nin: (x, c) => `!${c}.has(${x})`,
};

/** Turns code generation off or on (tests compare both paths; CSP environments turn it off themselves). */
export function setScanCodegen(enabled: boolean): void {
  codegen = enabled;
}

/** A scan for these predicates with the values to pass as `consts`, or undefined (no codegen). */
export function compileScan(predicates: readonly Predicate[]): { scan: Scan; consts: unknown[] } | undefined {
  if (!codegen) return undefined;
  const consts: unknown[] = [];
  const parts: string[] = [];
  const shape: string[] = [];
  predicates.forEach((p, i) => {
    const s = p.simple;
    const c = `c${i}`;
    if (!s) {
      consts.push(p);
      shape.push('fn');
      parts.push(`if (!${c}(item)) continue;`);
      return;
    }
    consts.push(s.value);
    shape.push(`${JSON.stringify(s.key)}:${s.base}:${s.cmp}:${s.missing}`);
    const read = `const v${i} = o ? item[${JSON.stringify(s.key)}] : undefined;`;
    const coerce = s.base === 'string'
      ? `const x${i} = typeof v${i} === 'string' ? v${i} : (typeof v${i} === 'number' || typeof v${i} === 'boolean') ? String(v${i}) : undefined;`
      : `const x${i} = typeof v${i} === 'number' ? v${i} : toNumber(v${i});`;
    const test = TEST[s.cmp]!(`x${i}`, c);
    parts.push(`{ ${read} ${coerce} if (x${i} === undefined ? ${!s.missing} : !(${test})) continue; }`);
  });
  const key = shape.join('|');
  let scan = cache.get(key);
  if (!scan) {
    const source = `return function scan(items, order, skip, limit, out, indices, consts) {
  ${predicates.map((_, i) => `const c${i} = consts[${i}];`).join(' ')}
  const n = order ? order.length : items.length;
  let total = 0;
  for (let k = 0; k < n; k++) {
    const i = order ? order[k] : k;
    const item = items[i];
    const o = item !== null && typeof item === 'object';
    ${parts.join('\n    ')}
    if (total >= skip && out.length < limit) { out.push(item); if (indices) indices.push(i); }
    total++;
  }
  return total;
};`;
    try {
      scan = new Function('toNumber', source)(toNumber) as Scan;
    } catch {
      codegen = false;
      return undefined;
    }
    if (cache.size >= MAX_SHAPES) cache.clear();
    cache.set(key, scan);
  }
  return { scan, consts };
}
