/**
 * Deflated 5-minute buckets of the PostgreSQL store's whole-window gzip reads (the dashboard reads
 * the same 1 h / 24 h windows again and again), kept in the process and bounded by compressed
 * bytes (least recently used go first).
 *
 * Validity does not come from asking the database: every change to the events (a batch stored by
 * any process, a partition dropped by retention) is announced with NOTIFY in its own transaction,
 * and each process drops the buckets a change touches as the notification arrives
 * (`invalidate`). A read first passes a barrier (change-barrier.ts: every change committed before
 * it has been delivered), so a held bucket is never older than the read.
 *
 * A fill (a read that deflates buckets from a snapshot) may race a change: `begin()` returns the
 * generation the fill started at, and `set()` refuses a bucket that a change recorded since then
 * touched, so a bucket read before a change is never kept after it.
 */
import type { DeflatedPiece } from '../../tracker/gzip-pieces.js';

/** Bucket width: 5 minutes (a 1 h window deflates at most two partial buckets afresh). */
export const BUCKET_MS = 300_000;
/** Bytes an empty bucket's marker is counted as. */
const MARKER_BYTES = 64;

export interface HeldBucket {
  /** Events in the bucket. */
  n: number;
  /** Times (epoch ms) of its oldest and newest events: a window holding both holds them all. */
  first: number;
  last: number;
  /** Its events newest first, joined by commas and deflated (undefined when n = 0). */
  piece: DeflatedPiece | undefined;
}

export const bucketOf = (t: number) => Math.floor(t / BUCKET_MS);

export class BucketPieces {
  private readonly held = new Map<number, HeldBucket>();
  private bytes = 0;
  private generation = 0;
  /** Changes since the oldest open fill began: generation and bucket range (inclusive). */
  private changes: Array<{ g: number; from: number; to: number }> = [];
  private fills = 0;

  constructor(private readonly maxBytes = 32 * 1024 * 1024) {}

  get size(): number {
    return this.held.size;
  }

  get(bucket: number): HeldBucket | undefined {
    const hit = this.held.get(bucket);
    if (!hit) return undefined;
    this.held.delete(bucket);
    this.held.set(bucket, hit);
    return hit;
  }

  /** A fill begins: its generation (pass it to `set`); call `end()` once it is over. */
  begin(): number {
    this.fills++;
    return this.generation;
  }

  end(): void {
    if (this.fills > 0 && --this.fills === 0) this.changes = [];
  }

  /** Keeps a bucket read by a fill begun at `since`, unless a change since then touched it. */
  set(bucket: number, held: HeldBucket, since: number): boolean {
    for (const c of this.changes) if (c.g > since && bucket >= c.from && bucket <= c.to) return false;
    this.drop(bucket);
    this.held.set(bucket, held);
    const { piece } = held;
    this.bytes += piece ? piece.deflatedSize : MARKER_BYTES;
    for (const b of this.held.keys()) {
      if (this.bytes <= this.maxBytes) break;
      this.drop(b);
    }
    return true;
  }

  /** A change to the events of buckets from..to (inclusive). */
  invalidate(from: number, to: number): void {
    this.generation++;
    if (this.fills > 0) this.changes.push({ g: this.generation, from, to });
    if (to - from < this.held.size) {
      for (let b = from; b <= to; b++) this.drop(b);
    } else {
      for (const b of [...this.held.keys()]) if (b >= from && b <= to) this.drop(b);
    }
  }

  /** Everything may have changed (a partition dropped, notifications possibly missed). */
  clear(): void {
    this.invalidate(-Infinity, Infinity);
  }

  private drop(bucket: number): void {
    const old = this.held.get(bucket);
    if (!old) return;
    this.bytes -= old.piece ? old.piece.deflatedSize : MARKER_BYTES;
    this.held.delete(bucket);
  }
}
