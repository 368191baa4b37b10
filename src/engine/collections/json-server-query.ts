/**
 * json-server's query syntax on a collection (`preset: 'json-server'`): 0.17's and 1.x's side by
 * side, each answered as the json-server that documents it answers (measured; fixtures under
 * test/fixtures/json-server/).
 *
 *   field=value            equality, as text (`?id=1` matches 1 and "1"); repeated = OR
 *                          (0.17: a field no item has is ignored, the filter is dropped)
 *   field_ne / _gte / _lte / _like (0.17), field_gt / _lt; repeated: OR'd (`_ne`: each excluded), as 0.17
 *   field:eq|ne|lt|lte|gt|gte|in|contains|startsWith|endsWith=value   (1.x; `in` takes a comma list;
 *                          contains/startsWith/endsWith: strings, any case)
 *   a.b=value, a.b:eq=…    nested fields (dot path)
 *   _where={"or":[…]}      (1.x) a JSON condition: `{ field: value | { op: value } }`, nested
 *                          objects for nested fields, `or` / `and` lists; replaces the field filters
 *   q=text                 full text: any string value (nested too) containing it, any case
 *   _sort=a,b&_order=asc,desc   (1.x: _sort=a,-b)
 *   _page=N&_limit=M       0.17: the page as an array, X-Total-Count and a Link header
 *   _page=N&_per_page=M    1.x: `{ first, prev, next, last, pages, items, data }`
 *   _start=S&_end=E / _start=S&_limit=M / _limit=M   as Array.slice (negative counts from the end)
 *   _embed=children / _expand=parent   (relations.ts; 1.x's _embed=parent too)
 *   callback=fn            JSONP (0.17), answered by json-server/layer.ts
 *
 * Numbers are read as json-server reads them (parseInt; `_page=0` or `_page=abc` is page 1,
 * `_limit=abc` an empty slice), never refused. `_like=(` and a `_where` that is not JSON are 400s
 * (json-server: a 500 and a silently ignored filter).
 */
import { HttpError } from '../../core/errors.js';
import { getAt } from '../file-cache/dot-path.js';
import { inherited, type Predicate, type SimpleFilter } from '../file-cache/filters.js';
import { text } from '../store/query.js';
import type { CollectionQuery } from '../store-contract/contract.js';
import { isObj } from '../../core/json-object.js';

type Test = (item: unknown) => boolean;

/** json-server's query syntax parsed: the store's query (filters, sort, slice, envelope) and what the layer answers itself. */
export interface JsonServerQuery extends CollectionQuery {
  readonly sort: ReadonlyArray<{ path: string[]; desc: boolean }>;
  /** `_page` / `_limit` when paging by page (for the Link header). */
  readonly page: { page: number; limit: number } | undefined;
  readonly embed: string[];
  readonly expand: string[];
  /** Whether any parameter of this syntax was given. */
  readonly present: boolean;
}

const RESERVED = new Set(['_page', '_limit', '_per_page', '_start', '_end', '_sort', '_order', 'q', '_embed', '_expand', '_where', 'callback']);
const SUFFIX_OPS: ReadonlyArray<[string, Op]> = [['_gte', 'gte'], ['_lte', 'lte'], ['_gt', 'gt'], ['_lt', 'lt'], ['_ne', 'ne'], ['_like', 'like']];
const OPS = ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'like', 'in', 'contains', 'startsWith', 'endsWith'] as const;
type Op = (typeof OPS)[number];
const COLON_OPS = new Set<string>(OPS);

function compareRange(stored: unknown, given: unknown, op: 'gt' | 'gte' | 'lt' | 'lte'): boolean {
  if (stored === undefined || stored === null) return false;
  let a: number | string;
  let b: number | string;
  if (typeof stored === 'number') {
    a = stored;
    b = typeof given === 'number' ? given : Number(given);
    if ((typeof given === 'string' && given.trim() === '') || Number.isNaN(b)) return false;
  } else {
    a = text(stored);
    b = text(given);
  }
  switch (op) {
    case 'gt': return a > b;
    case 'gte': return a >= b;
    case 'lt': return a < b;
    case 'lte': return a <= b;
  }
}

