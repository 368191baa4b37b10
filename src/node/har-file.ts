/**
 * Keeps a record session's HAR log on disk (`mockyard record --har FILE`): saved after every
 * entry (at most one write in flight; entries arriving meanwhile are in the next save), each save
 * atomic (temp file + rename), and a last save on `close()`.
 *
 * A HAR log already at FILE is kept, like recorded files are: this session's entries are added
 * after its own (unless `overwrite`). A file there that is not a HAR log is moved aside to
 * `FILE.<time>.bak` (said on stderr), never overwritten.
 */
import { readFileSync } from 'node:fs';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Entry, Har } from 'har-format';
import { CoalescedRun } from '../core/coalesced-run.js';
import type { Recorder } from '../engine/proxy/recorder.js';

/** The entries of the HAR log at `file` (none when there is no file); moves a file that is not one aside. */
async function earlierEntries(file: string, onError: (message: string) => void): Promise<Entry[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as { code?: string }).code === 'ENOENT') return [];
    throw err;
  }
  try {
    const entries = (JSON.parse(text) as Har).log.entries;
    if (Array.isArray(entries)) return entries;
  } catch {
    // not JSON: below
  }
  const aside = `${file}.${new Date().toISOString().replace(/[:.]/g, '-')}.bak`;
  await rename(file, aside);
  onError(`${file} was not a HAR log: moved to ${aside}`);
  return [];
}

export interface HarFile {
  /** Waits for pending saves, saves once more, stops following the recorder. */
  close(): Promise<void>;
}

export function keepHarFile(recorder: Recorder, file: string, onError: (message: string) => void, options: { overwrite?: boolean } = {}): HarFile {
  let seq = 0;
  const earlier: Promise<Entry[]> = options.overwrite ? Promise.resolve([]) : earlierEntries(file, onError).catch((err: unknown) => {
    onError(`could not read the HAR log ${file}: ${(err as Error)?.message ?? String(err)}; this session's log replaces it`);
    return [];
  });
  const save = async (): Promise<void> => {
    try {
      const before = await earlier;
      const har = recorder.har();
      if (before.length > 0) har.log.entries = [...before, ...har.log.entries];
      const tmp = `${file}.${process.pid}.${seq++}.tmp`;
      await writeFile(tmp, `${JSON.stringify(har, null, 2)}\n`);
      await rename(tmp, file);
    } catch (err) {
      onError(`could not save the HAR log ${file}: ${(err as Error)?.message ?? String(err)}`);
    }
  };
  // One save at a time; entries that come during a save are in the next one.
  const saving = new CoalescedRun(save);
  const stop = recorder.onEntry(() => void saving.run());
  return {
    async close() {
      stop();
      await recorder.settled();
      await saving.idle();
      await save();
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
