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
 * array is an object (the usual JSON collection; query.ts tells, once per cached array) the
 * scan reads fields without checking the item first; otherwise non-object items go through the
 * closures.
 *
 * Generated functions are cached by their shape (keys, comparisons, types, item check), never by
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
 * closure: the full answer, for values the direct test cannot settle).
 */
function test(s: SimpleFilter, v: string, c: string, p: string): string {
  const type = `typeof ${v} === '${s.base}'`;
  switch (s.cmp) {
    // Equal to the value (a string or a number): a match; different and of the type: no match.
    case 'eq': return `if (${v} !== ${c} && (${type} || !${p}(item))) continue;`;
    case 'neq': return `if (${v} === ${c} || (!(${type}) && !${p}(item))) continue;`;
    // The set holds values of the filter's type only.
    case 'in': return `if (!${c}.has(${v}) && (${type} || !${p}(item))) continue;`;
    case 'nin': return `if (${c}.has(${v}) || (!(${type}) && !${p}(item))) continue;`;
    // Ordering comparisons coerce in JS (`null >= 0`): the type is checked first.
    default: return `if (${type} ? !(${v} ${OP[s.cmp]} ${c}) : !${p}(item)) continue;`;
  }
}

/** The shape key of these predicates (what the generated source depends on). */
function shapeOf(predicates: readonly Predicate[], objectItems: boolean): string {
  let key = objectItems ? 'o' : 'm';
  for (let i = 0; i < predicates.length; i++) {
    const s = predicates[i]!.simple;
    key += s === undefined ? '|fn' : `|${s.base}:${s.cmp}:${s.key.length}:${s.key}`;
  }
  return key;
}

function generate(predicates: readonly Predicate[], objectItems: boolean): Scan | undefined {
  const decls: string[] = [];
  const tests: string[] = [];
  const all: string[] = [];
  predicates.forEach((pred, i) => {
    const s = pred.simple;
    decls.push(`const c${i} = consts[${2 * i}], p${i} = consts[${2 * i + 1}];`);
    all.push(`p${i}(item)`);
    if (s === undefined) tests.push(`if (!p${i}(item)) continue;`);
    else tests.push(`const v${i} = item[${JSON.stringify(s.key)}]; ${test(s, `v${i}`, `c${i}`, `p${i}`)}`);
  });
  // Items that are not objects: only the closures know their answer (a field of a string…).
  const body = objectItems
    ? tests.join('\n      ')
    : `if (typeof item !== 'object' || item === null) { if (!(${all.join(' && ')})) continue; } else {\n      ${tests.join('\n      ')}\n    }`;
  const keep = 'if (total >= skip && out.length < limit) { out.push(item); if (indices !== undefined) indices.push(i); }\n      total++;';
  const source = `return function scan(items, order, skip, limit, out, indices, consts) {
  ${decls.join('\n  ')}
  let total = 0;
  if (order === undefined) {
    for (let i = 0, n = items.length; i < n; i++) {
      const item = items[i];
      ${body}
      ${keep}
    }
  } else {
    for (let k = 0, n = order.length; k < n; k++) {
      const i = order[k];
      const item = items[i];
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
 * `objectItems`: every item of the array is a non-null object (fields are read unchecked).
 */
export function compileScan(predicates: readonly Predicate[], objectItems = false): { scan: Scan; consts: unknown[] } | undefined {
  if (!codegen) return undefined;
  const key = shapeOf(predicates, objectItems);
  let scan = cache.get(key);
  if (scan === undefined) {
    scan = generate(predicates, objectItems);
    if (scan === undefined) return undefined;
    if (cache.size >= MAX_SHAPES) cache.clear();
    cache.set(key, scan);
  }
  const consts: unknown[] = new Array(2 * predicates.length);
  for (let i = 0; i < predicates.length; i++) {
    const p = predicates[i]!;
    consts[2 * i] = p.simple?.value;
    consts[2 * i + 1] = p;
  }
  return { scan, consts };
}
