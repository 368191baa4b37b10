/**
 * A barrier over LISTEN/NOTIFY: `pass()` sends a notification of its own on the store's channel
 * (committed at once) and resolves when this process's listening connection receives it.
 * PostgreSQL delivers notifications in commit order, so by then every change committed before
 * the call has been delivered too: the in-process bucket cache (bucket-pieces.ts) is as new as
 * the database was when the read began. Resolves false when the notification does not come back
 * in time (listening connection down): the read then trusts no cached bucket.
 */
export const BARRIER_TIMEOUT_MS = 2000;

export class ChangeBarrier {
  private next = 0;
  private readonly waiting = new Map<number, (ok: boolean) => void>();

  constructor(
    private readonly origin: string,
    private readonly notify: (payload: string) => Promise<unknown>,
  ) {}

  pass(timeoutMs = BARRIER_TIMEOUT_MS): Promise<boolean> {
    const n = ++this.next;
    return new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => settle(false), timeoutMs);
      timer.unref?.();
      const settle = (ok: boolean) => {
        if (!this.waiting.delete(n)) return;
        clearTimeout(timer);
        resolve(ok);
      };
      this.waiting.set(n, settle);
      this.notify(JSON.stringify({ o: this.origin, b: n })).catch(() => settle(false));
    });
  }

  /** A barrier notification arrived (ours or another process's, which is ignored). */
  received(origin: string, n: number): void {
    if (origin === this.origin) this.waiting.get(n)?.(true);
  }

  /** Fails every barrier under way (the store closes). */
  cancel(): void {
    for (const settle of [...this.waiting.values()]) settle(false);
  }
}
