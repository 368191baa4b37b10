/**
 * The collection store as every pipeline holds it: its code (store.ts, writes, the change feed,
 * item ids) is imported on first use, so pages that never touch a collection do not load it (its
 * own chunk in browser bundles, with the collections layer's).
 */
import type { AnnouncingStore, StoreSources } from './store.js';

export function lazyCollectionStore(sources: StoreSources): AnnouncingStore {
  let loading: Promise<AnnouncingStore> | undefined;
  let loaded: AnnouncingStore | undefined;
  const store = () =>
    (loading ??= import('./store.js').then((m) => {
      loaded = m.createCollectionStore(sources);
      return loaded;
    }));
  return {
    idField: sources.idField,
    relations: sources.relations,
    peek: (name) => (loaded === undefined ? undefined : loaded.peek(name)), // undefined until loaded: `open` loads it
    open: (name) => (loaded === undefined ? store().then((s) => s.open(name)) : loaded.open(name)),
    namesNextTo: (name) => (loaded === undefined ? store().then((s) => s.namesNextTo(name)) : loaded.namesNextTo(name)),
    documents: () => store().then((s) => s.documents()),
    names: () => store().then((s) => s.names()),
    all: (name) => store().then((s) => s.all(name)),
    get: (name, id) => store().then((s) => s.get(name, id)),
    list: (name, query) => store().then((s) => s.list(name, query)),
    insert: (name, item) => store().then((s) => s.insert(name, item)),
    update: (name, id, changes, options) => store().then((s) => s.update(name, id, changes, options)),
    remove: (name, id) => store().then((s) => s.remove(name, id)),
    transaction: (name, fn) => (loaded === undefined ? store().then((s) => s.transaction(name, fn)) : loaded.transaction(name, fn)),
    onChange(listener) {
      let stop: (() => void) | undefined;
      let stopped = false;
      void store().then((s) => {
        if (!stopped) stop = s.onChange(listener);
      });
      return () => {
        stopped = true;
        stop?.();
      };
    },
    subscribe: (listener) => store().then((s) => s.subscribe(listener)),
    announce: (changes) => loaded?.announce(changes), // not loaded: nobody listens
  };
}
