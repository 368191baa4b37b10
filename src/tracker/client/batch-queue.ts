/**
 * The client's queue: events (as JSON text) grouped into batches that keep their `batchId` from
 * the moment they are first handed to a transport until the collector acknowledges them. A batch
 * in flight stays here (owned by the queue), so the unload beacon and the persisted copy carry it
 * too; the collector's batchId idempotency drops whichever copy arrives second.
 *
 * Invariants: every held event is in exactly one batch; batches are sent oldest first; a batch's
 * content never changes once it has left (split halves and isolated remainders get new ids —
 * safe because the collector stores a batch all-or-nothing and had refused the original).
 */
import { ENVELOPE_BYTES } from './options.js';

export interface Batch {
  id: string;
  /** Each event's JSON text. */
  events: string[];
  /** UTF-8 bytes of the events joined with commas (the body is this plus the envelope). */
  bytes: number;
  /** Epoch ms of the first event queued (persisted batches expire by it). */
  createdAt: number;
  /** Has left at least once (sent, beaconed or persisted): its content is frozen. */
  sealed: boolean;
  inFlight: boolean;
  /** Bytes of a keepalive fetch carrying it right now (0: none); such a send survives unload. */
  keepaliveBytes: number;
  /** Handed to sendBeacon since the page was last visible. */
  beaconed: boolean;
  /** Written to persistent storage (rewrite it when this batch is acknowledged). */
  persisted: boolean;
  attempts: number;
}

export interface QueueLimits {
  batchSize: number;
  /** Largest body (events + envelope). */
  maxBatchBytes: number;
  maxQueue: number;
}

export function newBatchId(): string {
  const c = globalThis.crypto as Crypto | undefined;
  if (c?.randomUUID) return c.randomUUID();
  const bytes = new Uint8Array(16);
  if (c?.getRandomValues) c.getRandomValues(bytes);
  else for (let i = 0; i < 16; i++) bytes[i] = Math.floor(Math.random() * 256);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

export function makeBatch(events: string[], bytes: number, createdAt: number, id = newBatchId()): Batch {
  return { id, events, bytes, createdAt, sealed: false, inFlight: false, keepaliveBytes: 0, beaconed: false, persisted: false, attempts: 0 };
}

function bytesOf(events: string[], eventBytes: (json: string) => number): number {
  let sum = Math.max(0, events.length - 1);
  for (const e of events) sum += eventBytes(e);
  return sum;
}

/** The ingest body of a batch, built from the stored JSON texts (nothing re-serialised). */
export function batchBody(batch: Batch): string {
  return `{"type":"ingest","batchId":${JSON.stringify(batch.id)},"events":[${batch.events.join(',')}]}`;
}

export class BatchQueue {
  readonly batches: Batch[] = [];
  private count = 0;

  constructor(private readonly limits: QueueLimits, private readonly eventBytes: (json: string) => number) {}

  /** Events held (waiting and in flight). */
  get size(): number {
    return this.count;
  }

  get inFlightEvents(): number {
    let n = 0;
    for (const b of this.batches) if (b.inFlight) n += b.events.length;
    return n;
  }

  /** Queues one event; returns how many events the cap pushed out (oldest first). */
  add(json: string, bytes: number, now: number): number {
    let open = this.batches[this.batches.length - 1];
    const room = this.limits.maxBatchBytes - ENVELOPE_BYTES;
    if (!open || open.sealed || open.events.length >= this.limits.batchSize || open.bytes + 1 + bytes > room) {
      open = makeBatch([], 0, now);
      this.batches.push(open);
    }
    open.bytes += (open.events.length ? 1 : 0) + bytes;
    open.events.push(json);
    this.count += 1;
    return this.enforceCap();
  }

  /** True when a batch is ready to go without waiting for the interval (a full or sealed one). */
  get hasFullBatch(): boolean {
    const n = this.batches.length;
    if (n > 1) return true; // a batch is only started once the one before is full or sealed
    const only = this.batches[0];
    return only !== undefined && !only.inFlight && (only.sealed || only.events.length >= this.limits.batchSize);
  }

  private enforceCap(): number {
    let dropped = 0;
    while (this.count > this.limits.maxQueue) {
      const victim = this.batches.find((b) => !b.inFlight && b.events.length > 0);
      if (!victim) break;
      if (victim.sealed) {
        // It may have reached the collector: change nothing inside it, drop it whole.
        this.remove(victim);
        dropped += victim.events.length;
      } else {
        const [first] = victim.events.splice(0, 1);
        victim.bytes = Math.max(0, victim.bytes - this.eventBytes(first!) - (victim.events.length ? 1 : 0));
        this.count -= 1;
        dropped += 1;
        if (victim.events.length === 0) this.batches.splice(this.batches.indexOf(victim), 1);
      }
    }
    return dropped;
  }

  /** The oldest batch not in flight, sealed (its content is now frozen). */
  next(): Batch | undefined {
    const batch = this.batches.find((b) => !b.inFlight);
    if (batch) batch.sealed = true;
    return batch;
  }

  /** Seals every batch (before a beacon or a persisted copy takes them). */
  sealAll(): void {
    for (const b of this.batches) b.sealed = true;
  }

  /** Acknowledged (or given up): out of the queue. */
  remove(batch: Batch): void {
    const i = this.batches.indexOf(batch);
    if (i < 0) return;
    this.batches.splice(i, 1);
    this.count -= batch.events.length;
  }

  /** Replaces a refused batch by `parts` (new batches, same place in the order). */
  replace(batch: Batch, parts: string[][]): Batch[] {
    const i = this.batches.indexOf(batch);
    if (i < 0) return [];
    const made = parts.filter((p) => p.length > 0).map((p) => {
      const b = makeBatch(p, bytesOf(p, this.eventBytes), batch.createdAt);
      b.sealed = true;
      return b;
    });
    this.batches.splice(i, 1, ...made);
    this.count += made.reduce((n, b) => n + b.events.length, 0) - batch.events.length;
    return made;
  }

  /** Batches restored from persistent storage go first (they are older than anything queued now). */
  restore(batches: Batch[]): number {
    this.batches.unshift(...batches);
    this.count += batches.reduce((n, b) => n + b.events.length, 0);
    return this.enforceCap();
  }

  /** Events of batches built from `events` (for persisted batches). */
  measure(events: string[]): number {
    return bytesOf(events, this.eventBytes);
  }
}
