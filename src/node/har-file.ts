/**
 * Keeps a record session's HAR log on disk (`mockyard record --har FILE`): saved after every
 * entry (at most one write in flight; entries arriving meanwhile are in the next save), each save
 * atomic (temp file + rename), and a last save on `close()`.
 */
import { rename, writeFile } from 'node:fs/promises';
import type { Recorder } from '../engine/proxy/recorder.js';

export interface HarFile {
  /** Waits for pending saves, saves once more, stops following the recorder. */
  close(): Promise<void>;
}

export function keepHarFile(recorder: Recorder, file: string, onError: (message: string) => void): HarFile {
  let running: Promise<void> | undefined;
  let dirty = false;
  let seq = 0;
  const save = async (): Promise<void> => {
    const tmp = `${file}.${process.pid}.${seq++}.tmp`;
    await writeFile(tmp, `${JSON.stringify(recorder.har(), null, 2)}\n`);
    await rename(tmp, file);
  };
  const kick = (): void => {
    if (running) {
      dirty = true;
      return;
    }
    running = save()
      .catch((err: unknown) => onError(`could not save the HAR log ${file}: ${(err as Error)?.message ?? String(err)}`))
      .finally(() => {
        running = undefined;
        if (dirty) {
          dirty = false;
          kick();
        }
      });
  };
  const stop = recorder.onEntry(kick);
  return {
    async close() {
      stop();
      await recorder.settled();
      while (running) await running;
      await save().catch((err: unknown) => onError(`could not save the HAR log ${file}: ${(err as Error)?.message ?? String(err)}`));
    },
  };
}
