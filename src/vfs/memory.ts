/**
 * In-memory driver: a tree of plain objects (no Node API, so it runs in every host, the page
 * included). Every change goes through this object (`exclusive`), so engine caches rely on change
 * events. Stored bytes are copied in and out: a caller never shares a buffer with the store.
 */
import { ChangeEmitter } from './change-emitter.js';
import { normalizeVfsPath } from './path.js';
import { seedEntries, toBytes, type SeedTree } from './seed.js';
import { VfsError, type Vfs, type VfsDirent, type VfsStat } from './types.js';

export interface MemoryVfs extends Vfs {
  /** Restores the seed tree given at creation (everything else is removed). */
  reset(): Promise<void>;
  /** The seed's bytes of the file at `path` (a copy), or undefined when the seed has none: one file back to its seed (the devtools' collection reset). */
  seeded(path: string): Uint8Array | undefined;
}

interface FileNode {
  kind: 'file';
  bytes: Uint8Array;
  mtimeMs: number;
  ino: number;
}
interface DirNode {
  kind: 'dir';
  entries: Map<string, Node>;
  mtimeMs: number;
  ino: number;
}
type Node = FileNode | DirNode;

/** An in-memory filesystem, optionally seeded: `memoryFs({ 'users.json': [{ id: 1 }] })`. */
export function memoryFs(tree?: SeedTree): MemoryVfs {
  const seed = seedEntries(tree);
  const changes = new ChangeEmitter();
  let nextIno = 1;
  const dir = (): DirNode => ({ kind: 'dir', entries: new Map(), mtimeMs: Date.now(), ino: nextIno++ });
  let root = dir();

  /** The node at `path`; undefined when absent; 'through-file' when a parent is a file. */
  const find = (path: string): Node | undefined | 'through-file' => {
    if (path === '') return root;
    let node: Node = root;
    for (const name of path.split('/')) {
      if (node.kind !== 'dir') return 'through-file';
      const next = node.entries.get(name);
      if (next === undefined) return undefined;
      node = next;
    }
    return node;
  };

  /** The folder holding `path`, created as needed (mkdir -p); ENOTDIR through a file. */
  const parentDir = (path: string, create: boolean): DirNode => {
    const names = path.split('/');
    names.pop();
    let node: DirNode = root;
    for (const name of names) {
      const next = node.entries.get(name);
      if (next === undefined) {
        if (!create) throw new VfsError('ENOENT', path);
        const made = dir();
        node.entries.set(name, made);
        node.mtimeMs = made.mtimeMs;
        node = made;
      } else if (next.kind === 'file') throw new VfsError('ENOTDIR', path);
      else node = next;
    }
    return node;
  };

  const baseName = (path: string) => path.slice(path.lastIndexOf('/') + 1);

  const putFile = async (p: string, data: Uint8Array | string, how: 'write' | 'create' | 'append'): Promise<void> => {
    const path = normalizeVfsPath(p);
    if (!path) throw new VfsError('EISDIR', path);
    const parent = parentDir(path, true);
    const name = baseName(path);
    const existing = parent.entries.get(name);
    if (existing?.kind === 'dir') throw new VfsError(how === 'create' ? 'EEXIST' : 'EISDIR', path);
    if (existing && how === 'create') throw new VfsError('EEXIST', path);
    const bytes = toBytes(data);
    let stored: Uint8Array;
    if (existing && how === 'append') {
      stored = new Uint8Array(existing.bytes.byteLength + bytes.byteLength);
      stored.set(existing.bytes, 0);
      stored.set(bytes, existing.bytes.byteLength);
    } else stored = bytes.slice();
    const now = Date.now();
    // A replaced file is a new stored object (new ino), as an atomic rename on disk.
    parent.entries.set(name, { kind: 'file', bytes: stored, mtimeMs: now, ino: existing && how === 'append' ? existing.ino : nextIno++ });
    parent.mtimeMs = now;
    changes.emit(path);
  };

  const load = () => {
    root = dir();
    for (const [path, bytes] of seed) {
      const parent = parentDir(path, true);
      parent.entries.set(baseName(path), { kind: 'file', bytes: bytes.slice(), mtimeMs: Date.now(), ino: nextIno++ });
    }
  };
  load();

  return {
    driver: 'memory',
    exclusive: true,
    root: 'memory:',

    async stat(p) {
      const node = find(normalizeVfsPath(p));
      if (node === undefined || node === 'through-file') return null;
      return { kind: node.kind, size: node.kind === 'file' ? node.bytes.byteLength : 0, mtimeMs: node.mtimeMs, ino: node.ino } satisfies VfsStat;
    },

    async read(p) {
      const path = normalizeVfsPath(p);
      const node = find(path);
      if (node === undefined) throw new VfsError('ENOENT', path);
      if (node === 'through-file') throw new VfsError('ENOTDIR', path);
      if (node.kind === 'dir') throw new VfsError('EISDIR', path);
      return node.bytes.slice();
    },

    write: (p, data) => putFile(p, data, 'write'),
    create: (p, data) => putFile(p, data, 'create'),
    append: (p, data) => putFile(p, data, 'append'),

    async readdir(p) {
      const path = normalizeVfsPath(p);
      const node = find(path);
      if (node === undefined) throw new VfsError('ENOENT', path);
      if (node === 'through-file' || node.kind === 'file') throw new VfsError('ENOTDIR', path);
      const out: VfsDirent[] = [...node.entries].map(([name, n]) => ({ name, kind: n.kind }));
      return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    },

    async remove(p, options = {}) {
      const path = normalizeVfsPath(p);
      if (!path) throw new VfsError('EINVAL', path, 'Cannot remove the root');
      const node = find(path);
      if (node === undefined || node === 'through-file') return false;
      if (node.kind === 'dir' && node.entries.size > 0 && !options.recursive) throw new VfsError('ENOTEMPTY', path);
      const parent = parentDir(path, false);
      parent.entries.delete(baseName(path));
      parent.mtimeMs = Date.now();
      changes.emit(path);
      return true;
    },

    async mkdir(p) {
      const path = normalizeVfsPath(p);
      if (!path) return;
      const parent = parentDir(path, true);
      const existing = parent.entries.get(baseName(path));
      if (existing?.kind === 'file') throw new VfsError('EEXIST', path);
      if (existing === undefined) parent.entries.set(baseName(path), dir());
    },

    onChange: (listener) => changes.on(listener),

    async reset() {
      load();
      changes.emit('');
    },

    seeded(p) {
      const path = normalizeVfsPath(p);
      for (const [at, bytes] of seed) if (at === path) return bytes.slice();
      return undefined;
    },
  };
}
