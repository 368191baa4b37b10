/**
 * The collector's events on a Vfs: append-only JSONL segments, one file per UTC hour of the
 * events' timestamps (`<dir>/2026-11-22T21.jsonl`), one line per event exactly as it is served.
 * Every batch is one `vfs.append` per segment it touches (or fewer: batches waiting for a busy
 * segment are grouped into one append), serialised per segment with a KeyedQueue, so concurrent
 * batches never interleave lines. Hour segments keep retention fine-grained (whole files are
 * deleted) and keep each file small enough to load quickly.
 *
 * EventStore (the in-memory index) imports this module only when the collector has storage: its
 * own chunk in browser bundles, never fetched by a page whose collector keeps events in memory.
 */
import { HttpError } from '../core/errors.js';
import { KeyedQueue } from '../core/keyed-queue.js';
import type { Logger } from '../core/logger.js';
import { isVfsError, type Vfs } from '../vfs/types.js';
import { RETRY_AFTER_SECONDS } from './storage-state.js';
import { HOUR_MS } from './time-index.js';
import { parseTimestamp } from './timestamp.js';

const SEGMENT_NAME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2})\.jsonl$/;
const decoder = new TextDecoder();

function segmentName(hour: number): string {
  return `${new Date(hour * HOUR_MS).toISOString().slice(0, 13)}.jsonl`;
}

interface AppendGroup {
  texts: string[];
  settle: Array<(err: unknown) => void>;
}

export class SegmentFiles {
  private readonly queue = new KeyedQueue();
  /** Per segment: batches waiting for the next append. */
  private readonly groups = new Map<string, AppendGroup>();
  private readonly writes = new Set<Promise<unknown>>();
  /** The last write failed for a disk problem (diskProblem): logged once until one succeeds. */
  private failing = false;

  constructor(private readonly fs: Vfs, private readonly dir: string, private readonly logger: Logger) {}

  private path(hour: number): string {
    return this.dir ? `${this.dir}/${segmentName(hour)}` : segmentName(hour);
  }

  /**
   * Reads every segment, calling `add` for each stored event and `addBatch` for each complete
   * marked batch (its client batchId, event count and storage time). Recovery: a
   * marked part with fewer lines than its marker announces (a write cut short by a crash), and
   * every part of a batch whose last part is missing or incomplete, are dropped with a warning and
   * cut out of the file; so is a torn last line. Returns the number of segments.
   */
  async load(add: (t: number, line: string) => void, addBatch?: (batchId: string, count: number, at: number) => void): Promise<number> {
    const fs = this.fs;
    let names: string[];
    try {
      names = (await fs.readdir(this.dir)).filter((d) => d.kind === 'file' && SEGMENT_NAME.test(d.name)).map((d) => d.name);
    } catch (err) {
      if (isVfsError(err, 'ENOENT')) return 0;
      throw err;
    }
    const segments: Array<{ name: string; path: string; lines: string[]; torn: boolean; parts: Part[] }> = [];
    /** Keys of batches whose last part is complete. */
    const complete = new Set<string>();
    for (const name of names) {
      const path = this.dir ? `${this.dir}/${name}` : name;
      const lines = decoder.decode(await fs.read(path)).split('\n');
      // The last element is '' after a final newline; anything else is a torn line.
      const torn = lines[lines.length - 1] !== '';
      const whole = lines.length - 1; // lines[0, whole) ended with a newline
      const parts: Part[] = [];
      for (let i = 0; i < whole; i++) {
        const marker = markerOf(lines[i]!);
        if (!marker) continue;
        let j = i + 1;
        while (j < whole && j - i - 1 < marker.n && !markerOf(lines[j]!)) j++;
        const ok = j - i - 1 === marker.n;
        parts.push({ marker, from: i, to: j, ok });
        if (ok && marker.last) complete.add(marker.key);
        i = j - 1;
      }
      segments.push({ name, path, lines, torn, parts });
    }
    for (const { name, path, lines, torn, parts } of segments) {
      const kept: string[] = [];
      let dropped = false;
      let p = 0;
      for (let i = 0; i < lines.length; i++) {
        const part = parts[p];
        if (part && i === part.from) {
          p++;
          if (!part.ok || !complete.has(part.marker.key)) {
            this.logger.warn(`tracker: dropped an incomplete batch from segment ${name} (${part.to - part.from - 1} of its ${part.marker.count} events were written before an interruption)`);
            dropped = true;
            i = part.to - 1;
            continue;
          }
          if (part.marker.last && part.marker.batchId !== undefined) addBatch?.(part.marker.batchId, part.marker.count, part.marker.at);
          kept.push(lines[i]!);
          continue;
        }
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
        add(t, line);
      }
      if (torn || dropped) {
        // Cut the partial line or batch off so the next append starts on a fresh line and a
        // restart finds the same events.
        await fs.write(path, kept.length ? `${kept.join('\n')}\n` : '');
      }
    }
    return names.length;
  }

