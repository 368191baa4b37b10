/**
 * A Vfs whose driver is still loading (a dynamic `import()`, its own chunk in browser bundles):
 * every call waits for it, change listeners are attached once it is there. The driver's static
 * traits (`driver`, `exclusive`, `root`, whether it has `writeJson`) are given up front, since
 * caches read them synchronously.
 */
import type { Vfs, VfsChangeListener } from './types.js';

export interface DeferredTraits {
  driver: string;
  exclusive: boolean;
  root: string;
  writeJson: boolean;
}

export function deferredVfs<V extends Vfs & { flush?(): Promise<void> }>(loading: Promise<V>, traits: DeferredTraits): Vfs & { readonly loaded: Promise<V>; flush(): Promise<void> } {
  let real: V | undefined;
  const loaded = loading.then((v) => (real = v));
  loaded.catch(() => undefined);
  const get = (): Promise<V> | V => real ?? loaded;
  const call = async <R>(f: (v: V) => Promise<R>): Promise<R> => f(await get());
  const vfs: Vfs & { loaded: Promise<V>; flush(): Promise<void> } = {
    driver: traits.driver,
    exclusive: traits.exclusive,
    root: traits.root,
    loaded,
    /** The driver's `flush()` (json-db: save pending writes now), when it has one. */
    flush: () => call(async (v) => {
      await v.flush?.();
    }),
    stat: (p) => call((v) => v.stat(p)),
    read: (p) => call((v) => v.read(p)),
    write: (p, d) => call((v) => v.write(p, d)),
    create: (p, d) => call((v) => v.create(p, d)),
    append: (p, d) => call((v) => v.append(p, d)),
    readdir: (p) => call((v) => v.readdir(p)),
    remove: (p, o) => call((v) => v.remove(p, o)),
    mkdir: (p) => call((v) => v.mkdir(p)),
    onChange(listener: VfsChangeListener) {
      let stop: (() => void) | undefined;
      let stopped = false;
      void loaded.then((v) => {
        if (!stopped) stop = v.onChange(listener);
      }, () => undefined);
      return () => {
        stopped = true;
        stop?.();
      };
    },
    close: async () => {
      const v = await loaded.catch(() => undefined);
      await v?.close?.();
    },
  };
  if (traits.writeJson) vfs.writeJson = (p, value) => call((v) => v.writeJson!(p, value));
  return vfs;
}
