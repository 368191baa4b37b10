/**
 * EventStore: where collected events live.
 *
 * On the Vfs (event-segments.ts, imported only when the collector has storage): append-only JSONL
 * segments, one file per UTC hour of the events' timestamps, group-committed appends, whole-file
 * retention.
 *
 * In memory: a time index of entries sorted by (timestamp, ingest sequence) holding each event's
 * serialised JSON line, so a read is two binary searches plus a join of ready-made strings: no
 * parsing, no re-stringifying. Batches land in a `pending` list first and are merged into the
 * sorted index on the next read (O(n) merge, O(1) ingest even when clocks disagree).
 *
 * Without a Vfs (memory-only mode) the same structure is kept without files.
 */
import { HttpError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import type { Vfs } from '../vfs/types.js';
import type { SegmentFiles } from './event-segments.js';
import { BatchIds } from './batch-ids.js';
import { newEventId } from './event-id.js';
import type { ValidBatch } from './ingest-batch.js';
import { selectEvents, type ReadQuery } from './read-query.js';
import type { EventStore, StoreSelection, StoredBatch } from './store.js';
import { HOUR_MS, hourOf, lowerBoundOf, type Entry } from './time-index.js';

export interface EventStoreOptions {
  fs?: Vfs;
  dir: string;
  logger: Logger;
  maxAgeMs?: number;
  retainEvents?: number;
}

const byTimeThenSeq = (a: Entry, b: Entry) => a.t - b.t || a.seq - b.seq;

export class VfsEventStore implements EventStore {
  private entries: Entry[] = [];
  private pending: Entry[] = [];
  private seq = 0;
  /** Events per hour segment (index and pending). */
  private readonly hours = new Map<number, number>();
  /** Bumped whenever an hour's set of events changes (for caches of encoded hours). */
  private readonly versions = new Map<number, number>();
  /** The segment files (with a Vfs), imported on first use. */
  private files: Promise<SegmentFiles> | undefined;
  private loadedFiles: SegmentFiles | undefined;
  private readonly fs: Vfs | undefined;
  private readonly dir: string;
  private readonly logger: Logger;
  private readonly maxAgeMs: number | undefined;
  private readonly retainEvents: number | undefined;
  /** Client batch ids stored recently (idempotent retries). */
  private readonly batchIds = new BatchIds();
  /** Appends under way (a deletion waits for them). */
  private readonly appending = new Set<Promise<unknown>>();
  /** A deletion under way (appends wait for it: the index and the segments change together). */
  private deleting: Promise<unknown> | undefined;

  constructor(options: EventStoreOptions) {
    this.fs = options.fs;
    this.dir = options.dir;
    this.logger = options.logger;
    this.maxAgeMs = options.maxAgeMs;
    this.retainEvents = options.retainEvents;
  }

  /** Number of events held. */
  get size(): number {
    return this.entries.length + this.pending.length;
  }

  /** Change counter of an hour (0 when never touched). */
  version(hour: number): number {
    return this.versions.get(hour) ?? 0;
  }

  private segments(fs: Vfs): Promise<SegmentFiles> {
    return (this.files ??= import('./event-segments.js').then(
      (m) => (this.loadedFiles = new m.SegmentFiles(fs, this.dir, this.logger)),
      (err: unknown) => {
        this.files = undefined; // retried on next use
        throw err;
      },
    ));
  }

  /** Loads every segment from the Vfs. A torn last line (crash mid-append) is skipped with a warning and cut off. */
  async load(): Promise<void> {
    const fs = this.fs;
    if (!fs) return;
    const loaded: Entry[] = [];
    const segments = await (await this.segments(fs)).load(
      (t, line) => {
        loaded.push({ t, seq: ++this.seq, line });
        this.count(hourOf(t), 1);
      },
      (batchId, count, at) => this.batchIds.remember(batchId, count, at),
    );
    loaded.sort(byTimeThenSeq);
    this.entries = loaded;
    this.logger.debug(`tracker: loaded ${loaded.length} events from ${segments} segments`);
  }

  private count(hour: number, delta: number): void {
    const n = (this.hours.get(hour) ?? 0) + delta;
    if (n > 0) this.hours.set(hour, n);
    else this.hours.delete(hour);
    this.versions.set(hour, (this.versions.get(hour) ?? 0) + 1);
  }

  /**
   * Stores a validated batch: assigns ids, appends one write per touched segment, then indexes.
   * Resolves with the stored lines in batch order. All-or-nothing for the index: when a write
   * fails nothing of the batch becomes visible (500). With a client `batchId` already stored
   * (batch-ids.ts) nothing is stored again: the answer is the first one's count and no lines.
   */
  async append(batch: ValidBatch, now = Date.now()): Promise<StoredBatch> {
    const { batchId } = batch;
    if (batchId === undefined) {
      const lines = await this.appendNew(batch, undefined, now);
      return { saved: lines.length, lines };
    }
    let lines: string[] = [];
    const { saved, replayed } = await this.batchIds.once(batchId, async () => (lines = await this.appendNew(batch, batchId, now)).length);
    return { saved, lines: replayed ? [] : lines };
  }

  private async appendNew(batch: ValidBatch, batchId: string | undefined, now: number): Promise<string[]> {
    while (this.deleting) await this.deleting.catch(() => {});
    const appended = this.appendNow(batch, batchId, now);
    this.appending.add(appended);
    try {
      return await appended;
    } finally {
      this.appending.delete(appended);
    }
  }

  private async appendNow(batch: ValidBatch, batchId: string | undefined, now: number): Promise<string[]> {
    const { events, times } = batch;
    const lines: string[] = new Array(events.length);
    const added: Entry[] = new Array(events.length);
    let key = '';
    for (let i = 0; i < events.length; i++) {
      const id = newEventId(now);
      if (i === 0) key = id;
      const line = JSON.stringify({ ...events[i], id });
      lines[i] = line;
      added[i] = { t: times[i]!, seq: ++this.seq, line };
    }
    if (this.fs) {
      const groups = new Map<number, string[]>();
      for (const e of added) {
        const h = hourOf(e.t);
        const g = groups.get(h);
        if (g) g.push(e.line);
        else groups.set(h, [e.line]);
      }
      // All-or-nothing: a failed write throws (500) before anything is indexed.
      await (await this.segments(this.fs)).store(groups, events.length, { key, at: now, batchId });
    }
    for (const e of added) {
      this.pending.push(e);
      this.count(hourOf(e.t), 1);
    }
    this.applyRetention(now);
    return lines;
  }

  /** Merges pending batches into the sorted index. */
  private settle(): Entry[] {
    const p = this.pending;
    if (p.length === 0) return this.entries;
    this.pending = [];
    p.sort(byTimeThenSeq);
    const a = this.entries;
    if (a.length === 0 || byTimeThenSeq(a[a.length - 1]!, p[0]!) < 0) {
      for (const e of p) a.push(e);
      return a;
    }
    const out: Entry[] = new Array(a.length + p.length);
    let i = 0, j = 0, k = 0;
    while (i < a.length && j < p.length) out[k++] = byTimeThenSeq(a[i]!, p[j]!) <= 0 ? a[i++]! : p[j++]!;
    while (i < a.length) out[k++] = a[i++]!;
    while (j < p.length) out[k++] = p[j++]!;
    this.entries = out;
    return out;
  }

  /**
   * The sorted index and the range [lo, hi) of entries with since <= t <= until. The array is
   * only valid until the next call (callers use it synchronously).
   */
  window(since: number, until: number): { entries: Entry[]; lo: number; hi: number } {
    const entries = this.settle();
    const lo = lowerBoundOf(entries, since);
    const hi = Math.max(lo, lowerBoundOf(entries, Math.floor(until) + 1));
    return { entries, lo, hi };
  }

  /** Index of the entry with this timestamp and id, or -1. */
  indexOf(t: number, id: string): number {
    const entries = this.settle();
    for (let i = lowerBoundOf(entries, t); i < entries.length && entries[i]!.t === t; i++) {
      if ((JSON.parse(entries[i]!.line) as { id?: unknown }).id === id) return i;
    }
    return -1;
  }

  /**
   * Retention: deletes whole hour segments (file and index entries), oldest first, when every
   * event in them is older than maxAgeMs, or when every event in them falls outside the newest
   * `retainEvents` events.
   */
  applyRetention(now = Date.now()): void {
    if (this.maxAgeMs === undefined && this.retainEvents === undefined) return;
    const entries = this.settle();
    const hours = [...this.hours.keys()].sort((a, b) => a - b);
    let dropBefore = -Infinity; // hours < dropBefore go
    if (this.maxAgeMs !== undefined) {
      const cutoff = now - this.maxAgeMs;
      for (const h of hours) if ((h + 1) * HOUR_MS <= cutoff) dropBefore = h + 1;
    }
    if (this.retainEvents !== undefined) {
      const outside = entries.length - this.retainEvents;
      for (const h of hours) {
        if (outside <= 0 || lowerBoundOf(entries, (h + 1) * HOUR_MS) > outside) break;
        dropBefore = Math.max(dropBefore, h + 1);
      }
    }
    if (dropBefore === -Infinity) return;
    const cut = lowerBoundOf(entries, dropBefore * HOUR_MS);
    this.entries = entries.slice(cut);
    for (const h of hours) {
      if (h >= dropBefore) break;
      this.hours.delete(h);
      this.versions.set(h, (this.versions.get(h) ?? 0) + 1);
      // Queued on the segment at once once loaded (as load() and append() always do first).
      if (this.loadedFiles) this.loadedFiles.remove(h);
      else if (this.fs) void this.segments(this.fs).then((files) => files.remove(h), () => {});
    }
    this.logger.debug(`tracker: retention dropped ${cut} events`);
  }

  /**
   * Deletes the events with from <= t < to. Appends wait while it runs and it waits for the
   * appends under way, so the index and the segments lose exactly the same events. On disk each
   * touched hour segment is rewritten without them (event-segments.ts `deleteRange`: one atomic
   * write per segment, or the file removed); a segment that cannot be rewritten keeps its events
   * in the index too, and the answer is an error naming how many went.
   */
  async deleteRange(from: number, to: number): Promise<number> {
    while (this.deleting) await this.deleting.catch(() => {});
    const run = (async () => {
      await Promise.allSettled([...this.appending]);
      const range = (entries: Entry[]) => [lowerBoundOf(entries, from), Math.max(lowerBoundOf(entries, from), lowerBoundOf(entries, to))] as const;
      const before = this.settle();
      const [lo, hi] = range(before);
      if (hi === lo) return 0;
      const hours = new Set<number>();
      for (let i = lo; i < hi; i++) hours.add(hourOf(before[i]!.t));
      let failed: unknown;
      let done = hours;
      if (this.fs) {
        const result = await (await this.segments(this.fs)).deleteRange([...hours], from, to);
        done = result.done;
        failed = result.failed;
      }
      // Retention may have dropped hours meanwhile: the index is read again.
      const entries = this.settle();
      const [a, b] = range(entries);
      const kept: Entry[] = entries.slice(0, a);
      let gone = 0;
      for (let i = a; i < b; i++) {
        const e = entries[i]!;
        const h = hourOf(e.t);
        if (done.has(h)) {
          gone++;
          this.count(h, -1);
        } else kept.push(e);
      }
      for (let i = b; i < entries.length; i++) kept.push(entries[i]!);
      this.entries = kept;
      this.logger.debug(`tracker: deleted ${gone} events`);
      if (failed !== undefined) throw new HttpError(500, `Deleted ${gone} events; the others of the range are kept: a segment could not be rewritten`, { cause: failed });
      return gone;
    })();
    this.deleting = run;
    try {
      return await run;
    } finally {
      if (this.deleting === run) this.deleting = undefined;
    }
  }

  /** A window read: a synchronous selection over the index (the collector's fast path). */
  async read(query: ReadQuery): Promise<StoreSelection> {
    return { kind: 'index', ...selectEvents(this, query) };
  }

  /** Waits for every write and deletion under way. */
  async flush(): Promise<void> {
    await (await this.files?.catch(() => undefined))?.flush();
  }

  async close(): Promise<void> {
    await this.flush();
  }
}