  /**
   * Writes a batch's lines (grouped by hour). All-or-nothing: when a write fails, the batch is
   * taken back out of the segments that did take it, and the answer is a 500. On disk, a batch of
   * more than one event (or with a client batchId) is written as marked parts, one per segment:
   * a marker line announcing the part's line count, then the lines. The part in the newest hour
   * is written last, after every other part is on disk, and is marked `last`: at load, a batch
   * counts only when its last part is complete (retention deletes the oldest hours first, so it
   * never removes a last part while keeping an earlier one).
   */
  async store(byHour: Map<number, string[]>, count: number, meta: { key: string; at: number; batchId?: string }): Promise<void> {
    const fs = this.fs;
    const hours = [...byHour.keys()].sort((a, b) => a - b);
    const marked = count > 1 || meta.batchId !== undefined;
    const parts = hours.map((hour, i) => {
      const ls = byHour.get(hour)!;
      const last = i === hours.length - 1;
      const marker = marked ? `${markerLine({ key: meta.key, n: ls.length, count, last, at: meta.at, batchId: meta.batchId })}\n` : '';
      return { path: this.path(hour), text: `${marker}${ls.join('\n')}\n` };
    });
    const written: boolean[] = parts.map(() => false);
    const write = (i: number) => this.appendToSegment(fs, parts[i]!.path, parts[i]!.text).then(() => { written[i] = true; });
    const all = (async () => {
      const early = await Promise.allSettled(parts.slice(0, -1).map((_, i) => write(i)));
      const failed = early.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (failed) throw failed.reason;
      await write(parts.length - 1);
    })();
    this.writes.add(all);
    try {
      await all;
      if (this.failing) {
        this.failing = false;
        this.logger.info('tracker: events are written to disk again');
      }
    } catch (err) {
      const problem = diskProblem(err);
      // A disk problem (full, not writable) is logged when it starts, not for every batch.
      if (!problem || !this.failing) this.logger.error(`tracker: could not store a batch of ${count} events: ${(err as Error)?.message ?? err}${problem ? ' (ingest answers 503 until a write succeeds)' : ''}`);
      if (problem) this.failing = true;
      // All-or-nothing on disk too: take the batch back out of the segments that did take it,
      // or a retried batch would come back twice after a restart.
      await Promise.all(parts.map((part, i) => (written[i] ? this.removeFromSegment(fs, part.path, part.text) : undefined)));
      if (problem) throw new HttpError(503, `Could not store the events: ${problem}; try again later`, { headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) }, cause: err });
      throw new HttpError(500, 'Could not store the events', { cause: err });
    } finally {
      this.writes.delete(all);
    }
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

  /**
   * Takes the events with from <= t < to out of these hours' segments (the dashboard's delete of
   * a time range), each in its segment's queue: the segment is read, its other lines kept as they
   * are, and written back in one atomic write (`Vfs.write`: temp file + rename on disk), or removed
   * when nothing is left. A batch marker keeps its place with its line count lowered by the lines
   * taken out of its part, so a batch spread over several hours still loads whole (a `last` part
   * emptied keeps its marker). Returns the hours rewritten and the first failure, if any (the
   * hours after it are still tried).
   */
  async deleteRange(hours: number[], from: number, to: number): Promise<{ done: Set<number>; failed?: unknown }> {
    const done = new Set<number>();
    let failed: unknown;
    await Promise.all(hours.map((hour) => {
      const path = this.path(hour);
      const rewrite = this.queue.run(path, async () => {
        let text: string;
        try {
          text = decoder.decode(await this.fs.read(path));
        } catch (err) {
          if (!isVfsError(err, 'ENOENT')) throw err;
          done.add(hour); // dropped by retention meanwhile: nothing of it on disk
          return;
        }
        const lines = text.split('\n');
        const tail = lines.pop(); // '' after the final newline
        const kept: string[] = [];
        let events = 0;
        let markers = 0;
        for (let i = 0; i < lines.length; i++) {
          const marker = markerOf(lines[i]!);
          if (!marker) {
            const t = lineTime(lines[i]!);
            if (t !== undefined && t >= from && t < to) continue;
            kept.push(lines[i]!);
            if (t !== undefined) events++;
            continue;
          }
          const part: string[] = [];
          let j = i + 1;
          for (; j < lines.length && j - i - 1 < marker.n && !markerOf(lines[j]!); j++) {
            const t = lineTime(lines[j]!);
            if (t === undefined || t < from || t >= to) part.push(lines[j]!);
          }
          const n = marker.n - (j - i - 1 - part.length);
          if (n > 0 || marker.last) {
            kept.push(markerLine({ ...marker, n }), ...part);
            markers++;
            events += part.length;
          }
          i = j - 1;
        }
        if (tail) kept.push(tail);
        if (events === 0 && markers === 0 && !tail) await this.fs.remove(path);
        else await this.fs.write(path, kept.length ? `${kept.join('\n')}${tail ? '' : '\n'}` : '');
        done.add(hour);
      });
      this.writes.add(rewrite);
      return rewrite.then(
        () => this.writes.delete(rewrite),
        (err: unknown) => {
          this.writes.delete(rewrite);
          failed ??= err;
          this.logger.error(`tracker: could not delete events from segment ${segmentName(hour)}: ${(err as Error)?.message ?? err}`);
        },
      );
    }));
    return failed === undefined ? { done } : { done, failed };
  }

  /** Deletes an hour's segment (retention), after the writes queued on it. */
  remove(hour: number): void {
    const path = this.path(hour);
    const removal = this.queue.run(path, () => this.fs.remove(path)).catch((err: Error) => {
      this.logger.warn(`tracker: retention could not delete segment ${segmentName(hour)}: ${err.message}`);
    });
    this.writes.add(removal);
    void removal.then(() => this.writes.delete(removal));
  }

  /** Waits for every write and deletion under way. */
  async flush(): Promise<void> {
    while (this.writes.size) await Promise.allSettled([...this.writes]);
  }
}

