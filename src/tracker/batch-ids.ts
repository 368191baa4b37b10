/**
 * Client batch ids: an ingest body may carry `batchId`, a string of 1 to 128
 * characters from `A-Z a-z 0-9 . _ : -` (a UUID fits). A batch sent again with an id the
 * collector has already stored is answered as the first time (`saved` = the first answer) and
 * stored nothing twice, for BATCH_ID_WINDOW_MS (24 h) after it was first stored; a retry that
 * arrives while the first attempt is still being written waits for it and shares its answer (or,
 * when that attempt failed, stores the batch itself). The contents of a retry are not compared:
 * the id names the batch.
 *
 * The embedded store keeps the ids in memory (this class) and on disk in its batch markers, so
 * they survive a restart; the PostgreSQL store keeps them in a table. Over WebSocket a message of
 * more than `maxEvents` events is stored as consecutive batches whose ids are derived from the
 * message's (`<batchId>#<n>`), so a retried message skips the parts already stored.
 */
import { HttpError } from '../core/errors.js';

export const BATCH_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;
export const BATCH_ID_WINDOW_MS = 24 * 3_600_000;
/** At most this many ids are remembered (the oldest are forgotten first). */
export const MAX_REMEMBERED_BATCH_IDS = 200_000;

/** Validates the optional `batchId` field of an ingest envelope (400 when malformed). */
export function parseBatchId(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || !BATCH_ID_PATTERN.test(value)) {
    throw new HttpError(400, 'Malformed ingest body: "batchId" must be a string of 1 to 128 characters from A-Z a-z 0-9 . _ : -');
  }
  return value;
}

/** The id of part `n` (0-based) of a message stored as several batches. */
export function partBatchId(batchId: string | undefined, part: number, parts: number): string | undefined {
  return batchId === undefined || parts === 1 ? batchId : `${batchId}#${part}`;
}

/** Remembered batch ids of one process (embedded store). */
export class BatchIds {
  /** Stored batches: id → [saved, stored at]; Map order = storage order. */
  private readonly done = new Map<string, [number, number]>();
  private readonly inFlight = new Map<string, Promise<number>>();

  constructor(private readonly windowMs = BATCH_ID_WINDOW_MS, private readonly max = MAX_REMEMBERED_BATCH_IDS) {}

  /** Records a stored batch (also while loading from disk, in storage order). */
  remember(id: string, saved: number, at: number): void {
    this.done.delete(id);
    this.done.set(id, [saved, at]);
    this.expire(Date.now());
  }

  private expire(now: number): void {
    for (const [id, [, at]] of this.done) {
      if (this.done.size <= this.max && at > now - this.windowMs) break;
      this.done.delete(id);
    }
  }

  /**
   * Runs `store` once per id: the answer of an earlier or concurrent attempt when there is one.
   * `replayed` tells the caller the batch was not stored again (no push).
   */
  async once(id: string, store: () => Promise<number>): Promise<{ saved: number; replayed: boolean }> {
    for (;;) {
      const hit = this.done.get(id);
      if (hit && hit[1] > Date.now() - this.windowMs) return { saved: hit[0], replayed: true };
      const running = this.inFlight.get(id);
      if (!running) break;
      try {
        return { saved: await running, replayed: true };
      } catch {
        // the first attempt failed: try again ourselves (unless another retry already is)
      }
    }
    const attempt = store();
    this.inFlight.set(id, attempt);
    try {
      const saved = await attempt;
      this.remember(id, saved, Date.now());
      return { saved, replayed: false };
    } finally {
      this.inFlight.delete(id);
    }
  }
}
