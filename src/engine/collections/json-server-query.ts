/**
 * json-server's query syntax on a collection (`preset: 'json-server'`), as json-server 0.17
 * documents it, plus the cheap parts of 1.x:
 *
 *   field=value            equality, as text (`?id=1` matches 1 and "1"); repeated = OR
 *   field_ne / _gte / _lte / _like   (0.17)   field_gt / _lt (1.x)   field:gte=… (1.x betas)
 *   a.b=value              nested fields (dot path)
 *   q=text                 full text: any string value (nested too) containing it, any case
 *   _sort=a,b&_order=asc,desc   (1.x: _sort=a,-b)
 *   _page=N&_limit=M       (1.x: _per_page=M)   → X-Total-Count and a Link header
 *   _start=S&_end=E / _start=S&_limit=M / _limit=M
 *   _embed=children / _expand=parent   (resolved by relations.ts; 1.x's _embed=parent too)
 *
 * Every other name is a field filter, so under the preset every query parameter is recognised;
 * other `_`-parameters are ignored, as json-server does. Values are compared as json-server
 * does: equality and `_ne` on the text of the stored value; ranges numerically when the stored
 * value is a number, else as text; `_like` is a case-insensitive regular expression (400 when
 * it is not one). Items without the field never match a filter (except `_ne`).
 * Bad numbers (`_page=0`, `_limit=x`) → 400 naming the parameter.
 */
import { HttpError } from '../../core/errors.js';

export interface JsonServerQuery {
  /** Filters and `q`; empty = every item. */
  readonly test: ((item: unknown) => boolean) | undefined;
  readonly sort: ReadonlyArray<{ path: string[]; desc: boolean }>;
  readonly slice: { start: number; end: number } | undefined;
  /** `_page` / `_limit` when paging by page (for the Link header). */
  readonly page: { page: number; limit: number } | undefined;
  readonly embed: string[];
  readonly expand: string[];
  /** Whether any parameter of this syntax was given. */
  readonly present: boolean;
}