/** One operator on a stored value; `given` is the query's text or a `_where` JSON value. */
function matches(stored: unknown, op: Op, given: unknown, like?: RegExp): boolean {
  switch (op) {
    case 'eq':
      if (stored === undefined || stored === null) return given === null || String(given) === String(stored);
      if (Array.isArray(stored) && typeof given !== 'object') return stored.some((x) => text(x) === String(given));
      return text(stored) === text(given);
    case 'ne':
      return stored === undefined || stored === null || text(stored) !== text(given);
    case 'like':
      return stored !== undefined && stored !== null && like!.test(text(stored));
    case 'in': {
      const list = Array.isArray(given) ? given : String(given).split(',').map((s) => s.trim());
      return stored !== undefined && stored !== null && list.some((g) => text(g) === text(stored));
    }
    case 'contains':
    case 'startsWith':
    case 'endsWith': {
      if (typeof stored !== 'string') return false;
      const s = stored.toLowerCase();
      const g = String(given).toLowerCase();
      return op === 'contains' ? s.includes(g) : op === 'startsWith' ? s.startsWith(g) : s.endsWith(g);
    }
    default:
      return compareRange(stored, given, op);
  }
}

function regex(value: string, name: string): RegExp {
  try {
    return new RegExp(value, 'i');
  } catch {
    throw new HttpError(400, `Query parameter ${name} must be a regular expression (got "${value}")`);
  }
}

/** A `_where` condition (1.x): fields → value or `{ op: value }`, nested objects, `or`/`and` lists. */
function whereTest(cond: Record<string, unknown>, base: readonly string[] = []): Test {
  const parts: Test[] = [];
  for (const [key, value] of Object.entries(cond)) {
    if ((key === 'or' || key === 'and') && base.length === 0 && Array.isArray(value)) {
      const subs = value.filter(isObj).map((v) => whereTest(v));
      parts.push(key === 'or' ? (item) => subs.some((t) => t(item)) : (item) => subs.every((t) => t(item)));
      continue;
    }
    const path = [...base, ...key.split('.')];
    if (isObj(value)) {
      const ops = Object.keys(value).filter((k): k is Op => COLON_OPS.has(k));
      if (ops.length > 0) {
        const like = ops.includes('like') ? regex(String(value.like), `_where ${key}.like`) : undefined;
        parts.push((item) => ops.every((op) => matches(getAt(item, path), op, value[op], like)));
      } else parts.push(whereTest(value, path));
      continue;
    }
    parts.push((item) => matches(getAt(item, path), 'eq', value));
  }
  return (item) => parts.every((t) => t(item));
}

function deepContains(v: unknown, needle: string, depth = 0): boolean {
  if (typeof v === 'string') return v.toLowerCase().includes(needle);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v).toLowerCase().includes(needle);
  if (v === null || typeof v !== 'object' || depth > 32) return false;
  for (const x of Array.isArray(v) ? v : Object.values(v)) if (deepContains(x, needle, depth + 1)) return true;
  return false;
}

/**
 * `test` with what the compiled scan needs to inline it, when the comparison on a top-level field
 * settles the common item exactly as `test` does: equal strings match (`eq`/`ne`/`in` compare as
 * text, and a string's text is itself), and numbers compare as numbers with a numeric bound (as
 * compareRange does); every other stored type goes through `test` itself.
 */
function withSimple(test: Test, path: readonly string[], op: Op, given: string | readonly string[]): Predicate {
  const pred: Predicate = test;
  if (path.length !== 1 || inherited(path[0]!)) return pred;
  const key = path[0]!;
  let simple: SimpleFilter | undefined;
  if (typeof given !== 'string') simple = { key, base: 'string', cmp: 'in', value: new Set(given), missing: false };
  else if (op === 'eq' || op === 'ne') simple = { key, base: 'string', cmp: op === 'eq' ? 'eq' : 'neq', value: given, missing: op === 'ne' };
  else if (op === 'gt' || op === 'gte' || op === 'lt' || op === 'lte') {
    const n = Number(given);
    if (given.trim() !== '' && !Number.isNaN(n)) simple = { key, base: 'number', cmp: op, value: n, missing: false };
  }
  if (simple) pred.simple = simple;
  return pred;
}

/** `parseInt` as json-server reads its numbers (NaN when absent or not a number). */
function int(params: URLSearchParams, name: string): number {
  const raw = params.get(name);
  return raw === null ? NaN : Number.parseInt(raw, 10);
}

function list(params: URLSearchParams, name: string): string[] {
  return params.getAll(name).flatMap((v) => v.split(',')).map((s) => s.trim()).filter((s) => s !== '');
}

function splitPath(field: string): string[] {
  return field.split('.');
}

