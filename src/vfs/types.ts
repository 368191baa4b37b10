/**
 * The filesystem contract every driver implements (memory, disk, IndexedDB).
 *
 * Paths are relative to the driver's root, `/`-separated, without leading slash; `''` is the root.
 * Drivers pass every path through `normalizeVfsPath` (path.ts), so nothing escapes the root.
 * Bytes in, bytes out.
 *
 * Errors are `VfsError`s with a code (below) and a message that names the path relative to the
 * root, never an absolute path. Every driver answers the same way (the contract suite,
 * test/vfs/contract.ts, checks it):
 *   - absent: `stat` → null, `remove` → false, everything else → ENOENT;
 *   - a path through a file (`a.json/x`): it does not exist, so `stat` → null and `remove` →
 *     false; `read`, `readdir`, `write`, `create`, `append`, `mkdir` → ENOTDIR;
 *   - not allowed (a folder the process may not read or search: disk only): EACCES from every
 *     method, `stat` included: "not allowed" is never reported as "does not exist";
 *   - a symbolic link whose real path leaves the root (disk only): EACCES as well.
 * Links: only the disk driver has them; the memory and IndexedDB drivers have no links (nothing
 * in this interface creates one). On disk every path is resolved with `realpath`: links that stay
 * inside the root work as their targets, anything whose real path leaves the real root is
 * refused with EACCES by every method (src/vfs/disk.ts, the one place of that rule).
 * Temp files: the disk driver's `.mockyard-tmp-*` names are reserved and never visible (see
 * disk.ts); the other drivers write in one step and have none.
 *
 * The methods:
 * `stat` (null when absent) / `read` / `write` (atomic) / `create` (EEXIST when present) /
 * `append` / `readdir` (sorted) / `remove` / `mkdir` / `onChange(listener)`; `exclusive` tells
 * caches whether change events are complete (memory, IndexedDB) or whether they must re-check
 * `stat` (size, mtime, ino) on use (disk). Optional `watch(path, report)` (disk: one `fs.watch` per
 * folder, `disk-watch.ts`) reports "may have changed", so such a cache re-checks only after a report
 * (and on a time bound) instead of on every use.
 * Each `diskFs` sweeps stale temp files (dead writer, or older than an hour) at start-up (`swept`).
 *
 * The folder's rooms (src/vfs/):
 * types.ts, path.ts (THE path-safety module), seed.ts, change-emitter.ts, default-fs.ts (the
 * default disk / scratch factories a host provides)
 * overlay.ts (overlayFs(top, base): reads top then base, writes to top, whiteouts)
 * sub.ts (subFs(vfs, dir): a folder of a Vfs as a Vfs; a scenario folder over the base mocks)
 * memory.ts (a tree of plain objects), disk.ts (node only), indexeddb.ts (idb, browser)
 * json-db.ts (json-server's db.json as a folder of `<key>.json` files, over any other Vfs;
 * its content in json-document.ts, its saving in json-db-saver.ts (states and moves:
 * json-db-saver-state.ts); reads through a CoalescedRun)
 */
export type VfsKind = 'file' | 'dir';

export interface VfsStat {
  kind: VfsKind;
  size: number;
  mtimeMs: number;
  /** Identity of the stored object where the driver has one (inode on disk); changes on replace. */
  ino?: number;
}

export interface VfsDirent {
  name: string;
  kind: VfsKind;
}

export type VfsChangeListener = (path: string) => void;

export interface Vfs {
  /** Driver name, for logs: 'memory', 'disk', 'indexeddb'. */
  readonly driver: string;
  /**
   * True when every change goes through this object (memory, IndexedDB): caches may trust
   * `onChange` alone. False on disk, where files can change behind our back, so caches re-check
   * `stat` (size, mtime, inode) on use.
   */
  readonly exclusive: boolean;
  /** Where the root lives, for messages (`/srv/mocks`, `memory:`, `indexeddb:my-app`). */
  readonly root: string;