/**
 * The reason a write failed when it is the disk's doing (full, not writable, read-only), for the
 * 503 the client sees; undefined for anything else. Disk errors other than the ones a Vfs passes
 * through arrive as EIO naming the system's code (`I/O error (ENOSPC) on …`).
 */
function diskProblem(err: unknown): string | undefined {
  const e = err as { code?: unknown; message?: unknown } | null;
  const code = e?.code === 'EIO' ? /\((E[A-Z]+)\)/.exec(String(e.message ?? ''))?.[1] : e?.code;
  switch (code) {
    case 'ENOSPC':
    case 'EDQUOT':
      return `the disk is full (${code})`;
    case 'EACCES':
      return 'the events folder may not be written (EACCES)';
    case 'EROFS':
      return 'the events folder is on a read-only file system (EROFS)';
    default:
      return undefined;
  }
}

interface Marker {
  /** The batch's key (the id of its first event). */
  key: string;
  /** Lines of this part. */
  n: number;
  /** Events of the whole batch. */
  count: number;
  /** The part in the batch's newest hour, written after all the others. */
  last: boolean;
  /** Storage time, epoch ms. */
  at: number;
  batchId?: string;
}

interface Part {
  marker: Marker;
  /** Index of the marker line; the part's lines are (from, to). */
  from: number;
  to: number;
  /** Every announced line is present and whole. */
  ok: boolean;
}

const MARKER_PREFIX = '{"$batch":';

/** A batch marker: a JSON line, so segments stay JSONL (events always carry an `id`; markers never). */
function markerLine(m: Marker): string {
  return `${MARKER_PREFIX}${JSON.stringify(m)}}`;
}

function markerOf(line: string): Marker | undefined {
  if (!line.startsWith(MARKER_PREFIX)) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  const v = value as { id?: unknown; $batch?: Partial<Marker> };
  const m = v.$batch;
  if (v.id !== undefined || !m || typeof m.key !== 'string' || !Number.isSafeInteger(m.n) || !Number.isSafeInteger(m.count) || typeof m.last !== 'boolean' || typeof m.at !== 'number') return undefined;
  if (m.batchId !== undefined && typeof m.batchId !== 'string') return undefined;
  return m as Marker;
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
