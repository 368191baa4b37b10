/**
 * Unacknowledged batches survive the page in localStorage: written at unload (and whenever a
 * batch that was written is acknowledged), read back by the next client of the same app (same
 * origin, same `persist.key`), which re-sends them with their original batchIds — the collector
 * stores each batchId once, so a batch whose unload beacon did arrive is not stored twice.
 *
 * Each client writes its own entry (`<key>:<random instance id>`) so tabs never overwrite each
 * other; a starting client takes over every entry under the key (two tabs starting at once may
 * both send one: the batchId makes that harmless). Bounded by `maxBytes` (the oldest batches give
 * way) and `maxAgeMs` (older batches are dropped on load, counted as `expired`). Storage errors
 * (quota, disabled storage) are warned about once and never break tracking.
 */
import { makeBatch, newBatchId, type Batch } from './batch-queue.js';

type StorageLike = Pick<Storage, 'getItem' | 'setItem' | 'removeItem' | 'key' | 'length'>;

interface Stored {
  v: 1;
  batches: Array<{ id: string; t: number; e: unknown[] }>;
}

export class BatchStore {
  private readonly ownKey: string;
  private warned = false;

  constructor(
    private readonly storage: StorageLike,
    private readonly prefix: string,
    private readonly maxBytes: number,
    private readonly maxAgeMs: number,
    private readonly warn: (message: string) => void,
  ) {
    this.ownKey = `${prefix}:${newBatchId()}`;
  }

  private problem(what: string, err: unknown): void {
    if (this.warned) return;
    this.warned = true;
    this.warn(`could not ${what} localStorage (${(err as Error)?.message ?? err}); unacknowledged events are not kept across page loads`);
  }

  /** Takes over every entry under the key: batches to re-send (oldest first) and how many events were too old. */
  load(now: number, measure: (events: string[]) => number): { batches: Batch[]; expired: number } {
    const batches: Batch[] = [];
    let expired = 0;
    const seen = new Set<string>();
    try {
      const keys: string[] = [];
      for (let i = 0; i < this.storage.length; i++) {
        const k = this.storage.key(i);
        if (k !== null && k.startsWith(`${this.prefix}:`) && k !== this.ownKey) keys.push(k);
      }
      for (const k of keys) {
        const text = this.storage.getItem(k);
        this.storage.removeItem(k);
        let stored: Stored | undefined;
        try {
          stored = text ? (JSON.parse(text) as Stored) : undefined;
        } catch {
          stored = undefined;
        }
        if (!stored || stored.v !== 1 || !Array.isArray(stored.batches)) continue;
        for (const b of stored.batches) {
          if (!b || typeof b.id !== 'string' || !Array.isArray(b.e) || b.e.length === 0 || typeof b.t !== 'number' || seen.has(b.id)) continue;
          seen.add(b.id);
          if (now - b.t > this.maxAgeMs) {
            expired += b.e.length;
            continue;
          }
          const events = b.e.map((e) => JSON.stringify(e));
          const batch = makeBatch(events, measure(events), b.t, b.id);
          batch.sealed = true;
          batches.push(batch);
        }
      }
    } catch (err) {
      this.problem('read', err);
    }
    batches.sort((a, b) => a.createdAt - b.createdAt);
    if (batches.length) this.save(batches);
    return { batches, expired };
  }

  /** Writes these batches (the newest that fit `maxBytes`) as this client's entry; marks them persisted. */
  save(batches: readonly Batch[]): void {
    let budget = this.maxBytes;
    let from = batches.length;
    while (from > 0 && batches[from - 1]!.bytes <= budget) {
      budget -= batches[from - 1]!.bytes;
      from -= 1;
    }
    const kept = batches.slice(from);
    for (const b of batches) b.persisted = false;
    try {
      if (kept.length === 0) {
        this.storage.removeItem(this.ownKey);
        return;
      }
      const text = `{"v":1,"batches":[${kept.map((b) => `{"id":${JSON.stringify(b.id)},"t":${b.createdAt},"e":[${b.events.join(',')}]}`).join(',')}]}`;
      this.storage.setItem(this.ownKey, text);
      for (const b of kept) b.persisted = true;
    } catch (err) {
      this.problem('write', err);
    }
  }
}
