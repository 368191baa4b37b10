/**
 * The collector's ingest spool on disk (the IngestSpool of src/tracker/spool.ts).
 *
 * Files in the spool folder, one writer each: `<pid>-<start>.<rand>-<n>.spool`, JSONL, one batch
 * (its ingest envelope) per line. Appends are group-committed: the batches that arrive while a
 * write is under way go out in the next single write, then one `fdatasync`, and only then are
 * they acknowledged. A write that fails rolls over to a new file, so a torn line is always the
 * last of its file, where reading skips it. The drain reads closed files oldest first (the file
 * being written is closed and a new one begun when the drain reaches it); what it has drained is
 * remembered in `<file>.done` (an offset, written without fsync: a batch given again after a crash
 * is skipped by its batch id), and a drained file is deleted.
 *
 * Several processes may share one folder: each writes its own files, and the files of a process
 * that is gone (no such pid, or this process's own pid after a restart in a container, from an
 * earlier start) are taken over by renaming them, which only one taker can do.
 */
import { mkdir, open, readdir, readFile, rename, unlink, writeFile, type FileHandle } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { CoalescedRun } from '../core/coalesced-run.js';
import { HttpError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import { RETRY_AFTER_SECONDS } from '../tracker/storage-state.js';
import type { IngestSpool, SpooledBatch, SpoolSettings } from '../tracker/spool.js';

export const DEFAULT_SPOOL_DIR = '.mockyard/tracker-spool';

const FILE = /^(\d+)-(\d{15})\.([0-9a-z]+)-(\d+)\.spool$/;
/** How often the drain looks for files of processes that died since. */
const ADOPT_EVERY_MS = 10_000;
/** Spools open in this process (their tokens): files of this pid that are not orphans. */
const liveTokens = new Set<string>();

interface SpoolLine {
  batchId: string;
  text: string;
  /** Bytes of its line, newline included. */
  bytes: number;
  /** Offset just after its line. */
  end: number;
}

interface ClosedFile {
  path: string;
  /** Undrained records, read on first use. */
  records: SpoolLine[] | undefined;
}

interface Pending {
  line: string;
  record: { batchId: string; bytes: number };
  settle(err?: unknown): void;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The complete lines of `text` from `offset` as records; a torn last line is left out. */
function parseRecords(text: Buffer, offset: number, logger: Logger, name: string): SpoolLine[] {
  const records: SpoolLine[] = [];
  let at = offset;
  while (at < text.length) {
    const nl = text.indexOf(10, at);
    if (nl === -1) {
      logger.warn(`tracker: skipped a torn last line in spool file ${name} (a write cut short; it was never acknowledged)`);
      break;
    }
    const line = text.toString('utf8', at, nl);
    const end = nl + 1;
    try {
      const batchId = (JSON.parse(line) as { batchId?: unknown }).batchId;
      if (typeof batchId !== 'string') throw new Error('no batchId');
      records.push({ batchId, text: line, bytes: end - at, end });
    } catch {
      logger.warn(`tracker: skipped an unreadable line in spool file ${name}`);
    }
    at = end;
  }
  return records;
}

export class DiskSpool implements IngestSpool {
  readonly dir: string;
  readonly maxBytes: number;
  private readonly token = `${String(Date.now()).padStart(15, '0')}.${Math.random().toString(36).slice(2, 8)}`;
  private seq = 0;
  private readonly closed: ClosedFile[] = [];
  private current: { path: string; handle: FileHandle; count: number; size: number } | undefined;
  private pending: Pending[] = [];
  /** The writer: one at a time; batches added while it finishes start it again. */
  private readonly writer = new CoalescedRun(() => this.flush());
  private readonly ids = new Set<string>();
  private bytesHeld = 0;
  private count = 0;
  private full = false;
  private lastAdopt = 0;

  constructor(settings: SpoolSettings, private readonly logger: Logger) {
    this.dir = resolve(settings.dir ?? DEFAULT_SPOOL_DIR);
    this.maxBytes = settings.maxBytes;
  }

  get batches(): number {
    return this.count;
  }

  get bytes(): number {
    return this.bytesHeld;
  }

  has(batchId: string): boolean {
    return this.ids.has(batchId);
  }

  async load(): Promise<void> {
    liveTokens.add(this.token);
    await mkdir(this.dir, { recursive: true });
    await this.adoptOrphans();
  }

  private nextPath(): string {
    return join(this.dir, `${process.pid}-${this.token}-${this.seq++}.spool`);
  }

  /** Takes over the files of processes that are gone (oldest first), counting their batches. */
  private async adoptOrphans(): Promise<number> {
    this.lastAdopt = Date.now();
    const orphans = (await readdir(this.dir))
      .map((name) => ({ name, m: FILE.exec(name) }))
      .filter(({ m }) => {
        if (!m) return false;
        const pid = Number(m[1]);
        const token = `${m[2]}.${m[3]}`;
        return pid === process.pid ? !liveTokens.has(token) : !alive(pid);
      })
      .sort((a, b) => a.m![2]!.localeCompare(b.m![2]!) || a.m![3]!.localeCompare(b.m![3]!) || Number(a.m![4]) - Number(b.m![4]));
    let adopted = 0;
    for (const { name } of orphans) {
      const from = join(this.dir, name);
      const to = this.nextPath();
      try {
        await rename(from, to);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue; // another process took it
        throw err;
      }
      let offset = 0;
      try {
        offset = Number(await readFile(`${from}.done`, 'utf8')) || 0;
        await unlink(`${from}.done`);
      } catch {
        // nothing drained from it yet
      }
      const records = parseRecords(await readFile(to), offset, this.logger, name);
      if (records.length === 0) {
        await unlink(to).catch(() => {});
        continue;
      }
      if (offset) await writeFile(`${to}.done`, String(offset));
      for (const r of records) {
        this.ids.add(r.batchId);
        this.bytesHeld += r.bytes;
      }
      this.count += records.length;
      adopted += records.length;
      // Older than anything this process wrote.
      const at = this.closed.findIndex((f) => f.records === undefined);
      this.closed.splice(at === -1 ? this.closed.length : at, 0, { path: to, records });
    }
    if (adopted) this.logger.info(`tracker: took over ${adopted} spooled batches left by a stopped collector`);
    return adopted;
  }

  add(batch: SpooledBatch): Promise<void> {
    const line = `${batch.text}\n`;
    const bytes = Buffer.byteLength(line);
    if (this.bytesHeld + bytes > this.maxBytes) {
      if (!this.full) this.logger.warn(`tracker: the ingest spool is full (${this.maxBytes} bytes); ingest answers 503 until it drains`);
      this.full = true;
      return Promise.reject(new HttpError(503, `The event spool is full (${this.maxBytes} bytes) while the event storage is unavailable; try again later`, { headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) } }));
    }
    this.bytesHeld += bytes;
    this.count++;
    this.ids.add(batch.batchId);
    return new Promise<void>((resolvePromise, reject) => {
      this.pending.push({
        line,
        record: { batchId: batch.batchId, bytes },
        settle: (err) => {
          if (err === undefined) return resolvePromise();
          this.bytesHeld -= bytes;
          this.count--;
          this.ids.delete(batch.batchId);
          reject(new HttpError(503, `The event spool could not be written (${(err as NodeJS.ErrnoException)?.code ?? 'error'}); try again later`, { headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) }, cause: err }));
        },
      });
      void this.writer.run();
    });
  }

  /** Writes what is pending, group by group: one write and one fdatasync per group. */
  private async flush(): Promise<void> {
    while (this.pending.length) {
      const group = this.pending;
      this.pending = [];
      try {
        if (!this.current) {
          const path = this.nextPath();
          const handle = await open(path, 'a');
          this.current = { path, handle, count: 0, size: 0 };
          // The new file's name is durable too.
          const dir = await open(this.dir, 'r');
          try {
            await dir.sync();
          } finally {
            await dir.close();
          }
        }
        const text = group.length === 1 ? group[0]!.line : group.map((p) => p.line).join('');
        await this.current.handle.appendFile(text);
        await this.current.handle.datasync();
        this.current.count += group.length;
        for (const p of group) p.settle();
      } catch (err) {
        this.logger.error(`tracker: could not write the ingest spool in ${this.dir}: ${(err as Error)?.message ?? err}`);
        // Whatever reached the file is cut off by the next file: roll over.
        const broken = this.current;
        this.current = undefined;
        if (broken) {
          await broken.handle.close().catch(() => {});
          if (broken.count > 0) this.closed.push({ path: broken.path, records: undefined });
          else await unlink(broken.path).catch(() => {});
        }
        for (const p of group) p.settle(err);
      }
    }
  }

  /** Closes the file being written (after its writes) so the drain can read it. */
  private async roll(): Promise<void> {
    await this.writer.idle();
    const file = this.current;
    if (!file) return;
    this.current = undefined;
    await file.handle.close();
    if (file.count > 0) this.closed.push({ path: file.path, records: undefined });
    else await unlink(file.path).catch(() => {});
  }

  async peek(max: number): Promise<SpooledBatch[]> {
    for (;;) {
      const file = this.closed[0];
      if (!file) {
        if (this.current && this.current.count > 0) {
          await this.roll();
          continue;
        }
        if (Date.now() - this.lastAdopt >= ADOPT_EVERY_MS && (await this.adoptOrphans()) > 0) continue;
        return [];
      }
      file.records ??= parseRecords(await readFile(file.path), await this.doneOffset(file.path), this.logger, file.path);
      if (file.records.length === 0) {
        await this.finish(file);
        continue;
      }
      return file.records.slice(0, max).map(({ batchId, text }) => ({ batchId, text }));
    }
  }

  private async doneOffset(path: string): Promise<number> {
    try {
      return Number(await readFile(`${path}.done`, 'utf8')) || 0;
    } catch {
      return 0;
    }
  }

  async release(count: number): Promise<void> {
    const file = this.closed[0];
    if (!file?.records || count <= 0) return;
    const gone = file.records.splice(0, count);
    for (const r of gone) {
      this.bytesHeld -= r.bytes;
      this.ids.delete(r.batchId);
    }
    this.count -= gone.length;
    if (this.bytesHeld < this.maxBytes) this.full = false;
    if (file.records.length === 0) await this.finish(file);
    else await writeFile(`${file.path}.done`, String(gone[gone.length - 1]!.end));
  }

  private async finish(file: ClosedFile): Promise<void> {
    this.closed.splice(this.closed.indexOf(file), 1);
    await unlink(file.path).catch(() => {});
    await unlink(`${file.path}.done`).catch(() => {});
  }

  async close(): Promise<void> {
    await this.writer.idle();
    const file = this.current;
    this.current = undefined;
    if (file) {
      await file.handle.close().catch(() => {});
      if (file.count === 0) await unlink(file.path).catch(() => {});
    }
    liveTokens.delete(this.token);
  }
}
