/**
 * Whether `fsDir` exists, noticing a folder that appears after start-up.
 *
 * The spec: "When the directory does not exist, file routing is disabled automatically but custom
 * handlers still work." Disabled, not forever: while the folder is missing, every request that
 * reaches file routing asks again, so a folder created later (by the user, a script, a
 * `git checkout`, the app's own `req.app.fs`) is served from the next request on.
 * - Exclusive filesystems (memory, IndexedDB: every change goes through the Vfs) re-check only
 *   after a change event, so a missing folder costs nothing per request.
 * - Disk (changes happen behind our back) re-checks with one `stat` per such request, only while
 *   the folder is missing (those requests are 404s anyway).
 * "Missing" covers every reason file mode cannot use it (fs-dir-check.ts: absent, not a folder,
 * not accessible), each reported in its own words.
 * Once the folder is there the probe is done: it is not watched for disappearing (file routing
 * then answers 404 for the files that are gone, as for any missing file).
 */
import type { Vfs } from '../../vfs/types.js';
import { fsDirProblem } from './fs-dir-check.js';

export interface FsDirProbe {
  /** true once fsDir exists (as a folder); asks the Vfs only when it may have changed. */
  exists(): Promise<boolean>;
  /** Synchronously: true when the folder is certainly still missing (exclusive Vfs, no change since). */
  knownMissing(): boolean;
  /** What the last check found wrong, in words ('does not exist', 'is not accessible …'), or null. */
  problem(): string | null;
  close(): void;
}

export function createFsDirProbe(vfs: Vfs, fsDir: string): FsDirProbe {
  let found = false;
  let dirty = true;
  let pending: Promise<boolean> | undefined;
  let stop: (() => void) | undefined = vfs.exclusive ? vfs.onChange(() => (dirty = true)) : undefined;

  let problem: string | null = null;

  const check = async (): Promise<boolean> => {
    dirty = false;
    problem = await fsDirProblem(vfs, fsDir);
    const ok = problem === null;
    if (ok) {
      found = true;
      stop?.();
      stop = undefined;
    }
    return ok;
  };

  return {
    exists(): Promise<boolean> {
      if (found) return Promise.resolve(true);
      if (vfs.exclusive && !dirty) return Promise.resolve(false);
      // concurrent requests share one stat
      return (pending ??= check().finally(() => (pending = undefined)));
    },
    knownMissing: () => !found && vfs.exclusive && !dirty && pending === undefined,
    problem: () => problem,
    close() {
      stop?.();
      stop = undefined;
    },
  };
}
