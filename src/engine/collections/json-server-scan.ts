/**
 * A json-server query on a cached collection file, at file mode's speed: the query's filters run
 * as the compiled scan over the entry's columns (fs/scan.ts through fs/query.ts `scanInOrder`),
 * walking a sort order built once per stored array and `_sort`, keeping only the page asked for,
 * with file mode's match memo (a filter seen twice keeps its matches until the file changes).
 * The answer is the one runJsonServerQuery gives on the same items (same rules: json-server-query.ts).
 */
import type { FileEntry } from '../fs/file-cache.js';
import type { Predicate } from '../fs/filters.js';
import { scanInOrder, type Ordering } from '../fs/query.js';
import { anyHas, sortIndices, windowOf, type JsonServerQuery, type QueryResult } from './json-server-query.js';

const MAX_ORDERS = 8;
const orders = new WeakMap<readonly unknown[], Map<string, Uint32Array>>();

function ordering(items: readonly unknown[], sort: JsonServerQuery['sort']): Ordering {
  const key = `js:${JSON.stringify(sort)}`;
  return {
    key,
    indices() {
      let byKey = orders.get(items);
      if (byKey === undefined) orders.set(items, (byKey = new Map()));
      let order = byKey.get(key);
      if (order === undefined) {
        if (byKey.size >= MAX_ORDERS) byKey.clear();
        byKey.set(key, (order = sortIndices(items, sort)));
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
    known.set(key, (has = anyHas(items, path)));
  }
  return has;
}

/** runJsonServerQuery(entry.array, q), scanned instead of filtered and sorted in full. */
export function queryEntry(entry: FileEntry, q: JsonServerQuery): QueryResult {
  const items = entry.array!;
  const equals = q.equals.filter((e) => hasField(items, e.path));
  // Equality first: it usually rejects most items, so the other tests run on few.
  let predicates: readonly Predicate[] = q.filters;
  if (equals.length > 0) predicates = [...equals.map((e) => e.test), ...q.filters];
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
  // Negative or empty slices, 1.x's envelope: every match, then the window as runJsonServerQuery takes it.
  const all = scanInOrder(entry, items, predicates, order, 0, Infinity, false, signature);
  return windowOf(all.page, all.total, q);
}
