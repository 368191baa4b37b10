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
import { HOUR_MS } from './event-store.js';
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

  constructor(private readonly fs: Vfs, private readonly dir: string, private readonly logger: Logger) {}

  private path(hour: number): string {
    return this.dir ? `${this.dir}/${segmentName(hour)}` : segmentName(hour);
  }

  /**
   * Reads every segment, calling `add` for each stored event. A torn last line (crash mid-append)
   * is skipped with a warning and cut off. Returns the number of segments.
   */
  async load(add: (t: number, line: string) => void): Promise<number> {
    const fs = this.fs;
    let names: string[];
    try {
      names = (await fs.readdir(this.dir)).filter((d) => d.kind === 'file' && SEGMENT_NAME.test(d.name)).map((d) => d.name);
    } catch (err) {
      if (isVfsError(err, 'ENOENT')) return 0;
      throw err;
    }
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
        add(t, line);
      }
      if (torn) {
        // Cut the partial line off so the next append starts on a fresh line.
        await fs.write(path, kept.length ? `${kept.join('\n')}\n` : '');
      }
    }
    return names.length;
  }

  /**
   * Writes a batch's lines (grouped by hour). All-or-nothing: when a write fails, the batch is
   * taken back out of the segments that did take it, and the answer is a 500.
   */
  async store(byHour: Map<number, string[]>, count: number): Promise<void> {
    const fs = this.fs;
    const parts = [...byHour].map(([hour, ls]) => ({ path: this.path(hour), text: `${ls.join('\n')}\n` }));
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
      this.logger.error(`tracker: could not store a batch of ${count} events: ${(failed.reason as Error)?.message ?? failed.reason}`);
      // All-or-nothing on disk too: take the batch back out of the segments that did take it,
      // or a retried batch would come back twice after a restart.
      await Promise.all(parts.map((part, i) => (results[i]!.status === 'fulfilled' ? this.removeFromSegment(fs, part.path, part.text) : undefined)));
      throw new HttpError(500, 'Could not store the events', { cause: failed.reason });
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