  stat(path: string): Promise<VfsStat | null>;
  /** Whole file. `VfsError` ENOENT when absent, EISDIR for a directory. */
  read(path: string): Promise<Uint8Array>;
  /** Atomic replace: readers see the old bytes or the new bytes, never a mix. Creates parents. */
  write(path: string, data: Uint8Array | string): Promise<void>;
  /**
   * Creates the file when absent, fails with `VfsError('EEXIST')` when present: the one-step
   * "create if new" that POST needs, without a window between check and write.
   */
  create(path: string, data: Uint8Array | string): Promise<void>;
  /** Appends bytes in one write (for append-only logs). Creates the file and its parents. */
  append(path: string, data: Uint8Array | string): Promise<void>;
  /** Entries sorted by name. ENOENT when absent, ENOTDIR for a file. */
  readdir(path: string): Promise<VfsDirent[]>;
  /** Removes a file (or a directory with `recursive`); false when it was absent. */
  remove(path: string, options?: { recursive?: boolean }): Promise<boolean>;
  /** mkdir -p. */
  mkdir(path: string): Promise<void>;
  /** Called after every change made through this object, with the changed path. */
  onChange(listener: VfsChangeListener): () => void;
  /**
   * Optional, for drivers that are not `exclusive` (disk): asks to be told, best effort, when the
   * file at `path` may have been changed from outside. `report(ended)` may come more than once
   * and for the driver's own writes too (a report means "check with `stat`", never "changed");
   * `ended: true` says the watch is over (its folder went away, the watcher failed) and no more
   * reports will come. Returns a function that stops watching, or null when the driver cannot
   * watch this file (the caller keeps checking with `stat` on every use).
   */
  watch?(path: string, report: (ended: boolean) => void): (() => void) | null;
  /**
   * Optional, like `watch`, for the folder at `path` (`''`: the root): `report` when an entry in
   * it may have been added, removed, renamed or changed from outside (not recursive), with the
   * entry's name when the driver knows it. null when the folder cannot be watched (it does not exist).
   */
  watchFolder?(path: string, report: (ended: boolean, name?: string) => void): (() => void) | null;
  /**
   * Optional, for JSON-aware drivers (json-db.ts): stores the parsed `value` of the JSON file at
   * `path` (same effect as `write` of its serialisation); the driver serialises it when it
   * persists, so a caller updating a large document never pays for the text it does not need.
   * The caller must never mutate `value` afterwards.
   */
  writeJson?(path: string, value: unknown): Promise<void>;
  /** Releases handles (IndexedDB connection). */
  close?(): Promise<void>;
}

export type VfsErrorCode = 'ENOENT' | 'EISDIR' | 'ENOTDIR' | 'EEXIST' | 'EINVAL' | 'ENOTEMPTY' | 'EACCES' | 'EIO';

export class VfsError extends Error {
  readonly code: VfsErrorCode;
  readonly path: string;
  constructor(code: VfsErrorCode, path: string, message?: string) {
    super(message ?? `${code}: ${path || '/'}`);
    this.name = 'VfsError';
    this.code = code;
    this.path = path;
  }
}

/** Whether `value` looks like a Vfs an engine can serve and write through (for option checks). */
export function isVfs(value: unknown): value is Vfs {
  if (!value || typeof value !== 'object') return false;
  const v = value as Record<string, unknown>;
  return ['stat', 'read', 'write', 'create', 'readdir', 'remove', 'mkdir', 'onChange'].every((k) => typeof v[k] === 'function');
}

export function isVfsError(err: unknown, code?: VfsErrorCode): err is VfsError {
  return err instanceof VfsError && (code === undefined || err.code === code);
}

const PASSED_THROUGH: ReadonlySet<string> = new Set(['ENOENT', 'EISDIR', 'ENOTDIR', 'EEXIST', 'ENOTEMPTY', 'EACCES']);

/**
 * Re-throws a driver's native error as a VfsError for `path` (a relative path). Codes callers act
 * on pass through (EPERM, "operation not permitted", is EACCES); anything else is EIO with a
 * message that never carries an absolute path.
 */
export function throwAsVfsError(err: unknown, path: string): never {
  if (err instanceof VfsError) throw err;
  let code = (err as { code?: string } | null)?.code;
  if (code === 'EPERM') code = 'EACCES';
  if (code && PASSED_THROUGH.has(code)) throw new VfsError(code as VfsErrorCode, path);
  throw new VfsError('EIO', path, `I/O error (${code ?? 'unknown'}) on ${path || '/'}`);
}
