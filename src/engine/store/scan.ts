/**
 * Queries on a stored collection at file mode's speed: the filters run as the compiled scan over
 * the cached entry's columns (file-cache/scan.ts through file-cache/query.ts `scanInOrder`), walking a sort order
 * built once per stored array and sort, keeping only the page asked for, with file mode's match
 * memo (a filter seen twice keeps its matches until the file changes).
 *
 *   queryEntry   a CollectionQuery (query.ts; json-server's syntax): the answer `runQuery` gives
 *   listEntry    a ListQuery (list-query.ts; `store.list`): the answer `runListQuery` gives
 */
import type { FileEntry } from '../file-cache/file-cache.js';
import type { Predicate } from '../file-cache/filters.js';
import { scanInOrder, type Ordering } from '../file-cache/query.js';
import type { Item, ListQuery, ListResult, CollectionQuery, QueryResult } from '../store-contract/contract.js';
import { compileListQuery, isCollection, sortListed } from './list-query.js';
import { anyHas, sortIndices, windowOf } from './query.js';
import { isObj } from '../../core/json-object.js';

const MAX_ORDERS = 8;
const orders = new WeakMap<readonly unknown[], Map<string, Uint32Array>>();

function ordering(items: readonly unknown[], sort: CollectionQuery['sort']): Ordering {
  const key = `js:${JSON.stringify(sort)}`;
  return {
    key,
    indices() {
      let byKey = orders.get(items);
      if (byKey === undefined) orders.set(items, (byKey = new Map()));
      let order = byKey.get(key);
      if (order === undefined) {
        if (byKey.size >= MAX_ORDERS) byKey.clear();
        order = sortIndices(items, sort);
        byKey.set(key, order);
      }
      return order;
    },
  };
}

const fieldPresence = new WeakMap<readonly unknown[], Map<string, boolean>>();

/** anyHas, remembered per stored array and field. */
function hasField(items: readonly unknown[], path: readonly string[]): boolean {
  let known = fieldPresence.get(items);
  if (known === undefined) fieldPresence.set(items, (known = new Map()));
  const key = path.join('\u0000');
  let has = known.get(key);
  if (has === undefined) {
    if (known.size >= 64) known.clear();
    has = anyHas(items, path);
    known.set(key, has);
  }
  return has;
}

/** runQuery(entry.array, q), scanned instead of filtered and sorted in full. */
export function queryEntry(entry: FileEntry, q: CollectionQuery): QueryResult {
  const items = entry.array!;
  const equals = q.equals.filter((e) => hasField(items, e.path));
  // Equality first: it usually rejects most items, so the other tests run on few.
  let predicates = q.filters as readonly Predicate[];
  if (equals.length > 0) predicates = [...equals.map((e) => e.test as Predicate), ...predicates];
  // The equality filters kept depend only on the items, which the memo lives with.
  const signature = q.signature === '' ? '' : `js:${q.signature}`;
  const order = q.sort.length > 0 ? ordering(items, q.sort) : undefined;
  const slice = q.envelope ? undefined : q.slice;
  if (slice !== undefined && slice.start >= 0 && (slice.end === undefined || slice.end >= slice.start)) {
    const limit = slice.end === undefined ? Infinity : slice.end - slice.start;
    const r = scanInOrder(entry, items, predicates, order, slice.start, limit, false, signature);
    return { items: r.page, total: r.total };
  }
  if (slice === undefined && !q.envelope) {
    const r = scanInOrder(entry, items, predicates, order, 0, Infinity, false, signature);
    return { items: r.page, total: r.total };
  }
  // Negative or empty slices, 1.x's envelope: every match, then the window as runQuery takes it.
  const all = scanInOrder(entry, items, predicates, order, 0, Infinity, false, signature);
  return windowOf(all.page, all.total, q);
}

/** runListQuery(entry.array, idField, query), the filters scanned (with the match memo); 400 on a bad offset or limit. */
export function listEntry(entry: FileEntry, idField: string, query?: ListQuery): ListResult {
  const items = entry.array!;
  const { tests, signature, offset, limit, sort } = compileListQuery(idField, query);
  // Items that are no objects are never listed: each test skips them (the scan may run tests in any order).
  const guarded = !isCollection(items);
  const predicates: Predicate[] = tests.map((t) => (guarded ? (item: unknown) => isObj(item) && t(item) : (t as Predicate)));
  if (guarded && predicates.length === 0) predicates.push(isObj);
  const sig = signature === '' && guarded ? 'ls:items' : signature;
  if (sort === undefined) {
    const r = scanInOrder(entry, items, predicates, undefined, offset, limit ?? Infinity, false, sig);
    return { items: r.page as Item[], total: r.total };
  }
  // Sorted after filtering, as runListQuery sorts: the same order whatever the values' types.
  const all = scanInOrder(entry, items, predicates, undefined, 0, Infinity, false, sig);
  const sorted = sortListed(all.page as Item[], sort);
  return { items: offset > 0 || limit !== undefined ? sorted.slice(offset, limit === undefined ? undefined : offset + limit) : sorted, total: all.total };
}
