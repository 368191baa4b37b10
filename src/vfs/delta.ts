/**
 * deltaFs(): a small in-memory Vfs for the private top layer of a session (overlayFs(delta,
 * base)): a Map of files and a Set of folders (made by `mkdir` or by a write below them).
 * Much lighter than memoryFs (no volume), so one per session costs a few hundred bytes.
 *
 * `writeJson(path, value)` keeps a parsed value as is (the file cache then serves it without
 * serialising, `FileCache.writeValue`): a write to one item of a collection keeps the new array
 * (references to the items, shared with the layer below) instead of its text. The text is made
 * only when someone reads the bytes (`read`, or `stat`'s size).
 *
 * `has(path)` answers synchronously whether a file or folder is held here (what the session's
 * file cache asks to know whether the layer below may answer for a path).
 */
import { ChangeEmitter } from './change-emitter.js';
import { normalizeVfsPath, parentOf } from './path.js';
import { toBytes } from './seed.js';
import { VfsError, type Vfs, type VfsDirent, type VfsStat } from './types.js';

const encoder = new TextEncoder();

interface DeltaFile {
  bytes: Uint8Array | undefined;
  /** A value written with writeJson (its text is made on first read). */
  value?: unknown;
  mtimeMs: number;
  ino: number;
}

export interface DeltaVfs extends Vfs {
  writeJson(path: string, value: unknown): Promise<void>;
  /** Whether a file or folder is held at `path` (synchronous). */
  has(path: string): boolean;
  /** Number of files held. */
  readonly fileCount: number;
  /** Removes everything (one change event for the root). */
  clear(): void;
}

let inodes = 0;

export function deltaFs(): DeltaVfs {
  const files = new Map<string, DeltaFile>();
  const dirs = new Set<string>();
  const changes = new ChangeEmitter();

  const bytesOf = (f: DeltaFile): Uint8Array => (f.bytes ??= encoder.encode(`${JSON.stringify(f.value, null, 2)}\n`));

  /** Whether a folder exists at `path` (the root, or made by mkdir or by a write below it). */
  function isDir(path: string): boolean {
    return path === '' || dirs.has(path);
  }

  /** ENOTDIR when a parent of `path` is a file. */
  function checkParents(path: string): void {
    for (let p = parentOf(path); p !== ''; p = parentOf(p)) if (files.has(p)) throw new VfsError('ENOTDIR', path);
  }

  function put(p: string, make: (old: DeltaFile | undefined) => DeltaFile, exclusive = false): void {
    const path = normalizeVfsPath(p);
    if (!path) throw new VfsError('EISDIR', path);
    checkParents(path);
    const old = files.get(path);
    if (old === undefined && isDir(path)) throw new VfsError('EISDIR', path);
    if (exclusive && old !== undefined) throw new VfsError('EEXIST', path);
    for (let q = parentOf(path); q !== ''; q = parentOf(q)) dirs.add(q);
    files.set(path, make(old));
    changes.emit(path);
  }

  const vfs: DeltaVfs = {
    driver: 'delta',
    exclusive: true,
    root: 'delta:',

    has(p) {
      return files.has(p) || dirs.has(p);
    },

    get fileCount() {
      return files.size;
    },

    async stat(p) {
      const path = normalizeVfsPath(p);
      const f = files.get(path);
      if (f !== undefined) return { kind: 'file', size: bytesOf(f).byteLength, mtimeMs: f.mtimeMs, ino: f.ino } satisfies VfsStat;
      for (let q = parentOf(path); q !== '' && path !== ''; q = parentOf(q)) if (files.has(q)) return null;
      return isDir(path) ? { kind: 'dir', size: 0, mtimeMs: 0 } : null;
    },

    async read(p) {
      const path = normalizeVfsPath(p);
      const f = files.get(path);
      if (f !== undefined) return bytesOf(f);
      checkParents(path);
      throw new VfsError(isDir(path) ? 'EISDIR' : 'ENOENT', path);
    },

    async write(p, data) {
      put(p, () => ({ bytes: toBytes(data), mtimeMs: Date.now(), ino: ++inodes }));
    },

    async writeJson(p, value) {
      put(p, () => ({ bytes: undefined, value, mtimeMs: Date.now(), ino: ++inodes }));
    },

    async create(p, data) {
      put(p, () => ({ bytes: toBytes(data), mtimeMs: Date.now(), ino: ++inodes }), true);
    },

    async append(p, data) {
      put(p, (old) => {
        const add = toBytes(data);
        if (old === undefined) return { bytes: add, mtimeMs: Date.now(), ino: ++inodes };
        const before = bytesOf(old);
        const both = new Uint8Array(before.byteLength + add.byteLength);
        both.set(before, 0);
        both.set(add, before.byteLength);
        return { bytes: both, mtimeMs: Date.now(), ino: old.ino };
      });
    },

    async readdir(p) {
      const path = normalizeVfsPath(p);
      if (files.has(path)) throw new VfsError('ENOTDIR', path);
      checkParents(path);
      if (!isDir(path)) throw new VfsError('ENOENT', path);
      const under = path === '' ? '' : `${path}/`;
      const byName = new Map<string, VfsDirent>();
      for (const k of files.keys()) {
        if (!k.startsWith(under)) continue;
        const rest = k.slice(under.length);
        const slash = rest.indexOf('/');
        if (slash === -1) byName.set(rest, { name: rest, kind: 'file' });
        else byName.set(rest.slice(0, slash), { name: rest.slice(0, slash), kind: 'dir' });
      }
      for (const d of dirs) {
        if (!d.startsWith(under) || d === path) continue;
        const rest = d.slice(under.length);
        const name = rest.split('/')[0]!;
        if (!byName.has(name)) byName.set(name, { name, kind: 'dir' });
      }
      return [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    },

    async remove(p, options = {}) {
      const path = normalizeVfsPath(p);
      if (!path) throw new VfsError('EINVAL', path, 'Cannot remove the root');
      if (files.delete(path)) {
        changes.emit(path);
        return true;
      }
      for (let q = parentOf(path); q !== ''; q = parentOf(q)) if (files.has(q)) return false;
      if (!isDir(path)) return false;
      const under = `${path}/`;
      const inside = [...files.keys()].filter((k) => k.startsWith(under));
      const subdirs = [...dirs].filter((d) => d.startsWith(under));
      if (!options.recursive && (inside.length > 0 || subdirs.length > 0)) throw new VfsError('ENOTEMPTY', path);
      for (const k of inside) files.delete(k);
      for (const d of subdirs) dirs.delete(d);
      dirs.delete(path);
      changes.emit(path);
      return true;
    },

    async mkdir(p) {
      const path = normalizeVfsPath(p);
      if (path === '') return;
      if (files.has(path)) throw new VfsError('EEXIST', path);
      checkParents(path);
      for (let q = path; q !== ''; q = parentOf(q)) dirs.add(q);
    },

    onChange: (listener) => changes.on(listener),

    clear() {
      files.clear();
      dirs.clear();
      changes.emit('');
    },
  };
  return vfs;
}
