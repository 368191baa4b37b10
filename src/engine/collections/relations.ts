/**
 * json-server's relations (`preset: 'json-server'`), by the store's relation naming
 * (store/relations.ts: json-server's `postId` convention by default, or declared in
 * `mock.store.relations`): an item of `comments` with `postId: 1` belongs to the item `1` of `posts`.
 *   _embed=comments   on posts:     each post gets `comments: [...]` (the comments with postId = its id)
 *   _expand=post      on comments:  each comment gets `post: {...}` (the post whose id = its postId)
 *   GET  /posts/1/comments          the comments with postId = 1 (then the query applies)
 *   POST /posts/1/comments          appends to comments with postId = 1
 * Collections are looked up next to each other (same folder of the mocks, or keys of db.json).
 * Items are copied, never changed; an unknown collection name embeds/expands nothing.
 */
import { idKeyOf } from '../store/item-id.js';

/** Items with their children embedded under `name` (copies). */
export function embed(items: readonly unknown[], name: string, children: readonly unknown[], fk: string, idField: string): unknown[] {
  const byParent = new Map<string, unknown[]>();
  for (const c of children) {
    const k = idKeyOf(c, fk);
    if (k === undefined) continue;
    let list = byParent.get(k);
    if (!list) byParent.set(k, (list = []));
    list.push(c);
  }
  return items.map((item) => {
    const k = idKeyOf(item, idField);
    if (k === undefined) return item;
    return { ...(item as object), [name]: byParent.get(k) ?? [] };
  });
}

/** Items with their parent (named by `fk`) expanded under `name` (copies); `parents` is the parent collection. */
export function expand(items: readonly unknown[], name: string, parents: readonly unknown[], fk: string, idField: string): unknown[] {
  const byId = new Map<string, unknown>();
  for (const p of parents) {
    const k = idKeyOf(p, idField);
    if (k !== undefined && !byId.has(k)) byId.set(k, p);
  }
  return items.map((item) => {
    const k = idKeyOf(item, fk);
    if (k === undefined || !byId.has(k)) return item;
    return { ...(item as object), [name]: byId.get(k) };
  });
}
