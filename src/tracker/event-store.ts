/**
 * EventStore: where collected events live.
 *
 * On the Vfs: append-only JSONL segments, one file per UTC hour of the events' timestamps
 * (`<dir>/2026-11-22T21.jsonl`), one line per event exactly as it is served. Every batch is one
 * `vfs.append` per segment it touches (or fewer: batches waiting for a busy segment are grouped
 * into one append), serialised per segment with a KeyedQueue, so concurrent batches never
 * interleave lines. Hour segments keep retention fine-grained (whole files are
 * deleted) and keep each file small enough to load quickly.
 *
 * In memory: a time index of entries sorted by (timestamp, ingest sequence) holding each event's
 * serialised JSON line, so a read is two binary searches plus a join of ready-made strings: no
 * parsing, no re-stringifying. Batches land in a `pending` list first and are merged into the
 * sorted index on the next read (O(n) merge, O(1) ingest even when clocks disagree).
 *
 * Without a Vfs (memory-only mode) the same structure is kept without files.
 */
import { KeyedQueue } from '../core/keyed-queue.js';
import { HttpError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import { isVfsError, type Vfs } from '../vfs/types.js';
import { newEventId } from './event-id.js';
import type { ValidBatch } from './ingest-batch.js';
import { parseTimestamp } from './timestamp.js';

export const HOUR_MS = 3_600_000;

export interface Entry {
  /** Timestamp, epoch ms. */
  t: number;
  /** Ingest sequence: orders events with equal timestamps. */
  seq: number;
  /** The stored event as one JSON text (no newline). */
  line: string;
}

export interface EventStoreOptions {
  fs?: Vfs;
  dir: string;
  logger: Logger;
  maxAgeMs?: number;
  retainEvents?: number;
}

const SEGMENT_NAME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2})\.jsonl$/;
const decoder = new TextDecoder();

export function hourOf(t: number): number {
  return Math.floor(t / HOUR_MS);
}

function segmentName(hour: number): string {
  return `${new Date(hour * HOUR_MS).toISOString().slice(0, 13)}.jsonl`;
}

