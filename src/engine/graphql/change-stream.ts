/**
 * The store's change events as the async iterator a GraphQL subscription field returns: the
 * items of one collection created, updated or removed, in order, from the moment the store has
 * its snapshot (so an edit right after subscribing is seen). Ending the iterator (`return`)
 * stops listening.
 */
import type { CollectionStore, Item, StoreChange } from '../store/store.js';

export async function changeStream(store: CollectionStore, collection: string, type: StoreChange['type']): Promise<AsyncIterableIterator<Item>> {
  const queued: Item[] = [];
  let waiting: ((r: IteratorResult<Item>) => void) | undefined;
  let done = false;
  const stop = await store.subscribe((change) => {
    if (done || change.collection !== collection || change.type !== type) return;
    if (waiting) {
      const w = waiting;
      waiting = undefined;
      w({ value: change.item, done: false });
    } else queued.push(change.item);
  });
  const finish = (): Promise<IteratorResult<Item>> => {
    done = true;
    stop();
    queued.length = 0;
    waiting?.({ value: undefined, done: true });
    waiting = undefined;
    return Promise.resolve({ value: undefined, done: true });
  };
  const iterator: AsyncIterableIterator<Item> = {
    next() {
      if (queued.length > 0) return Promise.resolve({ value: queued.shift()!, done: false });
      if (done) return Promise.resolve({ value: undefined, done: true });
      return new Promise((resolve) => (waiting = resolve));
    },
    return: finish,
    throw: (err?: unknown) => finish().then(() => Promise.reject(err)),
    [Symbol.asyncIterator]: () => iterator,
  };
  return iterator;
}
