/**
 * Keeps a record session's HAR log on disk (`mockyard record --har FILE`), each entry appended as
 * it comes: the file is laid out as a head line (`{"log":{…,"entries":[`), one entry per line and
 * a tail (`]}}`), so adding entries is one write at the tail's place — the cost of a save is the
 * new entries, not the whole log, and nothing but the entries not yet written is held in memory.
 * At most one write in flight (entries arriving meanwhile go in the next); `close()` writes the
 * last ones.
 *
 * The first write puts the whole file in that layout (temp file + rename): a HAR log already at
 * FILE is kept, like recorded files are, and this session's entries follow its own (unless
 * `overwrite`); a log whose last write was cut short (a crash) keeps every whole entry; a file
 * there that is not a HAR log is moved aside to `FILE.<time>.bak` (said on stderr), never
 * overwritten.
 */
import { readFileSync } from 'node:fs';
import { open, readFile, rename, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Entry } from 'har-format';
import { CoalescedRun } from '../core/coalesced-run.js';
import type { Recorder } from '../engine/proxy/recorder.js';

const TAIL = '\n]}}\n';

type LogFields = Record<string, unknown>;

/** The head line for a log's fields (every field but `entries`, which comes last and is left open). */
function headLine(fields: LogFields): string {
  const { entries: _entries, ...rest } = fields;
  return JSON.stringify({ log: { ...rest, entries: [] } }).slice(0, -3);
}

/** An earlier log's fields and entries (as JSON lines): any HAR log, or one of ours cut short. */
function parseEarlier(text: string): { fields: LogFields; entries: string[] } | null {
  try {
    const log = (JSON.parse(text) as { log?: LogFields }).log;
    if (log && Array.isArray(log.entries)) return { fields: log, entries: (log.entries as unknown[]).map((e) => JSON.stringify(e)) };
  } catch {
    // not whole: below
  }
  // Our layout, its last append cut short: the head line, then every entry line that parses.
  const lines = text.split('\n');
  let fields: LogFields;
  try {
    fields = (JSON.parse(`${lines[0]}]}}`) as { log: LogFields }).log;
  } catch {
    return null;
  }
  const entries: string[] = [];
  for (const line of lines.slice(1)) {
    const entry = line.endsWith(',') ? line.slice(0, -1) : line;
    try {
      JSON.parse(entry);
    } catch {
      break;
    }
    entries.push(entry);
  }
  return { fields, entries };
}

/** The log at `file` to continue (null: none); moves a file that is not one aside. */
async function earlierLog(file: string, onError: (message: string) => void): Promise<{ fields: LogFields; entries: string[] } | null> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as { code?: string }).code === 'ENOENT') return null;
    throw err;
  }
  const earlier = parseEarlier(text);
  if (earlier !== null) return earlier;
  const aside = `${file}.${new Date().toISOString().replace(/[:.]/g, '-')}.bak`;
  await rename(file, aside);
  onError(`${file} was not a HAR log: moved to ${aside}`);
  return null;
}

export interface HarFile {
  /** Waits for the recorder's pending entries, writes them, stops following the recorder. */
  close(): Promise<void>;
}

export function keepHarFile(recorder: Recorder, file: string, onError: (message: string) => void, options: { overwrite?: boolean } = {}): HarFile {
  const fail = (err: unknown) => onError(`could not save the HAR log ${file}: ${(err as Error)?.message ?? String(err)}`);
  const waiting: Entry[] = [];
  /** Bytes in the file and entries in it, once this session first wrote it. */
  let at: { size: number; count: number } | undefined;
  const earlier = options.overwrite
    ? Promise.resolve(null)
    : earlierLog(file, onError).catch((err: unknown) => {
      onError(`could not read the HAR log ${file}: ${(err as Error)?.message ?? String(err)}; this session's log replaces it`);
      return null;
    });

  /** The first write: the whole file in the layout (earlier entries, then `batch`), atomically. */
  const writeWhole = async (batch: Entry[]): Promise<void> => {
    const before = await earlier;
    const fields = before?.fields ?? (recorder.har().log as unknown as LogFields);
    const entries = [...(before?.entries ?? []), ...batch.map((e) => JSON.stringify(e))];
    const text = `${headLine(fields)}${entries.length > 0 ? `\n${entries.join(',\n')}` : ''}${TAIL}`;
    const tmp = `${file}.${process.pid}.tmp`;
    await writeFile(tmp, text);
    await rename(tmp, file);
    at = { size: Buffer.byteLength(text), count: entries.length };
  };

  const append = async (whole = false): Promise<void> => {
    if (waiting.length === 0 && !(whole && at === undefined)) return;
    const batch = waiting.splice(0);
    try {
      if (at === undefined) return await writeWhole(batch);
      const text = `${at.count === 0 ? '\n' : ',\n'}${batch.map((e) => JSON.stringify(e)).join(',\n')}${TAIL}`;
      const handle = await open(file, 'r+');
      try {
        await handle.write(text, at.size - TAIL.length);
      } finally {
        await handle.close();
      }
      at = { size: at.size - TAIL.length + Buffer.byteLength(text), count: at.count + batch.length };
    } catch (err) {
      waiting.unshift(...batch); // written with the next entry (e.g. once the folder exists)
      throw err;
    }
  };
  // One write at a time; entries that come during one are in the next.
  const saving = new CoalescedRun(() => append().catch(fail));
  const stop = recorder.onEntry((entry) => {
    waiting.push(entry);
    void saving.run();
  });
  return {
    async close() {
      await recorder.settled();
      stop();
      await saving.idle();
      await append(true).catch(fail);
    },
  };
}

/**
 * `mock.har` given by a path (Node's runtime `readHar`): the file read and parsed at start-up, so
 * a missing or malformed file stops the start with a message naming it.
 */
export function readHarFile(path: string, root: string | undefined): unknown {
  const file = resolve(root ?? process.cwd(), path);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new Error(`cannot read the HAR file ${path}: ${(err as { code?: string }).code ?? (err as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new Error(`the HAR file ${path} is not JSON: ${(err as Error).message}`);
  }
}
