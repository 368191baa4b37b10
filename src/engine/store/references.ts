/**
 * Which ids a collection's items refer to through one field (`postId` of comments), per version
 * of the collection: stored arrays are never mutated (a write stores a new array), so the set is
 * built once per array and field and stays right for as long as that array is the collection.
 * A delete under the json-server preset asks it before it queues a write on every sibling
 * collection: one that holds no child of the deleted item is not touched at all.
 */
import { idKeyOf, type IdKey } from './item-id.js';

const sets = new WeakMap<readonly unknown[], Map<string, ReadonlySet<IdKey>>>();
const MAX_FIELDS = 16;

/** The ids `items` name in `field` (compared as ids are: `1` and `"1"` alike). */
export function referencedIds(items: readonly unknown[], field: string): ReadonlySet<IdKey> {
  let byField = sets.get(items);
  if (byField === undefined) sets.set(items, (byField = new Map()));
  let ids = byField.get(field);
  if (ids === undefined) {
    const built = new Set<IdKey>();
    for (let i = 0; i < items.length; i++) {
      const k = idKeyOf(items[i], field);
      if (k !== undefined) built.add(k);
    }
    if (byField.size >= MAX_FIELDS) byField.clear();
    byField.set(field, (ids = built));
  }
  return ids;
}
