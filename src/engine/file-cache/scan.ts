/**
 * The filter scan, compiled. A filtered query over a large array is dominated by the per-item
 * work; closures with variable keys cost keyed (megamorphic) loads and indirect calls per item.
 * For the common filters (top-level key, string or number type) this module generates one scan
 * function with the keys as literals, so V8 emits named property loads and inlines the tests.
 *
 * The per-item test is written so that the common item costs what a hand-written
 * `item.role === role` costs: the direct comparison comes first, and the type check and the
 * coercion (numeric strings, numbers compared as strings, missing fields) only run when it
 * does not settle the answer, through the predicate's own closure. Where every item of the
 * array is an object (the usual JSON collection) the scan reads each filtered field from a
 * column: the field of every item in one dense array, built once per cached array and key
 * (query.ts), so a rejected item costs a read of a few packed arrays instead of a visit to its
 * object in the heap (the walk over large arrays is bound by memory, not by the compare).
 * Otherwise items are read directly, and non-object items go through the closures.
 *
 * Generated functions are cached by their shape (keys, comparisons, types, mode), never by
 * values: values arrive as arguments, so a few hundred distinct shapes at most are ever compiled,
 * and a request whose shape is known builds no source text. Keys enter the source only as JSON
 * string literals. Where code generation is refused (a strict Content-Security-Policy in a
 * browser), `compileScan` answers undefined and the caller walks with the closures.
 */
import type { Predicate, SimpleFilter } from './filters.js';

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

const OP: Record<string, string> = { gt: '>', gte: '>=', lt: '<', lte: '<=' };

/**
 * `if (…) continue;` for predicate `i` reading `v` (the field), `c` (the value) and `p` (the
 * closure: the full answer, for values the direct test cannot settle) on `item` (an expression).
 */
function test(s: SimpleFilter, v: string, c: string, p: string, item: string): string {
  const type = `typeof ${v} === '${s.base}'`;
  switch (s.cmp) {
    // Equal to the value (a string or a number): a match; different and of the type: no match.
    case 'eq': return `if (${v} !== ${c} && (${type} || !${p}(${item}))) continue;`;
    case 'neq': return `if (${v} === ${c} || (!(${type}) && !${p}(${item}))) continue;`;
    // The set holds values of the filter's type only.
    case 'in': return `if (!${c}.has(${v}) && (${type} || !${p}(${item}))) continue;`;
    case 'nin': return `if (${c}.has(${v}) || (!(${type}) && !${p}(${item}))) continue;`;
    // Ordering comparisons coerce in JS (`null >= 0`): the type is checked first.
    default: return `if (${type} ? !(${v} ${OP[s.cmp]} ${c}) : !${p}(${item})) continue;`;
  }
}

/** The shape key of these predicates (what the generated source depends on). */
function shapeOf(predicates: readonly Predicate[], columns: boolean): string {
  let key = columns ? 'c' : 'm';
  for (let i = 0; i < predicates.length; i++) {
    const s = predicates[i]!.simple;
    key += s === undefined ? '|fn' : `|${s.base}:${s.cmp}:${s.key.length}:${s.key}`;
  }
  return key;
}

function generate(predicates: readonly Predicate[], columns: boolean): Scan | undefined {
  const decls: string[] = [];
  const tests: string[] = [];
  const all: string[] = [];
  // Column mode reads fields from dense per-key arrays and loads `items[i]` only when a closure
  // or a kept item needs it.
  const item = columns ? 'items[i]' : 'item';
  predicates.forEach((pred, i) => {
    const s = pred.simple;
    decls.push(`const c${i} = consts[${3 * i}], p${i} = consts[${3 * i + 1}], f${i} = consts[${3 * i + 2}];`);
    all.push(`p${i}(item)`);
    if (s === undefined) tests.push(`if (!p${i}(${item})) continue;`);
    else {
      const read = columns ? `f${i}[i]` : `item[${JSON.stringify(s.key)}]`;
      tests.push(`const v${i} = ${read}; ${test(s, `v${i}`, `c${i}`, `p${i}`, item)}`);
    }
  });
  // Items that are not objects: only the closures know their answer (a field of a string…).
  const body = columns
    ? tests.join('\n      ')
    : `const item = items[i];\n      if (typeof item !== 'object' || item === null) { if (!(${all.join(' && ')})) continue; } else {\n      ${tests.join('\n      ')}\n    }`;
  const keep = `if (total >= skip && out.length < limit) { out.push(${item}); if (indices !== undefined) indices.push(i); }\n      total++;`;
  const source = `return function scan(items, order, skip, limit, out, indices, consts) {
  ${decls.join('\n  ')}
  let total = 0;
  if (order === undefined) {
    for (let i = 0, n = items.length; i < n; i++) {
      ${body}
      ${keep}
    }
  } else {
    for (let k = 0, n = order.length; k < n; k++) {
      const i = order[k];
      ${body}
      ${keep}
    }
  }
  return total;
};`;
  try {
    return new Function(source)() as Scan;
  } catch {
    codegen = false;
    return undefined;
  }
}

/** Turns code generation off or on (tests compare both paths; CSP environments turn it off themselves). */
export function setScanCodegen(enabled: boolean): void {
  codegen = enabled;
}

/**
 * A scan for these predicates with the values to pass as `consts`, or undefined (no codegen).
 * `column(key)`: the field `key` of every item, index-aligned (query.ts keeps them per cached
 * array); given only when every item is a non-null object, so fields are read from the columns
 * without touching the items.
 */
export function compileScan(predicates: readonly Predicate[], column?: (key: string) => readonly unknown[]): { scan: Scan; consts: unknown[] } | undefined {
  if (!codegen) return undefined;
  const columns = column !== undefined;
  const key = shapeOf(predicates, columns);
  let scan = cache.get(key);
  if (scan === undefined) {
    scan = generate(predicates, columns);
    if (scan === undefined) return undefined;
    if (cache.size >= MAX_SHAPES) cache.clear();
    cache.set(key, scan);
  }
  const consts: unknown[] = new Array(3 * predicates.length);
  for (let i = 0; i < predicates.length; i++) {
    const p = predicates[i]!;
    const s = p.simple;
    consts[3 * i] = s?.value;
    consts[3 * i + 1] = p;
    consts[3 * i + 2] = s !== undefined && column !== undefined ? column(s.key) : undefined;
  }
  return { scan, consts };
}
