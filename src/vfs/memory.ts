/**
 * In-memory driver on memfs. Every change goes through this object (`exclusive`), so engine
 * caches rely on change events. memfs is synchronous; the async contract is kept for callers.
 */
import { Volume } from 'memfs';
import { ChangeEmitter } from './change-emitter.js';
import { normalizeVfsPath, parentOf } from './path.js';
import { seedEntries, toBytes, type SeedTree } from './seed.js';
import { VfsError, throwAsVfsError, type Vfs, type VfsDirent, type VfsStat } from './types.js';

export interface MemoryVfs extends Vfs {
  /** Restores the seed tree given at creation (everything else is removed). */
  reset(): Promise<void>;
}

type Vol = InstanceType<typeof Volume>;

function abs(path: string): string {
  return `/${path}`;
}


/** An in-memory filesystem, optionally seeded: `memoryFs({ 'users.json': [{ id: 1 }] })`. */
export function memoryFs(tree?: SeedTree): MemoryVfs {
  const seed = seedEntries(tree);
  const changes = new ChangeEmitter();
  let vol: Vol = new Volume();

  const load = () => {
    vol = new Volume();
    for (const [path, bytes] of seed) {
      vol.mkdirSync(abs(parentOf(path)), { recursive: true });
      vol.writeFileSync(abs(path), bytes);
    }
  };
  load();

  /** memfs stat; undefined when absent or when the path runs through a file (ENOTDIR). */
  const statOrAbsent = (path: string) => {
    try {
      return vol.statSync(abs(path), { throwIfNoEntry: false });
    } catch (err) {
      if ((err as { code?: string }).code === 'ENOTDIR') return undefined;
      throwAsVfsError(err, path);
    }
  };

  /** Every file-writing operation: normalise, create parents, write, map errors, notify. */
  const putFile = async (p: string, op: (absPath: string) => void): Promise<void> => {
    const path = normalizeVfsPath(p);
    if (!path) throw new VfsError('EISDIR', path);
    try {
      const parent = parentOf(path);
      if (parent) vol.mkdirSync(abs(parent), { recursive: true });
      op(abs(path));
    } catch (err) {
      throwAsVfsError(err, path);
    }
    changes.emit(path);
  };

  return {
    driver: 'memory',
    exclusive: true,
    root: 'memory:',

    async stat(p) {
      const path = normalizeVfsPath(p);
      const s = statOrAbsent(path);
      if (!s) return null;
      return { kind: s.isDirectory() ? 'dir' : 'file', size: Number(s.size), mtimeMs: Number(s.mtimeMs), ino: Number(s.ino) } satisfies VfsStat;
    },

    async read(p) {
      const path = normalizeVfsPath(p);
      try {
        const buf = vol.readFileSync(abs(path)) as Uint8Array;
        return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
      } catch (err) {
        throwAsVfsError(err, path);
      }
    },

    write: (p, data) => putFile(p, (path) => vol.writeFileSync(path, toBytes(data))),
    create: (p, data) => putFile(p, (path) => vol.writeFileSync(path, toBytes(data), { flag: 'wx' })),
    append: (p, data) => putFile(p, (path) => vol.appendFileSync(path, toBytes(data))),

    async readdir(p) {
      const path = normalizeVfsPath(p);
      try {
        const entries = vol.readdirSync(abs(path), { withFileTypes: true }) as Array<{ name: string | Uint8Array; isDirectory(): boolean }>;
        const out: VfsDirent[] = entries.map((e) => ({ name: String(e.name), kind: e.isDirectory() ? 'dir' : 'file' }));
        return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      } catch (err) {
        throwAsVfsError(err, path);
      }
    },

    async remove(p, options = {}) {
      const path = normalizeVfsPath(p);
      if (!path) throw new VfsError('EINVAL', path, 'Cannot remove the root');
      const s = statOrAbsent(path);
      if (!s) return false;
      try {
        if (s.isDirectory()) {
          if (options.recursive) vol.rmSync(abs(path), { recursive: true });
          else vol.rmdirSync(abs(path));
        }
        else vol.unlinkSync(abs(path));
      } catch (err) {
        throwAsVfsError(err, path);
      }
      changes.emit(path);
      return true;
    },

    async mkdir(p) {
      const path = normalizeVfsPath(p);
      try {
        vol.mkdirSync(abs(path), { recursive: true });
      } catch (err) {
        throwAsVfsError(err, path);
      }
    },

    onChange: (listener) => changes.on(listener),

    async reset() {
      load();
      changes.emit('');
    },
  };
}
