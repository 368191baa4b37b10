/**
 * File mode's write of one file (through the cache), where a write that failed because a parent
 * of the target is a file (`PUT /api/users.json/x`) is a 409: the Vfs contract answers it with
 * ENOTDIR (or EEXIST/EISDIR where a driver meets the file while creating parents).
 */
import { HttpError } from '../../core/errors.js';
import type { FsCall, FsEnv } from '../file-cache/fs-call.js';
import { MSG } from '../file-cache/messages.js';

export async function writeFile(call: FsCall, env: FsEnv, path: string, bytes: Uint8Array, existing: boolean, known?: { value: unknown }): Promise<void> {
  try {
    await env.cache.write(path, bytes, existing, known);
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'ENOTDIR' || code === 'EEXIST' || code === 'EISDIR') throw new HttpError(409, MSG.parentIsFile(call.ctx.pathname));
    throw err;
  }
}
