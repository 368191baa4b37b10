/**
 * A write that failed because a parent of the target is a file (`PUT /api/users.json/x`): the
 * Vfs contract answers it with ENOTDIR (or EEXIST/EISDIR where a driver meets the file while
 * creating parents). File mode turns it into a 409.
 */
export function isParentConflict(err: unknown): boolean {
  const code = (err as { code?: string }).code;
  return code === 'ENOTDIR' || code === 'EEXIST' || code === 'EISDIR';
}
