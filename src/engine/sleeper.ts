import { realClearTimeout, realSetTimeout } from '../core/timers.js';

/**
 * Delays that never outlive the engine: `close()` clears every pending timer and resolves its
 * sleeper at once, so a closed engine holds no timer (the process can exit). They run on the
 * platform clock even under a test runner's fake timers (core/timers.ts).
 */
export class Sleeper {
  private readonly pending = new Set<{ timer: ReturnType<typeof setTimeout>; resolve: () => void }>();
  private closed = false;

  sleep(ms: number): Promise<void> {
    if (this.closed || !(ms > 0)) return Promise.resolve();
    return new Promise((resolve) => {
      const entry = {
        resolve,
        timer: realSetTimeout(() => {
          this.pending.delete(entry);
          resolve();
        }, ms),
      };
      this.pending.add(entry);
    });
  }

  close(): void {
    this.closed = true;
    for (const e of this.pending) {
      realClearTimeout(e.timer);
      e.resolve();
    }
    this.pending.clear();
  }
}