/** First index whose timestamp is >= t. */
export function lowerBoundOf(entries: Entry[], t: number): number {
  let lo = 0;
  let hi = entries.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (entries[mid]!.t < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

interface AppendGroup {
  texts: string[];
  settle: Array<(err: unknown) => void>;
}

const byTimeThenSeq = (a: Entry, b: Entry) => a.t - b.t || a.seq - b.seq;

export class EventStore {
  private entries: Entry[] = [];
  private pending: Entry[] = [];
  private seq = 0;
  /** Events per hour segment (index and pending). */
  private readonly hours = new Map<number, number>();
  /** Bumped whenever an hour's set of events changes (for caches of encoded hours). */
  private readonly versions = new Map<number, number>();
  private readonly queue = new KeyedQueue();
  /** Per segment: batches waiting for the next append. */
  private readonly groups = new Map<string, AppendGroup>();
  private readonly writes = new Set<Promise<unknown>>();
  private readonly fs: Vfs | undefined;
  private readonly dir: string;
  private readonly logger: Logger;
  private readonly maxAgeMs: number | undefined;
  private readonly retainEvents: number | undefined;

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

  private segmentPath(hour: number): string {
    return this.dir ? `${this.dir}/${segmentName(hour)}` : segmentName(hour);
  }

  /** Loads every segment from the Vfs. A torn last line (crash mid-append) is skipped with a warning and cut off. */
  async load(): Promise<void> {
    const fs = this.fs;
    if (!fs) return;
    let names: string[];
    try {
      names = (await fs.readdir(this.dir)).filter((d) => d.kind === 'file' && SEGMENT_NAME.test(d.name)).map((d) => d.name);
    } catch (err) {
      if (isVfsError(err, 'ENOENT')) return;
      throw err;
    }
    const loaded: Entry[] = [];
    for (const name of names) {
      const path = this.dir ? `${this.dir}/${name}` : name;
      const text = decoder.decode(await fs.read(path));
      const lines = text.split('\n');
      const torn = lines[lines.length - 1] !== '';
      const kept: string[] = [];
      for (let i = 0; i < lines.length; i++) {
        const line = lines[i]!;
        if (line === '') continue;
        const last = i === lines.length - 1;
        const t = lineTime(line);
        if (t === undefined) {
          this.logger.warn(last && torn
            ? `tracker: skipped a torn last line in segment ${name} (an interrupted write)`
            : `tracker: skipped an unreadable line ${i + 1} in segment ${name}`);
          continue;
        }
        kept.push(line);
        loaded.push({ t, seq: ++this.seq, line });
        this.count(hourOf(t), 1);
      }
      if (torn) {
        // Cut the partial line off so the next append starts on a fresh line.
        await fs.write(path, kept.length ? `${kept.join('\n')}\n` : '');
      }
    }
    loaded.sort(byTimeThenSeq);
    this.entries = loaded;
    this.logger.debug(`tracker: loaded ${loaded.length} events from ${names.length} segments`);
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
   * fails nothing of the batch becomes visible (500).
   */
  async append(batch: ValidBatch, now = Date.now()): Promise<string[]> {
    const { events, times } = batch;
    const lines: string[] = new Array(events.length);
    const added: Entry[] = new Array(events.length);
    for (let i = 0; i < events.length; i++) {
      const line = JSON.stringify({ ...events[i], id: newEventId(now) });
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
      const fs = this.fs;
      const parts = [...groups].map(([hour, ls]) => ({ path: this.segmentPath(hour), text: `${ls.join('\n')}\n` }));
      const all = Promise.allSettled(parts.map((part) => this.appendToSegment(fs, part.path, part.text)));
      this.writes.add(all);
      let results: PromiseSettledResult<void>[];
      try {
        results = await all;
      } finally {
        this.writes.delete(all);
      }
      const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (failed) {
        this.logger.error(`tracker: could not store a batch of ${events.length} events: ${(failed.reason as Error)?.message ?? failed.reason}`);
        // All-or-nothing on disk too: take the batch back out of the segments that did take it,
        // or a retried batch would come back twice after a restart.
        await Promise.all(parts.map((part, i) => (results[i]!.status === 'fulfilled' ? this.removeFromSegment(fs, part.path, part.text) : undefined)));
        throw new HttpError(500, 'Could not store the events', { cause: failed.reason });
      }
    }
    for (const e of added) {
      this.pending.push(e);
      this.count(hourOf(e.t), 1);
    }
    this.applyRetention(now);
    return lines;
  }

  /**
   * Appends a batch's text to a segment. Writes to one segment run one at a time (KeyedQueue);
   * batches that arrive while a write is queued or under way are grouped into the next single
   * append (group commit): each batch's lines stay contiguous, and a busy segment costs one
   * write per group instead of one per batch.
   */
  private appendToSegment(fs: Vfs, path: string, text: string): Promise<void> {
    let group = this.groups.get(path);
    if (!group) {
      const g: AppendGroup = { texts: [], settle: [] };
      group = g;
      this.groups.set(path, g);
      const done = this.queue.run(path, () => {
        if (this.groups.get(path) === g) this.groups.delete(path);
        return fs.append(path, g.texts.length === 1 ? g.texts[0]! : g.texts.join(''));
      });
      done.then(() => { for (const s of g.settle) s(undefined); }, (err: unknown) => { for (const s of g.settle) s(err ?? new Error('append failed')); });
    }
    group.texts.push(text);
    const g = group;
    return new Promise<void>((resolve, reject) => g.settle.push((err) => (err === undefined ? resolve() : reject(err))));
  }

  /**
   * Removes a batch's text (contiguous, and unique: every line carries a new id) from a segment,
   * in the segment's queue so no append interleaves. Failing here is logged: the lines then
   * reappear on restart, which the log says.
   */
  private removeFromSegment(fs: Vfs, path: string, text: string): Promise<void> {
    return this.queue
      .run(path, async () => {
        const current = decoder.decode(await fs.read(path));
        const at = current.lastIndexOf(text);
        if (at !== -1) await fs.write(path, current.slice(0, at) + current.slice(at + text.length));
      })
      .catch((err: unknown) => {
        this.logger.error(`tracker: could not take a failed batch back out of ${path}; its events will reappear after a restart: ${(err as Error)?.message ?? err}`);
      });
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
      const fs = this.fs;
      if (fs) {
        const path = this.segmentPath(h);
        const removal = this.queue.run(path, () => fs.remove(path)).catch((err: Error) => {
          this.logger.warn(`tracker: retention could not delete segment ${segmentName(h)}: ${err.message}`);
        });
        this.writes.add(removal);
        void removal.then(() => this.writes.delete(removal));
      }
    }
    this.logger.debug(`tracker: retention dropped ${cut} events`);
  }

  /** Waits for every write and deletion under way. */
  async flush(): Promise<void> {
    while (this.writes.size) await Promise.allSettled([...this.writes]);
  }
}

/** Timestamp of a stored line, or undefined when the line is not a stored event. */
function lineTime(line: string): number | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (!value || typeof value !== 'object' || typeof (value as { id?: unknown }).id !== 'string') return undefined;
  const t = parseTimestamp((value as { timestamp?: unknown }).timestamp);
  return typeof t === 'number' ? t : undefined;
}
