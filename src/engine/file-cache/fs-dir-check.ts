/**
 * The start-up check of the mocks folder: what is wrong with it, in words for the log, or null
 * when file mode can run. "Does not exist" and "not allowed" are different answers (a folder the
 * process may not read is EACCES from the Vfs, never a null `stat`).
 */
import { isVfsError, type Vfs } from '../../vfs/types.js';

export async function fsDirProblem(vfs: Vfs, fsDir: string): Promise<string | null> {
  try {
    const s = await vfs.stat(fsDir);
    if (s === null) return 'does not exist';
    return s.kind === 'dir' ? null : 'is not a folder';
  } catch (err) {
    if (isVfsError(err, 'EACCES')) return 'is not accessible (permission denied)';
    const code = (err as { code?: unknown } | null)?.code;
    return `cannot be read (${typeof code === 'string' ? code : 'error'})`;
  }
}
