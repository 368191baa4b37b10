import { realClearTimeout, realSetTimeout } from '../../core/timers.js';

/**
 * Cancellable timers for the gateway timeout. Every pending timer is tracked so `close()` can
 * expire them all: no timer outlives the engine, no request hangs past `close()`. Platform
 * clock even under fake timers (core/timers.ts): advancing a fake clock never fakes a 504.
 */
export class Deadlines {
  private readonly pending = new Map<ReturnType<typeof setTimeout>, () => void>();

  /**
   * Resolves `onTimeout()` after `ms` unless `work` settles first; `ms` of 0 or Infinity means
   * no deadline. `work` must never reject.
   */
  race<T>(work: Promise<T>, ms: number, onTimeout: () => Promise<T>): Promise<T> {
    if (!(ms > 0) || ms === Infinity) return work;
    return new Promise<T>((resolve) => {
      let done = false;
      const fire = () => {
        this.pending.delete(timer);
        if (done) return;
        done = true;
        onTimeout().then(resolve, () => resolve(undefined as T));
      };
      const timer = realSetTimeout(fire, ms);
      this.pending.set(timer, fire);
      work.then((value) => {
        if (done) return;
        done = true;
        realClearTimeout(timer);
        this.pending.delete(timer);
        resolve(value);
      });
    });
  }

  /** Clears every timer and answers the requests still waiting as timed out. */
  expireAll(): void {
    for (const [t, fire] of [...this.pending]) {
      realClearTimeout(t);
      fire();
    }
    this.pending.clear();
  }
}