/** Reads the query; throws 400 on a bad `_like` RegExp or `_where`. */
export function parseJsonServerQuery(params: URLSearchParams): JsonServerQuery {
  const eq = new Map<string, string[]>();
  const tests: Test[] = [];
  const fieldTests: Test[] = [];
  const anyOf = new Map<string, { field: string; op: Op; values: string[] }>();
  let present = false;
  const given: string[] = [];
  for (const [rawKey, value] of params) {
    if (RESERVED.has(rawKey)) {
      present = true;
      continue;
    }
    if (rawKey.startsWith('_') || value === '') continue;
    present = true;
    given.push(rawKey, value);
    let field = rawKey;
    let op: Op = 'eq';
    const colon = rawKey.lastIndexOf(':');
    if (colon > 0 && COLON_OPS.has(rawKey.slice(colon + 1))) {
      field = rawKey.slice(0, colon);
      op = rawKey.slice(colon + 1) as Op;
      if (op === 'eq') {
        const path = splitPath(field);
        fieldTests.push(withSimple((item) => matches(getAt(item, path), 'eq', value), path, 'eq', value));
        continue;
      }
    } else {
      for (const [suffix, o] of SUFFIX_OPS) {
        if (rawKey.length > suffix.length && rawKey.endsWith(suffix)) {
          field = rawKey.slice(0, -suffix.length);
          op = o;
          break;
        }
      }
    }
    if (op === 'eq') {
      const values = eq.get(field) ?? [];
      values.push(value);
      eq.set(field, values);
      continue;
    }
    if (op !== 'ne' && colon <= 0) {
      // 0.17: a repeated operator's values are OR'd (`?views_gte=5&views_gte=4`, `?title_like=a&title_like=b`); `_ne` excludes each.
      const group = anyOf.get(rawKey);
      if (group) group.values.push(value);
      else anyOf.set(rawKey, { field, op, values: [value] });
      continue;
    }
    const path = splitPath(field);
    const like = op === 'like' ? regex(value, rawKey) : undefined;
    fieldTests.push(withSimple((item) => matches(getAt(item, path), op, value, like), path, op, value));
  }
  for (const [rawKey, { field, op, values }] of anyOf) {
    const path = splitPath(field);
    const likes = values.map((v) => (op === 'like' ? regex(v, rawKey) : undefined));
    if (values.length === 1) fieldTests.push(withSimple((item) => matches(getAt(item, path), op, values[0], likes[0]), path, op, values[0]!));
    else fieldTests.push((item) => values.some((v, i) => matches(getAt(item, path), op, v, likes[i])));
  }
  const whereRaw = params.get('_where');
  let where: Test | undefined;
  if (whereRaw !== null && whereRaw !== '') {
    let cond: unknown;
    try {
      cond = JSON.parse(whereRaw);
    } catch {
      throw new HttpError(400, `Query parameter _where must be a JSON object such as {"or":[{"views":{"gt":100}}]} (got "${whereRaw}")`);
    }
    if (!isObj(cond)) throw new HttpError(400, 'Query parameter _where must be a JSON object such as {"or":[{"views":{"gt":100}}]}');
    where = whereTest(cond);
  }
  // json-server 1.x: a valid `_where` replaces the field filters.
  if (where) tests.push(where);
  else tests.push(...fieldTests);
  const equals: Array<{ path: string[]; test: Predicate }> = [];
  for (const [field, values] of where ? [] : eq) {
    const path = splitPath(field);
    const test: Test = values.length === 1 ? (item) => matches(getAt(item, path), 'eq', values[0]) : (item) => values.some((v) => matches(getAt(item, path), 'eq', v));
    equals.push({ path, test: withSimple(test, path, 'eq', values.length === 1 ? values[0]! : values) });
  }
  const q = params.get('q');
  if (q !== null && q !== '') {
    const needle = q.toLowerCase();
    tests.push((item) => deepContains(item, needle));
  }

  const sortKeys = list(params, '_sort');
  const orders = list(params, '_order').map((o) => o.toLowerCase());
  const sort = sortKeys.map((k, i) => {
    const minus = k.startsWith('-');
    return { path: splitPath(minus ? k.slice(1) : k), desc: minus || orders[i] === 'desc' };
  });

  // Paging and slicing, as each json-server reads them.
  let slice: JsonServerQuery['slice'];
  let page: JsonServerQuery['page'];
  let envelope: JsonServerQuery['envelope'];
  const pageRaw = params.get('_page');
  const perPageRaw = params.get('_per_page');
  const limitRaw = params.get('_limit');
  const endRaw = params.get('_end');
  if (pageRaw !== null && perPageRaw !== null) {
    const n = Number.parseInt(pageRaw, 10);
    const per = Number.parseInt(perPageRaw, 10);
    envelope = { page: Number.isFinite(n) ? n : 1, perPage: Number.isFinite(per) && per > 0 ? per : 1 };
  } else if (pageRaw) {
    const n = int(params, '_page');
    const p = n >= 1 ? n : 1;
    const limit = int(params, '_limit') || 10;
    page = { page: p, limit };
    slice = { start: (p - 1) * limit, end: p * limit };
  } else if (endRaw) {
    slice = { start: int(params, '_start') || 0, end: int(params, '_end') };
  } else if (limitRaw) {
    const start = int(params, '_start') || 0;
    slice = { start, end: start + int(params, '_limit') };
  } else if (params.get('_start')) {
    slice = { start: int(params, '_start') || 0, end: undefined };
  }

  return {
    test: tests.length === 0 ? undefined : tests.length === 1 ? tests[0] : (item) => tests.every((t) => t(item)),
    equals,
    filters: tests,
    signature: given.length === 0 && (whereRaw === null || whereRaw === '') && (q === null || q === '') ? '' : JSON.stringify([given, whereRaw, q]),
    sort,
    slice,
    page,
    envelope,
    embed: list(params, '_embed'),
    expand: list(params, '_expand'),
    present,
  };
}

