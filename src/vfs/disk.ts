/**
 * Real-disk driver (Node only). Writes are atomic (temp file in the same folder + rename), so a
 * reader or a crash sees the old bytes or the new ones. Files can also change behind our back
 * (an editor, git), so this driver is not `exclusive`: caches re-validate with `stat`, and
 * `watch` (disk-watch.ts: one fs.watch per folder) tells them when a file may have changed, so
 * they need not `stat` it on every use.
 *
 * `stat` uses the synchronous call on purpose: it is a metadata lookup the kernel answers from
 * its cache in about a microsecond, and it sits on the hot path of every cached GET, where a
 * thread-pool round trip and a thrown ENOENT would cost ten times more than the call itself.
 */
import { statSync, type Stats } from 'node:fs';
import { appendFile, link, mkdir, readFile, readdir, rename, rm, rmdir, unlink, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { ChangeEmitter } from './change-emitter.js';
import { FolderWatchers } from './disk-watch.js';
import { normalizeVfsPath } from './path.js';
import { toBytes } from './seed.js';
import { VfsError, throwAsVfsError, type Vfs, type VfsDirent } from './types.js';

/** Temp files live beside their target while a write is under way; listings hide them. */
const TEMP_PREFIX = '.mockyard-tmp-';
let tempSeq = 0;
const tempBeside = (file: string) => join(dirname(file), `${TEMP_PREFIX}${process.pid}-${++tempSeq}`);


/**
 * statSync, undefined when nothing is there: absent, or a path through a file (ENOTDIR). Other
 * failures (EACCES: a folder we may not search) are VfsErrors naming the relative path.
 */
function statOrAbsent(file: string, path: string): Stats | undefined {
  try {
    return statSync(file, { throwIfNoEntry: false });
  } catch (err) {
    if ((err as { code?: string }).code === 'ENOTDIR') return undefined;
    throwAsVfsError(err, path);
  }
}

/** A filesystem rooted at `rootDir` on disk (created on first write when missing). */
export function diskFs(rootDir: string): Vfs {
  const root = resolve(rootDir);
  const changes = new ChangeEmitter();
  const watchers = new FolderWatchers();
  const abs = (path: string) => {
    const full = path ? join(root, path) : root;
    // Defence in depth: normalizeVfsPath already guarantees this.
    if (full !== root && !full.startsWith(root + sep)) throw new VfsError('EINVAL', path);
    return full;
  };

  /**
   * Every file-writing operation: normalise, run, map errors, notify. Parents are created only
   * when the operation finds them missing (ENOENT), so steady-state appends cost one syscall.
   */
  const putFile = async (p: string, op: (file: string) => Promise<void>): Promise<void> => {
    const path = normalizeVfsPath(p);
    if (!path) throw new VfsError('EISDIR', path);
    const file = abs(path);
    try {
      try {
        await op(file);
      } catch (err) {
        if ((err as { code?: string }).code !== 'ENOENT') throw err;
        await mkdir(dirname(file), { recursive: true });
        await op(file);
      }
    } catch (err) {
      throwAsVfsError(err, path);
    }
    changes.emit(path);
  };

  return {
    driver: 'disk',
    exclusive: false,
    root,

    async stat(p) {
      const path = normalizeVfsPath(p);
      const s = statOrAbsent(abs(path), path);
      if (!s) return null;
      return { kind: s.isDirectory() ? 'dir' : 'file', size: s.size, mtimeMs: s.mtimeMs, ino: s.ino };
    },

    async read(p) {
      const path = normalizeVfsPath(p);
      try {
        const buf = await readFile(abs(path));
        return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
      } catch (err) {
        throwAsVfsError(err, path);
      }
    },

    // Atomic replace: the bytes go to a temp file beside the target, then rename(2) swaps it in.
    write: (p, data) =>
      putFile(p, async (file) => {
        const tmp = tempBeside(file);
        try {
          await writeFile(tmp, toBytes(data));
          await rename(tmp, file);
        } catch (err) {
          await unlink(tmp).catch(() => {});
          throw err;
        }
      }),

    // Atomic create-if-absent: the bytes go to a temp file first, then link(2) publishes it under
    // the target name only if that name is free (EEXIST otherwise); readers never see a partial file.
    create: (p, data) =>
      putFile(p, async (file) => {
        const tmp = tempBeside(file);
        try {
          await writeFile(tmp, toBytes(data));
          await link(tmp, file);
        } finally {
          await unlink(tmp).catch(() => {});
        }
      }),
    append: (p, data) => putFile(p, (file) => appendFile(file, toBytes(data))),

    async readdir(p) {
      const path = normalizeVfsPath(p);
      try {
        const entries = await readdir(abs(path), { withFileTypes: true });
        const out: VfsDirent[] = [];
        for (const e of entries) {
          if (e.name.startsWith(TEMP_PREFIX)) continue;
          out.push({ name: e.name, kind: e.isDirectory() ? 'dir' : 'file' });
        }
        return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      } catch (err) {
        throwAsVfsError(err, path);
      }
    },

    async remove(p, options = {}) {
      const path = normalizeVfsPath(p);
      if (!path) throw new VfsError('EINVAL', path, 'Cannot remove the root');
      const target = abs(path);
      const s = statOrAbsent(target, path);
      if (!s) return false;
      try {
        if (s.isDirectory()) await (options.recursive ? rm(target, { recursive: true }) : rmdir(target));
        else await unlink(target);
      } catch (err) {
        if ((err as { code?: string }).code === 'ENOENT') return false;
        throwAsVfsError(err, path);
      }
      changes.emit(path);
      return true;
    },

    async mkdir(p) {
      const path = normalizeVfsPath(p);
      try {
        await mkdir(abs(path), { recursive: true });
      } catch (err) {
        throwAsVfsError(err, path);
      }
    },

    onChange: (listener) => changes.on(listener),

    watch(p, report) {
      const path = normalizeVfsPath(p);
      return path ? watchers.watch(abs(path), report) : null;
    },

    async close() {
      watchers.close();
    },
  };
}