const RESERVED = new Set(['_page', '_limit', '_per_page', '_start', '_end', '_sort', '_order', 'q', '_embed', '_expand']);
const SUFFIX_OPS: ReadonlyArray<[string, Op]> = [['_gte', 'gte'], ['_lte', 'lte'], ['_gt', 'gt'], ['_lt', 'lt'], ['_ne', 'ne'], ['_like', 'like']];
const COLON_OPS = new Set<Op>(['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'like']);
type Op = 'eq' | 'ne' | 'gt' | 'gte' | 'lt' | 'lte' | 'like';

function valueAt(item: unknown, path: readonly string[]): unknown {
  let v: unknown = item;
  for (const k of path) {
    if (v === null || typeof v !== 'object') return undefined;
    if (!Object.prototype.hasOwnProperty.call(v, k)) return undefined;
    v = (v as Record<string, unknown>)[k];
  }
  return v;
}

function text(v: unknown): string {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? JSON.stringify(v) : String(v);
}

function compareRange(stored: unknown, given: string, op: 'gt' | 'gte' | 'lt' | 'lte'): boolean {
  if (stored === undefined || stored === null) return false;
  let a: number | string;
  let b: number | string;
  if (typeof stored === 'number') {
    a = stored;
    b = Number(given);
    if (given.trim() === '' || Number.isNaN(b)) return false;
  } else {
    a = text(stored);
    b = given;
  }
  switch (op) {
    case 'gt': return a > b;
    case 'gte': return a >= b;
    case 'lt': return a < b;
    case 'lte': return a <= b;
  }
}

function deepContains(v: unknown, needle: string, depth = 0): boolean {
  if (typeof v === 'string') return v.toLowerCase().includes(needle);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v).toLowerCase().includes(needle);
  if (v === null || typeof v !== 'object' || depth > 32) return false;
  for (const x of Array.isArray(v) ? v : Object.values(v)) if (deepContains(x, needle, depth + 1)) return true;
  return false;
}

function positiveInt(params: URLSearchParams, name: string, min: number): number | undefined {
  const raw = params.get(name);
  if (raw === null || raw === '') return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new HttpError(400, `Query parameter ${name} must be an integer >= ${min} (got "${raw}")`);
  return n;
}

function list(params: URLSearchParams, name: string): string[] {
  return params.getAll(name).flatMap((v) => v.split(',')).map((s) => s.trim()).filter((s) => s !== '');
}

function splitPath(field: string): string[] {
  return field.split('.');
}

/** Reads the query; throws 400 on bad values. */
export function parseJsonServerQuery(params: URLSearchParams): JsonServerQuery {
  const eq = new Map<string, string[]>();
  const tests: Array<(item: unknown) => boolean> = [];
  let present = false;
  for (const [rawKey, value] of params) {
    if (RESERVED.has(rawKey)) {
      present = true;
      continue;
    }
    if (rawKey.startsWith('_') || value === '') continue;
    present = true;
    let field = rawKey;
    let op: Op = 'eq';
    const colon = rawKey.lastIndexOf(':');
    if (colon > 0 && COLON_OPS.has(rawKey.slice(colon + 1) as Op)) {
      field = rawKey.slice(0, colon);
      op = rawKey.slice(colon + 1) as Op;
    } else {
      for (const [suffix, o] of SUFFIX_OPS) {
        if (rawKey.length > suffix.length && rawKey.endsWith(suffix)) {
          field = rawKey.slice(0, -suffix.length);
          op = o;
          break;
        }
      }
    }
    const path = splitPath(field);
    switch (op) {
      case 'eq': {
        const values = eq.get(field) ?? [];
        values.push(value);
        eq.set(field, values);
        break;
      }
      case 'ne':
        tests.push((item) => {
          const v = valueAt(item, path);
          return v === undefined || v === null || text(v) !== value;
        });
        break;
      case 'like': {
        let re: RegExp;
        try {
          re = new RegExp(value, 'i');
        } catch {
          throw new HttpError(400, `Query parameter ${rawKey} must be a regular expression (got "${value}")`);
        }
        tests.push((item) => {
          const v = valueAt(item, path);
          return v !== undefined && v !== null && re.test(text(v));
        });
        break;
      }
      default:
        tests.push((item) => compareRange(valueAt(item, path), value, op as 'gt'));
    }
  }
  for (const [field, values] of eq) {
    const path = splitPath(field);
    const set = new Set(values);
    tests.push((item) => {
      const v = valueAt(item, path);
      if (v === undefined || v === null) return set.has(String(v));
      if (Array.isArray(v)) return v.some((x) => set.has(text(x))) || set.has(String(v));
      return set.has(text(v));
    });
  }
  const q = params.get('q');
  if (q !== null && q !== '') {
    const needle = q.toLowerCase();
    tests.push((item) => deepContains(item, needle));
  }

  const sortKeys = list(params, '_sort');
  const orders = list(params, '_order').map((o) => o.toLowerCase());
  for (const [i, o] of orders.entries()) if (o !== 'asc' && o !== 'desc') throw new HttpError(400, `Query parameter _order must be asc or desc (got "${orders[i]}")`);
  const sort = sortKeys.map((k, i) => {
    const minus = k.startsWith('-');
    return { path: splitPath(minus ? k.slice(1) : k), desc: minus || orders[i] === 'desc' };
  });

  const pageNo = positiveInt(params, '_page', 1);
  const limit = positiveInt(params, '_limit', 0) ?? positiveInt(params, '_per_page', 1);
  const start = positiveInt(params, '_start', 0);
  const end = positiveInt(params, '_end', 0);
  let slice: JsonServerQuery['slice'];
  let page: JsonServerQuery['page'];
  if (pageNo !== undefined) {
    const size = limit ?? 10;
    page = { page: pageNo, limit: size };
    slice = { start: (pageNo - 1) * size, end: pageNo * size };
  } else if (start !== undefined || end !== undefined || limit !== undefined) {
    const s = start ?? 0;
    slice = { start: s, end: end ?? (limit !== undefined ? s + limit : Infinity) };
  }

  return {
    test: tests.length === 0 ? undefined : tests.length === 1 ? tests[0] : (item) => tests.every((t) => t(item)),
    sort,
    slice,
    page,
    embed: list(params, '_embed'),
    expand: list(params, '_expand'),
    present,
  };
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

export interface QueryResult {
  items: unknown[];
  total: number;
}

/** Filters, sorts (stable) and slices `items` (never mutated). */
export function runJsonServerQuery(items: readonly unknown[], q: JsonServerQuery): QueryResult {
  let out: unknown[] = q.test ? items.filter(q.test) : items.slice();
  const total = out.length;
  if (q.sort.length > 0) {
    const keys = q.sort;
    out = out
      .map((item, i) => ({ item, i }))
      .sort((x, y) => {
        for (const k of keys) {
          const c = compareValues(valueAt(x.item, k.path), valueAt(y.item, k.path));
          if (c !== 0) {
            // Missing values stay last in both directions.
            const missing = valueAt(x.item, k.path) == null || valueAt(y.item, k.path) == null;
            return k.desc && !missing ? -c : c;
          }
        }
        return x.i - y.i;
      })
      .map((e) => e.item);
  }
  if (q.slice) out = out.slice(q.slice.start, q.slice.end === Infinity ? undefined : q.slice.end);
  return { items: out, total };
}

/** json-server's Link header for `_page` paging: first, prev, next, last (absolute URLs). */
export function linkHeader(requestUrl: string, page: { page: number; limit: number }, total: number): string | undefined {
  const last = Math.max(1, Math.ceil(total / page.limit));
  const url = new URL(requestUrl);
  const at = (n: number) => {
    url.searchParams.set('_page', String(n));
    return url.href;
  };
  const links = [`<${at(1)}>; rel="first"`];
  if (page.page > 1) links.push(`<${at(Math.min(page.page - 1, last))}>; rel="prev"`);
  if (page.page < last) links.push(`<${at(page.page + 1)}>; rel="next"`);
  links.push(`<${at(last)}>; rel="last"`);
  return links.join(', ');
}
