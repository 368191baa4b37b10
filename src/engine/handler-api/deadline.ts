import { startTimer } from '../../core/timers.js';

/**
 * Cancellable timers for the gateway timeout. Every pending timer is tracked so `close()` can
 * expire them all: no timer outlives the engine, no request hangs past `close()`. Under fake
 * timers the real or the fake clock ends it, whichever is first (core/timers.ts).
 */
export class Deadlines {
  /** Pending deadlines: cancel function → what firing does. */
  private readonly pending = new Map<() => void, () => void>();

  /**
   * Resolves `onTimeout()` after `ms` unless `work` settles first; `ms` of 0 or Infinity means
   * no deadline. `work` must never reject.
   */
  race<T>(work: Promise<T>, ms: number, onTimeout: () => Promise<T>): Promise<T> {
    if (!(ms > 0) || ms === Infinity) return work;
    return new Promise<T>((resolve) => {
      let done = false;
      const fire = () => {
        this.pending.delete(cancel);
        if (done) return;
        done = true;
        onTimeout().then(resolve, () => resolve(undefined as T));
      };
      const cancel = startTimer(fire, ms);
      this.pending.set(cancel, fire);
      work.then((value) => {
        if (done) return;
        done = true;
        cancel();
        this.pending.delete(cancel);
        resolve(value);
      });
    });
  }

  /** Clears every timer and answers the requests still waiting as timed out. */
  expireAll(): void {
    for (const [cancel, fire] of [...this.pending]) {
      cancel();
      fire();
    }
    this.pending.clear();
  }
}
