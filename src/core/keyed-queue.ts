/**
 * Serialises asynchronous tasks per key: read-modify-write of one file never interleaves, while
 * different files proceed in parallel. The queue forgets a key once its last task settles.
 */
export class KeyedQueue {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, task: () => Promise<T> | T): Promise<T> {
    const prev = this.tails.get(key);
    const next = prev ? prev.then(task, task) : Promise.resolve().then(task);
    const tail = next.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return next;
  }

  /**
   * The last task queued for `key` (a token: compare it by identity), undefined when none is
   * pending. A group of writes (file-cache/group-commit.ts) takes newcomers only while it is last.
   */
  last(key: string): unknown {
    return this.tails.get(key);
  }

  /** Number of keys with work queued (for tests and diagnostics). */
  get size(): number {
    return this.tails.size;
  }
}
