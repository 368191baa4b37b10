/**
 * `stat` for lookups: a path that runs through a file (`users.json/x`) simply does not exist.
 * Drivers answer that with ENOTDIR (some throw it from `stat`); file mode treats it as absent.
 */
import type { Vfs, VfsStat } from '../../vfs/types.js';

export async function statOrNull(vfs: Vfs, path: string): Promise<VfsStat | null> {
  try {
    return await vfs.stat(path);
  } catch (err) {
    return absentOnNotDir(err);
  }
}

/** null for "does not exist" errors; rethrows anything else. */
export function absentOnNotDir(err: unknown): null {
  const code = (err as { code?: string }).code;
  if (code === 'ENOTDIR' || code === 'ENOENT') return null;
  throw err;
}

/** Write errors that mean "a parent of this path is a file". */
export function isParentConflict(err: unknown): boolean {
  const code = (err as { code?: string }).code;
  return code === 'ENOTDIR' || code === 'EEXIST' || code === 'EISDIR';
}
