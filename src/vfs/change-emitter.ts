/** Change notifications shared by the drivers (`Vfs.onChange`). */
import type { VfsChangeListener } from './types.js';

export class ChangeEmitter {
  private readonly listeners = new Set<VfsChangeListener>();

  on(listener: VfsChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(path: string): void {
    for (const l of this.listeners) {
      try {
        l(path);
      } catch {
        // A listener's failure must not fail the write that already happened.
      }
    }
  }
}
