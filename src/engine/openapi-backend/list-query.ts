/**
 * A list operation's own query parameters applied to a collection's items: filters (a documented
 * query parameter named as an item field: `?status=sold`, several values or `a,b` match any) and
 * paging in the style the document uses:
 *
 *   offset/limit (also skip)            ?offset=20&limit=10
 *   page/size (per_page, page_size,     ?page=2&per_page=10 (pages from 1)
 *     pageSize, perPage, size, limit)
 *   cursor (cursor, after,              ?cursor=<opaque> (the next page's cursor is in the Link
 *     starting_after, page_token)        header and in a `next…` field of an object answer)
 *
 * A page size the request omits takes the parameter's documented default, else the whole list.
 */
import { isObj } from '../../core/json-object.js';
import type { Parameter } from '../openapi-document/operations.js';

type Obj = Record<string, unknown>;

const OFFSET = ['offset', 'skip', 'start'];
const PAGE = ['page', 'pagenumber', 'pageno', 'pageindex'];
const SIZE = ['limit', 'perpage', 'pagesize', 'size', 'count', 'pagelimit', 'maxresults', 'first'];
const CURSOR = ['cursor', 'after', 'startingafter', 'pagetoken', 'nextcursor', 'continuationtoken', 'since'];

const norm = (s: string) => s.replace(/[-_]/g, '').toLowerCase();

export interface Paging {
  offsetParam?: string;
  pageParam?: string;
  sizeParam?: string;
  cursorParam?: string;
  defaultSize?: number;
  pageBase: number;
}

export interface ListPage {
  items: unknown[];
  total: number;
  offset: number;
  size: number;
  /** The next page's query changes (`{ cursor: 'MjA' }`), or undefined on the last page. */
  next?: Record<string, string>;
  prev?: Record<string, string>;
}

export function pagingOf(parameters: Parameter[], deref: (n: unknown) => unknown): Paging {
  const query = parameters.filter((p) => p.in === 'query');
  const find = (names: string[]) => query.find((p) => names.includes(norm(p.name)));
  const size = find(SIZE);
  const sizeSchema = size ? deref(size.schema) : undefined;
  const page = find(PAGE);
  const pageSchema = page ? deref(page.schema) : undefined;
  const minimum = isObj(pageSchema) && typeof pageSchema.minimum === 'number' ? pageSchema.minimum : 1;
  return {
    offsetParam: find(OFFSET)?.name,
    pageParam: page?.name,
    sizeParam: size?.name,
    cursorParam: find(CURSOR)?.name,
    defaultSize: isObj(sizeSchema) && typeof sizeSchema.default === 'number' ? sizeSchema.default : undefined,
    pageBase: minimum === 0 ? 0 : 1,
  };
}

/** Query parameters of the operation that filter (named as a top-level field of the items). */
export function filtersOf(parameters: Parameter[], paging: Paging, itemFields: Set<string>): string[] {
  const taken = new Set([paging.offsetParam, paging.pageParam, paging.sizeParam, paging.cursorParam]);
  return parameters.filter((p) => p.in === 'query' && !taken.has(p.name) && itemFields.has(p.name)).map((p) => p.name);
}

function matches(value: unknown, wanted: string[]): boolean {
  if (Array.isArray(value)) return value.some((v) => matches(v, wanted));
  if (isObj(value)) return false;
  return wanted.includes(String(value));
}

const encodeCursor = (n: number) => btoa(`o:${n}`).replace(/=+$/, '');
function decodeCursor(c: string): number | undefined {
  try {
    const m = /^o:(\d+)$/.exec(atob(c));
    return m ? Number(m[1]) : undefined;
  } catch {
    return undefined;
  }
}

const intOf = (raw: string | null, min: number): number | undefined => {
  if (raw === null || !/^\d+$/.test(raw)) return undefined;
  return Math.max(min, Number(raw));
};

export function listPage(items: unknown[], query: URLSearchParams, paging: Paging, filters: string[]): ListPage {
  let list = items;
  for (const name of filters) {
    const wanted = query.getAll(name).flatMap((v) => v.split(',')).filter((v) => v !== '');
    if (wanted.length) list = list.filter((item) => isObj(item) && matches(item[name], wanted));
  }
  const total = list.length;
  const sizeRaw = paging.sizeParam ? intOf(query.get(paging.sizeParam), 0) : undefined;
  const size = sizeRaw ?? paging.defaultSize ?? total;
  let offset = 0;
  let style: 'offset' | 'page' | 'cursor' | undefined;
  if (paging.cursorParam && query.get(paging.cursorParam)) {
    const raw = query.get(paging.cursorParam)!;
    offset = decodeCursor(raw) ?? 0;
    style = 'cursor';
  } else if (paging.offsetParam && query.get(paging.offsetParam) !== null) {
    offset = intOf(query.get(paging.offsetParam), 0) ?? 0;
    style = 'offset';
  } else if (paging.pageParam && query.get(paging.pageParam) !== null) {
    offset = Math.max(0, ((intOf(query.get(paging.pageParam), paging.pageBase) ?? paging.pageBase) - paging.pageBase) * size);
    style = 'page';
  }
  style ??= paging.cursorParam ? 'cursor' : paging.offsetParam ? 'offset' : paging.pageParam ? 'page' : undefined;
  const page = list.slice(offset, offset + size);
  const more = offset + size < total && size > 0;
  const at = (o: number): Record<string, string> | undefined => {
    if (style === 'cursor') return { [paging.cursorParam!]: encodeCursor(o) };
    if (style === 'offset') return { [paging.offsetParam!]: String(o), ...(paging.sizeParam ? { [paging.sizeParam]: String(size) } : {}) };
    if (style === 'page') return { [paging.pageParam!]: String(Math.floor(o / size) + paging.pageBase), ...(paging.sizeParam ? { [paging.sizeParam]: String(size) } : {}) };
    return undefined;
  };
  return {
    items: page,
    total,
    offset,
    size,
    ...(more ? { next: at(offset + size) } : {}),
    ...(offset > 0 && size > 0 ? { prev: at(Math.max(0, offset - size)) } : {}),
  };
}

/** Fills the paging fields of an object answer (`total`, `next_cursor`, `page`, `has_more`…). */
export function fillPageFields(wrapper: Obj, page: ListPage, paging: Paging): void {
  for (const key of Object.keys(wrapper)) {
    const k = norm(key);
    if (['total', 'totalcount', 'totalitems', 'totalresults', 'count', 'totalrecords'].includes(k)) wrapper[key] = page.total;
    else if (['nextcursor', 'cursor', 'next', 'nextpagetoken', 'nexttoken', 'endcursor'].includes(k)) wrapper[key] = page.next && paging.cursorParam ? page.next[paging.cursorParam] ?? null : null;
    else if (['hasmore', 'hasnext', 'hasnextpage', 'more'].includes(k)) wrapper[key] = page.next !== undefined;
    else if (k === 'page' || k === 'pagenumber') wrapper[key] = Math.floor(page.offset / Math.max(1, page.size)) + paging.pageBase;
    else if (['perpage', 'pagesize', 'limit', 'size'].includes(k)) wrapper[key] = page.size;
    else if (k === 'offset') wrapper[key] = page.offset;
    else if (['totalpages', 'pages', 'pagecount'].includes(k)) wrapper[key] = page.size > 0 ? Math.ceil(page.total / page.size) : 1;
  }
}
