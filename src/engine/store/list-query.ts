/**
 * `store.list(name, query)`: filter, sort and slice one collection, with the filter vocabulary
 * of json-graphql-server (which GraphQL clients of such servers send):
 *
 *   { title: 'x' }            equality (a number and its text are equal: ids arrive as text)
 *   { tags: ['a', 'b'] }      any of the values; on an array field: it holds every value
 *   { views_gt: 10 }          _lt, _lte, _gt, _gte (numbers, else text), _neq
 *   { ids: [1, 2] }           the items with these ids (the other filters are then ignored)
 *   { q: 'lorem' }            any top-level value whose text contains it, any case
 *
 * Sort by one field, ascending unless `order: 'desc'`; stable. `offset`/`limit` slice after
 * filtering; `total` counts the filtered items before the slice.
 */
import { HttpError } from '../../core/errors.js';
import type { Item, ListQuery, ListResult } from '../store-contract/contract.js';
import { isObj } from '../../core/json-object.js';

type Test = (item: Item) => boolean;

/** Whether an array version holds objects only (a collection), asked once per version. */
const collectionArrays = new WeakMap<readonly unknown[], boolean>();
export function isCollection(items: readonly unknown[]): boolean {
  let yes = collectionArrays.get(items);
  if (yes === undefined) collectionArrays.set(items, (yes = items.every(isObj)));
  return yes;
}

function same(stored: unknown, given: unknown): boolean {
  if (stored === given) return true;
  if (stored === null || given === null || stored === undefined || given === undefined) return false;
  if ((typeof stored === 'number' || typeof stored === 'boolean') && typeof given === 'string') return String(stored) === given;
  if (typeof stored === 'string' && (typeof given === 'number' || typeof given === 'boolean')) return stored === String(given);
  return false;
}

function ordered(a: unknown, b: unknown): [unknown, unknown] {
  if (typeof a === 'number' && typeof b === 'string' && b.trim() !== '' && !Number.isNaN(Number(b))) return [a, Number(b)];
  if (typeof a === 'string' && typeof b === 'number') return [a, String(b)];
  return [a, b];
}

const RANGES: ReadonlyArray<[string, (a: never, b: never) => boolean]> = [
  ['_lte', (a, b) => a <= b],
  ['_gte', (a, b) => a >= b],
  ['_lt', (a, b) => a < b],
  ['_gt', (a, b) => a > b],
];

function testFor(key: string, value: unknown): Test {
  if (key.endsWith('_neq')) {
    const field = key.slice(0, -4);
    return (item) => !same(item[field], value);
  }
  for (const [suffix, cmp] of RANGES) {
    if (key.length > suffix.length && key.endsWith(suffix)) {
      const field = key.slice(0, -suffix.length);
      const compare = cmp as (a: unknown, b: unknown) => boolean;
      return (item) => {
        const v = item[field];
        if (v === undefined || v === null) return false;
        if (typeof v === 'number' && typeof value === 'number') return compare(v, value); // the common case, without a pair per item
        const [a, b] = ordered(v, value);
        return compare(a, b);
      };
    }
  }
  if (Array.isArray(value)) {
    return (item) => {
      const v = item[key];
      if (Array.isArray(v)) return value.every((x) => v.some((y) => same(y, x)));
      return value.some((x) => same(v, x));
    };
  }
  return (item) => same(item[key], value);
}

function textContains(item: Item, needle: string): boolean {
  return Object.values(item).some((v) => v !== null && v !== undefined && String(v).toLowerCase().includes(needle));
}

function compare(a: unknown, b: unknown): number {
  const an = a === undefined || a === null;
  const bn = b === undefined || b === null;
  if (an || bn) return an && bn ? 0 : an ? 1 : -1; // missing last
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const x = typeof a === 'string' ? a : JSON.stringify(a);
  const y = typeof b === 'string' ? b : JSON.stringify(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

function count(n: unknown, what: string): number | undefined {
  if (n === undefined || n === null) return undefined;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0) throw new HttpError(400, `${what} must be an integer >= 0 (got ${JSON.stringify(n)})`);
  return n;
}

/** What a ListQuery asks, ready to run: its tests, its window and its sort. */
export interface CompiledListQuery {
  /** The filters, one test each (none: every item). */
  readonly tests: Array<(item: Item) => boolean>;
  /** What selects the items, for the scan's match memo ('' when nothing is filtered). */
  readonly signature: string;
  readonly offset: number;
  readonly limit: number | undefined;
  readonly sort: ListQuery['sort'];
}

/** The tests, window and sort of `query`. 400 on a bad offset or limit. */
export function compileListQuery(idField: string, query: ListQuery = {}): CompiledListQuery {
  const offset = count(query.offset, 'offset') ?? 0;
  const limit = count(query.limit, 'limit');
  const tests: Test[] = [];
  const filter = query.filter ?? {};
  const ids = filter.ids;
  if (Array.isArray(ids)) {
    tests.push((item) => ids.some((id) => same(item[idField], id)));
  } else {
    for (const [key, value] of Object.entries(filter)) {
      if (key === 'q' || key === 'ids' || value === undefined) continue;
      tests.push(testFor(key, value));
    }
    if (typeof filter.q === 'string' && filter.q !== '') {
      const needle = filter.q.toLowerCase();
      tests.push((item) => textContains(item, needle));
    }
  }
  return { tests, signature: tests.length === 0 ? '' : `ls:${idField}:${JSON.stringify(filter)}`, offset, limit, sort: query.sort };
}

/** The filtered items in the order `sort` asks for (stable; missing values last both ways). */
export function sortListed(out: Item[], sort: NonNullable<ListQuery['sort']>): Item[] {
  const { field } = sort;
  const desc = sort.order === 'desc';
  // A copy (the caller's array is kept), sorted stably (Array#sort is stable): equal values keep their order.
  return out.slice().sort((x, y) => {
    const c = compare(x[field], y[field]);
    const missing = x[field] == null || y[field] == null;
    return desc && !missing ? -c : c;
  });
}

/**
 * Runs `query` over `items` (never mutated), filtering in full. 400 on a bad offset or limit.
 * The store runs the same query on a stored collection through the compiled scan (scan.ts
 * `listEntry`): the same answers.
 */
export function runListQuery(items: readonly unknown[], idField: string, query: ListQuery = {}): ListResult {
  const { tests, offset, limit, sort } = compileListQuery(idField, query);
  let out: Item[];
  if (tests.length === 0) out = isCollection(items) ? (items as Item[]) : (items.filter(isObj) as Item[]);
  else if (tests.length === 1) {
    const t = tests[0]!;
    out = (items as Item[]).filter((item) => isObj(item) && t(item));
  } else out = (items as Item[]).filter((item) => isObj(item) && tests.every((t) => t(item)));
  const total = out.length;
  if (sort) out = sortListed(out, sort);
  if (offset > 0 || limit !== undefined) out = out.slice(offset, limit === undefined ? undefined : offset + limit);
  else if (out === items) out = out.slice(); // the caller's copy, never the stored array
  return { items: out, total };
}
