/**
 * A layer whose code is imported on demand (its own chunk in browser bundles, so pages that do
 * not turn the feature on never load it): the import starts when the engine is built; until it
 * is done `peek` cannot tell (promise path) and `handle` waits for it. `ready` resolves with it.
 */
import type { Layer } from './layer.js';

export function lazyLayer(name: string, load: () => Promise<Layer>): Layer {
  let layer: Layer | undefined;
  const loading = load().then((l) => (layer = l));
  loading.catch(() => undefined);
  return {
    name,
    ready: loading,
    peek(ctx) {
      return layer?.peek ? layer.peek(ctx) : undefined;
    },
    handle(ctx) {
      return layer ? layer.handle(ctx) : loading.then((l) => l.handle(ctx));
    },
    upgrade(ctx) {
      return layer ? layer.upgrade?.(ctx) : loading.then((l) => l.upgrade?.(ctx));
    },
    async close() {
      const l = await loading.catch(() => undefined);
      await l?.close?.();
    },
  };
}
