/**
 * Ingest through the spool (spool.ts) when the store is unreachable, and the drain after.
 *
 *   - Store ready: the batch goes to the store. When that call fails because the store became
 *     unreachable (storage-state.ts), the batch goes to the spool instead: the call may have been
 *     committed before the connection broke, which is why every batch carries a batch id from the
 *     start (the client's, else one made here): the drain then finds it stored and skips it.
 *   - Store unavailable: straight to the spool (fsync'd before the answer), answered 202
 *     `{"ok":true,"saved":n,"spooled":true}`. A spool past its maxBytes answers 503 (the client
 *     keeps the batch and retries).
 *   - Store back: the spool drains in the background, oldest first, one batch at a time, while
 *     new batches go to the store directly. Each drained batch is stored with its batch id, so a
 *     batch given twice (a crash before its release was remembered, a client retry that reached
 *     the store first) is stored once.
 */
import type { Logger } from '../core/logger.js';
import { unavailableError, type StorageState, type StorageStatus } from './storage-state.js';
import { newEventId } from './event-id.js';
import { validateBatch, type ValidBatch } from './ingest-batch.js';
import type { IngestSpool } from './spool.js';
import type { EventStore } from './store.js';

/** Batches taken from the spool per step of the drain. */
const DRAIN_STEP = 64;
/** Wait before draining again after a failure that did not make the store unavailable. */
const DRAIN_RETRY_MS = 2000;

export interface IngestResult {
  saved: number;
  /** Kept in the spool (acknowledged, stored once the store is back). */
  spooled: boolean;
}

export class SpooledIngest {
  private readonly loaded: Promise<boolean>;
  private draining: Promise<void> | undefined;
  private closed = false;
  /** A batch was spooled while a drain was under way. */
  private again = false;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly spool: IngestSpool,
    private readonly store: EventStore,
    private readonly state: StorageState,
    private readonly logger: Logger,
    /** Lines the store stored (pushed to WebSocket clients); `from` is the sending socket. */
    private readonly stored: (lines: string[], from?: unknown) => void,
  ) {
    this.loaded = spool.load().then(
      () => true,
      (err: unknown) => {
        logger.error(`tracker: the ingest spool could not be opened, batches are not spooled while the store is unavailable: ${(err as Error)?.message ?? err}`);
        return false;
      },
    );
    state.onChange((s) => {
      if (s.state === 'ready') this.drain();
    });
    void state.firstAttempt.then(() => this.drain());
  }

  status(): NonNullable<StorageStatus['spool']> {
    return { batches: this.spool.batches, bytes: this.spool.bytes, maxBytes: this.spool.maxBytes, draining: this.draining !== undefined };
  }

  async write(batch: ValidBatch, from?: unknown): Promise<IngestResult> {
    const withId: ValidBatch = batch.batchId === undefined ? { ...batch, batchId: `mockyard-spool:${newEventId()}` } : batch;
    if (this.state.ready) {
      try {
        const { saved, lines } = await this.store.append(withId);
        if (lines.length) this.stored(lines, from);
        return { saved, spooled: false };
      } catch (err) {
        if (!this.state.failed(err)) throw err;
      }
    }
    if (!(await this.loaded)) throw unavailableError(this.state.status());
    const batchId = withId.batchId!;
    const saved = batch.events.length;
    if (!this.spool.has(batchId)) await this.spool.add({ batchId, text: JSON.stringify({ type: 'ingest', batchId, events: batch.events }) });
    if (this.draining) this.again = true;
    return { saved, spooled: true };
  }

  /** Starts draining when the store is ready and the spool holds batches (no-op otherwise). */
  drain(): void {
    if (this.draining || this.closed || !this.state.ready) return;
    this.draining = this.drainNow().finally(() => {
      this.draining = undefined;
      // Batches spooled while this drain was finishing (the store went and came back meanwhile).
      if (this.again) {
        this.again = false;
        if (!this.retryTimer) this.drain();
      }
    });
  }

  private async drainNow(): Promise<void> {
    if (!(await this.loaded) || this.spool.batches === 0) return;
    const total = this.spool.batches;
    const label = this.store.label ?? 'the store';
    this.logger.info(`tracker: draining ${total} spooled batches into ${label}`);
    let drained = 0;
    let retry = false;
    while (!this.closed && this.state.ready) {
      const step = await this.spool.peek(DRAIN_STEP);
      if (step.length === 0) break;
      let done = 0;
      for (const s of step) {
        if (this.closed) break;
        let batch: ValidBatch;
        try {
          batch = validateBatch(JSON.parse(s.text), Infinity);
        } catch (err) {
          this.logger.error(`tracker: dropped spooled batch ${s.batchId}: it cannot be read (${(err as Error)?.message ?? err})`);
          done++;
          continue;
        }
        try {
          const { lines } = await this.store.append(batch);
          if (lines.length) this.stored(lines);
          done++;
        } catch (err) {
          if (!this.state.failed(err)) {
            this.logger.error(`tracker: could not store spooled batch ${s.batchId}; retrying: ${(err as Error)?.message ?? err}`);
            retry = true;
          }
          break;
        }
      }
      drained += done;
      await this.spool.release(done);
      if (done < step.length) break;
    }
    if (this.spool.batches === 0) this.logger.info(`tracker: spool drained (${drained} batches stored)`);
    else if (retry && !this.closed) {
      this.retryTimer = setTimeout(() => {
        this.retryTimer = undefined;
        this.drain();
      }, DRAIN_RETRY_MS);
      (this.retryTimer as { unref?: () => void }).unref?.();
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    await this.draining;
    await this.spool.close();
  }
}