const PAGE_MARK = 'MOCKYARDPAGEMARK';

/**
 * json-server 0.17's Link header for `_page` paging: first, prev, next, last (absolute URLs), or
 * undefined when the page holds every item or none (0.17 then sends an empty Link).
 */
export function linkHeader(requestUrl: string, page: { page: number; limit: number }, total: number): string | undefined {
  const start = (page.page - 1) * page.limit;
  const shown = Math.max(0, Math.min(total, page.page * page.limit) - start);
  if (shown === 0 || shown === total) return undefined;
  const last = Math.ceil(total / page.limit);
  const at = plainPageLinks(requestUrl) ?? parsedPageLinks(requestUrl);
  const links = [`<${at(1)}>; rel="first"`];
  if (page.page > 1) links.push(`<${at(page.page - 1)}>; rel="prev"`);
  if (page.page * page.limit < total) links.push(`<${at(page.page + 1)}>; rel="next"`);
  links.push(`<${at(last)}>; rel="last"`);
  return links.join(', ');
}

/** Origin and path that the URL parser gives back unchanged (lower-case host, no default port, plain segments). */
const PLAIN_BASE = /^https?:\/\/[a-z0-9-]+(?:\.[a-z0-9-]+)*(?::[1-9]\d{0,4})?(?:(?:\/[A-Za-z0-9_~-][A-Za-z0-9._~-]*)+\/?|\/)$/;
/** A query pair that URLSearchParams serialises back unchanged. */
const PLAIN_PAIR = /^[A-Za-z0-9*._-]+=[A-Za-z0-9*._-]*$/;

/**
 * The page links of a URL that needs no parsing (the common `?role=admin&_page=2&_limit=20`):
 * setting `_page` through URLSearchParams would change nothing but that value, so it is swapped
 * in place. Undefined for any other URL.
 */
function plainPageLinks(requestUrl: string): ((n: number) => string) | undefined {
  const q = requestUrl.indexOf('?');
  if (q === -1 || requestUrl.includes('#')) return undefined;
  const base = requestUrl.slice(0, q);
  if (!PLAIN_BASE.test(base) || /^[^/]*\/\/[^/]*:(?:80|443)\//.test(base)) return undefined; // a default port would be dropped
  const pairs = requestUrl.slice(q + 1).split('&');
  let at = -1;
  for (let i = 0; i < pairs.length; i++) {
    const p = pairs[i]!;
    if (!PLAIN_PAIR.test(p)) return undefined;
    if (p.startsWith('_page=')) {
      if (at !== -1) return undefined; // a repeated _page: set() drops the later ones
      at = i;
    }
  }
  if (at === -1) return undefined;
  const before = `${base}?${pairs.slice(0, at).map((p) => `${p}&`).join('')}_page=`;
  const after = pairs.slice(at + 1).map((p) => `&${p}`).join('');
  return (n) => `${before}${n}${after}`;
}

function parsedPageLinks(requestUrl: string): (n: number) => string {
  // The request's URL with `_page` set, serialised as URLSearchParams does: once, with a marker
  // where the page number goes, then each link is two concatenations.
  const url = new URL(requestUrl);
  url.searchParams.set('_page', PAGE_MARK);
  const href = url.href;
  const cut = href.indexOf(PAGE_MARK);
  return cut !== -1 && href.indexOf(PAGE_MARK, cut + 1) === -1
    ? (n: number) => `${href.slice(0, cut)}${n}${href.slice(cut + PAGE_MARK.length)}`
    : (n: number) => {
      url.searchParams.set('_page', String(n));
      return url.href;
    };
}
