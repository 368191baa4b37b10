/**
 * Removing an item of a collection with its dependants: the one delete that every surface
 * removing an item over the json-server preset uses (REST's `DELETE <name>/<id>` in
 * collections/layer.ts, the admin API's `DELETE data/<name>/<id>` in devtools/admin-data.ts), so
 * both leave the same data and count the same.
 *
 * The item goes first (in its collection's write queue); then, per dependant collection, every
 * item whose relation field (store/relations.ts: `postId` for `posts`) holds its id, each
 * collection in one write of its own. Which collections are asked: `dependants` names them
 * (json-server 1.x's `?_dependent=comments`), `'next-to'` asks every JSON file next to the
 * collection (json-server 0.17 removes the dependants of a deleted parent), `'none'` removes the
 * item alone (file mode without the preset). `deleted` counts the item and its dependants
 * (REST's `X-Deleted-Count`).
 */
import type { CollectionSnapshot, CollectionStore, Item } from '../store-contract/contract.js';
import { idKeyOf } from './item-id.js';
import { referencedIds } from './references.js';
import { holdsField, relationField } from './relations.js';

export type Dependants = 'none' | 'next-to' | readonly string[];

export interface RemovedWithDependants {
  /** The item as it was. */
  readonly removed: Item;
  /** The item and its dependants removed. */
  readonly deleted: number;
}

/** A sibling collection's name (`v1/posts` + `comments` → `v1/comments`). */
function siblingName(of: string, name: string): string {
  const cut = of.lastIndexOf('/');
  return cut < 0 ? name : `${of.slice(0, cut)}/${name}`;
}

/**
 * Removes item `id` of `collection` and, as `dependants` says, the items that refer to it.
 * `check` runs in the write queue with the item as it stands (undefined: none) and may throw
 * (an `If-Match` precondition, a 404) before anything is written. Undefined when there was no item.
 */
export async function removeWithDependants(
  store: CollectionStore,
  collection: CollectionSnapshot,
  id: string,
  dependants: Dependants,
  check?: (current: Item | undefined) => void,
): Promise<RemovedWithDependants | undefined> {
  const removed = await store.transaction(collection, (tx) => {
    check?.(tx.get(id));
    return tx.remove(id);
  });
  if (removed === undefined) return undefined;
  let deleted = 1;
  if (dependants === 'none') return { removed, deleted };
  const parentName = collection.name;
  const names = dependants === 'next-to' ? await store.namesNextTo(collection) : dependants;
  for (const name of names) {
    if (name.includes('/')) continue; // a sibling is one name, never a path
    const childName = siblingName(parentName, name);
    const peeked = store.peek(childName);
    const children = peeked === undefined ? await store.open(childName) : peeked;
    if (!children) continue;
    const fk = relationField(store.relations, childName, parentName, holdsField(children.items));
    if (fk === undefined) continue;
    // No child of this item in the stored array, and no write queued that could add one: nothing to write.
    if (!referencedIds(children.items, fk).has(id) && children.settled) continue;
    deleted += (await store.transaction(children, (tx) => tx.removeWhere((child) => idKeyOf(child, fk) === id))).length;
  }
  return { removed, deleted };
}
