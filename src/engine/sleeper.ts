import { startTimer } from '../core/timers.js';

/**
 * Delays that never outlive the engine: `close()` clears every pending timer and resolves its
 * sleeper at once, so a closed engine holds no timer (the process can exit). Under a test
 * runner's fake timers a delay ends on the real or the fake clock, whichever is first
 * (core/timers.ts): awaiting never deadlocks.
 */
export class Sleeper {
  private readonly pending = new Set<{ cancel: () => void; resolve: () => void }>();
  private closed = false;

  sleep(ms: number): Promise<void> {
    if (this.closed || !(ms > 0)) return Promise.resolve();
    return new Promise((resolve) => {
      const entry = {
        resolve,
        cancel: startTimer(() => {
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
      e.cancel();
      e.resolve();
    }
    this.pending.clear();
  }
}
