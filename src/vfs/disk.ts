/**
 * Real-disk driver (Node only). Writes are atomic (temp file in the same folder + rename), so a
 * reader or a crash sees the old bytes or the new ones. Files can also change behind our back
 * (an editor, git), so this driver is not `exclusive`: caches re-validate with `stat`, and
 * `watch` (disk-watch.ts: one fs.watch per folder) tells them when a file may have changed, so
 * they need not `stat` it on every use; `watchFolder`, when a folder's entries may have (a file
 * that was missing may now be there).
 *
 * `stat` uses the synchronous call on purpose: it is a metadata lookup the kernel answers from
 * its cache in about a microsecond, and it sits on the path of every cache re-check, where a
 * thread-pool round trip and a thrown ENOENT would cost ten times more than the call itself.
 * For the same reason `readdir`, the unlink of a small file by `remove`, and the atomic write of
 * at most SYNC_WRITE_MAX bytes to a NEW name (`create`, or `write` where no file is yet: a POST)
 * run synchronously too: each async step (open, write, close, rename) is a thread-pool round
 * trip costing more CPU than the page-cache work itself. A `write` that replaces a file stays
 * async whatever its size: ext4 flushes the new data before a rename over an existing file
 * (auto_da_alloc), which would hold the event loop for milliseconds (concurrent PATCHes then
 * stopped coalescing); a rename or link to a free name, and an unlink, flush nothing.
 *
 * Symbolic links: one rule, here, for every method. A path is resolved with `realpath` (every
 * link followed); when its real path leaves the real root, the call fails with
 * `VfsError('EACCES')` (file mode answers 403), whatever the method. Links that stay inside work
 * as their targets: `read`/`write`/`append` reach the target, `remove` removes the link itself
 * (as `rm` does), `readdir` lists a link with its target's kind (a link leading outside is listed
 * as a file, so a lookup that picks it is refused, not silently skipped). A path that does not
 * exist yet is judged by its deepest existing ancestor, and a dangling link by where it points,
 * so a write can never create a file outside the root either. The root itself may be a link
 * (it is what the user named); its real path is the boundary. Checks happen per call, before the
 * operation (a link swapped in between by someone with write access to the folder is not
 * covered: that person can write outside anyway); callers that cache (the file cache) re-check
 * with `stat` only when a file enters the cache or is reported changed, so a cached GET pays no
 * `realpath`.
 */
import { linkSync, lstatSync, readdirSync, readlinkSync, realpathSync, renameSync, statSync, unlinkSync, writeFileSync, type Stats } from 'node:fs';
import { link, mkdir, open, readFile, readdir, rename, rm, rmdir, unlink, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { ChangeEmitter } from './change-emitter.js';
import { FolderWatchers } from './disk-watch.js';
import { baseName, normalizeVfsPath, parentOf } from './path.js';
import { toBytes } from './seed.js';
import { VfsError, throwAsVfsError, type Vfs, type VfsDirent } from './types.js';

/**
 * Appends all of `bytes` or nothing: a write cut short (a full disk) is truncated back to the
 * file's size before it, so no partial line is left for the next append to follow.
 */
async function appendWhole(file: string, bytes: Uint8Array): Promise<void> {
  const handle = await open(file, 'a');
  try {
    const { size } = await handle.stat();
    try {
      await handle.appendFile(bytes);
    } catch (err) {
      await handle.truncate(size).catch(() => {});
      throw err;
    }
  } finally {
    await handle.close();
  }
}

/**
 * Temp files: `.mockyard-tmp-<pid>-<n>` beside their target while a write is under way. A crash
 * (kill -9, power loss) can leave one behind. Names with this prefix are reserved and never
 * visible: `stat` answers null, `read`/`readdir` ENOENT, `remove` false, listings leave them out,
 * and writing one is refused (EINVAL). Each new driver sweeps its tree once at start-up
 * (`swept`) and removes the stale ones: those whose writer (the pid in the name) is no longer
 * alive, and any older than STALE_TEMP_MS whatever the pid says (a reused pid). A temp file of a
 * live process writing the same folder is left alone. Folders shared across PID namespaces
 * (containers on one volume) cannot tell a live writer from a dead one by pid; there a live
 * writer's temp file may be removed, which fails that write (the target keeps its old bytes).
 */
/** Writes of at most this many bytes run synchronously (see the module comment). */
const SYNC_WRITE_MAX = 64 * 1024;

const unlinkQuietly = (file: string) => {
  try {
    unlinkSync(file);
  } catch {
    // not there (the write failed before creating it)
  }
};

const TEMP_PREFIX = '.mockyard-tmp-';
const TEMP_NAME = /^\.mockyard-tmp-(\d+)-\d+$/;
export const STALE_TEMP_MS = 60 * 60 * 1000;
let tempSeq = 0;
const tempBeside = (file: string) => below(dirname(file), `${TEMP_PREFIX}${process.pid}-${++tempSeq}`);

/**
 * `rel` (a normalised Vfs path: `/`-joined plain segments, path.ts) under the absolute folder
 * `dir`: what `join` answers, without its normalising pass on POSIX (a request's paths go through
 * here half a dozen times).
 */
const below = (dir: string, rel: string): string =>
  rel === '' ? dir : sep === '/' ? (dir.endsWith('/') ? `${dir}${rel}` : `${dir}/${rel}`) : join(dir, rel);
/** Whether a normalised path has a segment with the temp prefix. */
const isReserved = (path: string) => path.includes(TEMP_PREFIX) && (path.startsWith(TEMP_PREFIX) || path.includes(`/${TEMP_PREFIX}`));
const reserved = (path: string) => new VfsError('EINVAL', path, `Reserved name: ${path}`);

function processAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as { code?: string }).code === 'EPERM'; // alive, another user's
  }
}

/** Removes stale temp files under `dir` (see TEMP_PREFIX); never follows links. Returns how many. */
async function sweepTempFiles(dir: string): Promise<number> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  let removed = 0;
  for (const e of entries) {
    const full = join(dir, e.name);
    if (e.isDirectory()) {
      removed += await sweepTempFiles(full);
      continue;
    }
    const m = e.isFile() ? TEMP_NAME.exec(e.name) : null;
    if (!m) continue;
    try {
      if (processAlive(Number(m[1])) && Date.now() - lstatSync(full).mtimeMs < STALE_TEMP_MS) continue;
      await unlink(full);
      removed++;
    } catch {
      // gone meanwhile, or not ours to remove
    }
  }
  return removed;
}

export interface DiskVfs extends Vfs {
  /** The start-up sweep of stale temp files: resolves with how many were removed. */
  readonly swept: Promise<number>;
}

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

/** Links followed while resolving one path before it counts as a loop (Linux's own bound). */
const MAX_LINKS = 40;

const within = (real: string, base: string) => real === base || real.startsWith(base.endsWith(sep) ? base : base + sep);

function isLink(file: string): boolean {
  try {
    return lstatSync(file, { throwIfNoEntry: false })?.isSymbolicLink() === true;
  } catch {
    return false; // ENOTDIR: a path through a file is no link
  }
}

/** A filesystem rooted at `rootDir` on disk (created on first write when missing). */
export function diskFs(rootDir: string): DiskVfs {
  const root = resolve(rootDir);
  const changes = new ChangeEmitter();
  const watchers = new FolderWatchers((name) => name.startsWith(TEMP_PREFIX));
  const abs = (path: string) => {
    const full = below(root, path);
    // Defence in depth: normalizeVfsPath already guarantees this.
    if (full !== root && !full.startsWith(root + sep)) throw new VfsError('EINVAL', path);
    return full;
  };

  /** The root's real path, once the root exists (it is created on first write). */
  let realRoot: string | undefined;
  const rootReal = (): string | undefined => {
    if (realRoot === undefined) {
      try {
        realRoot = realpathSync.native(root);
      } catch {
        // Not there yet: nothing below it exists, so no link can lead anywhere.
      }
    }
    return realRoot;
  };
  const outside = (path: string) => new VfsError('EACCES', path, `Link leads outside the root: ${path || '/'}`);
  const loop = (path: string) => new VfsError('EACCES', path, `Link cannot be resolved (a loop): ${path || '/'}`);

  /**
   * Where `path` really is, with every link resolved by `realpath`: the missing tail of a path
   * that does not exist (yet) joined to the real path of its deepest existing ancestor, a
   * dangling link followed to where it points. EACCES when that leaves the real root.
   */
  const resolveLinks = (path: string, base: string): string => {
    let at = abs(path);
    let rest = '';
    for (let links = 0; ; ) {
      let real: string;
      try {
        real = realpathSync.native(at);
      } catch (err) {
        const code = (err as { code?: string }).code;
        if (code === 'ELOOP') throw loop(path);
        if (code !== 'ENOENT' && code !== 'ENOTDIR') throwAsVfsError(err, path);
        if (isLink(at)) {
          // A dangling link: judged by where it points (a write would create that file).
          if (++links > MAX_LINKS) throw loop(path);
          at = resolve(dirname(at), readlinkSync(at));
        } else {
          rest = rest ? join(basename(at), rest) : basename(at);
          at = dirname(at);
        }
        continue;
      }
      if (!within(real, base)) throw outside(path);
      return rest ? join(real, rest) : real;
    }
  };

  /**
   * Folders that an `lstat` showed to be plain folders (no link) during the current turn of the
   * event loop, with that `lstat`: a POST looks its path up, creates and stats the file in one
   * turn, walking the same folders half a dozen times, and a DELETE finds the file then removes
   * it from its folder. Forgotten at the turn's end (setImmediate) and by a `remove` of a folder,
   * so the link rule sees any change made between turns; a change by another process within the
   * turn is the same window as the one between a check and the operation it guards (see above).
   * On the way to a path they are skipped; as the path itself only when where the folder is
   * (`locate`, `existing`) is asked, never its metadata (`stat` always asks the kernel).
   */
  const foldersThisTurn = new Map<string, Stats>();
  /**
   * Files this driver wrote during the current turn, with where they really are (what `walk` found
   * before the write): a write leaves a plain file there (or the link it followed, leading to the
   * same place), so `watch` right after it (the file cache watches what it wrote) needs no `lstat`
   * to learn where the file is. Forgotten with the folders, and by a `remove` of the path or a folder.
   */
  const writtenThisTurn = new Map<string, string>();
  let forgetScheduled = false;
  const forgetFolders = () => {
    foldersThisTurn.clear();
    writtenThisTurn.clear();
    forgetScheduled = false;
  };
  const scheduleForget = () => {
    if (!forgetScheduled) {
      forgetScheduled = true;
      setImmediate(forgetFolders);
    }
  };
  const sawFolder = (at: string, st: Stats) => {
    foldersThisTurn.set(at, st);
    scheduleForget();
  };
  const wrote = (path: string, real: string) => {
    writtenThisTurn.set(path, real);
    scheduleForget();
  };

  /**
   * The real location of `path` and its stat (undefined when nothing is there), with the link
   * rule applied (EACCES, see the module comment). Fast path: one `lstat` per segment below the
   * real root; without a link among them the path is real as it is and the last `lstat` is its
   * stat, so a path without links costs what a plain `stat` of each folder would. Only a path
   * that holds a link pays for `realpath`.
   */
  const walk = (path: string, whereOnly = false): { real: string; stat: Stats | undefined } => {
    const base = rootReal();
    if (base === undefined) return { real: abs(path), stat: undefined }; // no root: nothing exists
    if (path === '') return { real: base, stat: statOrAbsent(base, path) };
    let at = base;
    let from = 0;
    for (;;) {
      const slash = path.indexOf('/', from);
      at = `${at}${sep}${slash === -1 ? path.slice(from) : path.slice(from, slash)}`;
      const seen = foldersThisTurn.get(at);
      if (seen !== undefined) {
        if (slash === -1 && whereOnly) return { real: at, stat: seen };
        if (slash !== -1) {
          from = slash + 1;
          continue;
        }
      }
      let st: Stats | undefined;
      try {
        st = lstatSync(at, { throwIfNoEntry: false });
      } catch (err) {
        if ((err as { code?: string }).code !== 'ENOTDIR') throwAsVfsError(err, path);
        st = undefined; // through a file: does not exist, the operation itself answers ENOTDIR
      }
      if (st === undefined) return { real: below(base, path), stat: undefined }; // nothing below can be a link
      if (st.isSymbolicLink()) {
        const real = resolveLinks(path, base);
        return { real, stat: statOrAbsent(real, path) };
      }
      if (st.isDirectory()) sawFolder(at, st);
      if (slash === -1) return { real: at, stat: st };
      from = slash + 1;
    }
  };

  const locate = (path: string): string => walk(path, true).real;

  /** The real path of an existing `path`, undefined when nothing is there; EACCES as `walk`. */
  const existing = (path: string): string | undefined => {
    const w = walk(path, true);
    return w.stat === undefined ? undefined : w.real;
  };

  /**
   * Every file-writing operation: normalise, run, map errors, notify. Parents are created only
   * when the operation finds them missing (ENOENT), so steady-state appends cost one syscall.
   */
  const putFile = async (p: string, op: (file: string, free: boolean) => Promise<void>): Promise<void> => {
    const path = normalizeVfsPath(p);
    if (!path) throw new VfsError('EISDIR', path);
    if (isReserved(path)) throw reserved(path);
    try {
      const { real: file, stat } = walk(path);
      const free = stat === undefined;
      try {
        await op(file, free);
      } catch (err) {
        if ((err as { code?: string }).code !== 'ENOENT') throw err;
        await mkdir(dirname(file), { recursive: true });
        await op(file, free);
      }
      wrote(path, file);
    } catch (err) {
      throwAsVfsError(err, path);
    }
    changes.emit(path);
  };

  const swept = sweepTempFiles(root);

  return {
    driver: 'disk',
    exclusive: false,
    root,
    swept,

    async stat(p) {
      const path = normalizeVfsPath(p);
      if (isReserved(path)) return null;
      const s = walk(path).stat;
      if (!s) return null;
      return { kind: s.isDirectory() ? 'dir' : 'file', size: s.size, mtimeMs: s.mtimeMs, ino: s.ino };
    },

    async read(p) {
      const path = normalizeVfsPath(p);
      if (isReserved(path)) throw new VfsError('ENOENT', path);
      try {
        const buf = await readFile(locate(path));
        return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
      } catch (err) {
        throwAsVfsError(err, path);
      }
    },

    // Atomic replace: the bytes go to a temp file beside the target, then rename(2) swaps it in.
    write: (p, data) =>
      putFile(p, async (file, free) => {
        const bytes = toBytes(data);
        const tmp = tempBeside(file);
        try {
          if (free && bytes.byteLength <= SYNC_WRITE_MAX) {
            writeFileSync(tmp, bytes);
            renameSync(tmp, file);
          } else {
            await writeFile(tmp, bytes);
            await rename(tmp, file);
          }
        } catch (err) {
          unlinkQuietly(tmp);
          throw err;
        }
      }),

    // Atomic create-if-absent: the bytes go to a temp file first, then link(2) publishes it under
    // the target name only if that name is free (EEXIST otherwise); readers never see a partial file.
    create: (p, data) =>
      putFile(p, async (file) => {
        const bytes = toBytes(data);
        const tmp = tempBeside(file);
        try {
          if (bytes.byteLength <= SYNC_WRITE_MAX) {
            writeFileSync(tmp, bytes);
            linkSync(tmp, file);
          } else {
            await writeFile(tmp, bytes);
            await link(tmp, file);
          }
        } finally {
          unlinkQuietly(tmp);
        }
      }),
    append: (p, data) => putFile(p, (file) => appendWhole(file, toBytes(data))),

    async readdir(p) {
      const path = normalizeVfsPath(p);
      if (isReserved(path)) throw new VfsError('ENOENT', path);
      try {
        const dir = locate(path);
        const entries = readdirSync(dir, { withFileTypes: true });
        const out: VfsDirent[] = [];
        for (const e of entries) {
          if (e.name.startsWith(TEMP_PREFIX)) continue;
          if (!e.isSymbolicLink()) {
            out.push({ name: e.name, kind: e.isDirectory() ? 'dir' : 'file' });
            continue;
          }
          // A link: its target's kind; listed as a file when it leads outside (refused on use);
          // left out when it leads nowhere (stat says absent).
          let kind: VfsDirent['kind'] = 'file';
          try {
            const real = existing(path ? `${path}/${e.name}` : e.name);
            if (real === undefined) continue;
            if (statSync(real).isDirectory()) kind = 'dir';
          } catch {
            // outside the root or unreadable: a file, refused when used
          }
          out.push({ name: e.name, kind });
        }
        return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      } catch (err) {
        throwAsVfsError(err, path);
      }
    },

    async remove(p, options = {}) {
      const path = normalizeVfsPath(p);
      if (!path) throw new VfsError('EINVAL', path, 'Cannot remove the root');
      if (isReserved(path)) return false;
      // The name is removed where its folder really is; a link is removed itself, not its target.
      const parent = existing(parentOf(path));
      if (parent === undefined) return false;
      const target = below(parent, baseName(path));
      let s: Stats | undefined;
      try {
        s = lstatSync(target, { throwIfNoEntry: false });
      } catch (err) {
        if ((err as { code?: string }).code === 'ENOTDIR') return false;
        throwAsVfsError(err, path);
      }
      if (!s) return false;
      if (s.isSymbolicLink()) locate(path); // EACCES when it leads outside
      writtenThisTurn.delete(path);
      try {
        if (s.isDirectory()) {
          foldersThisTurn.clear();
          writtenThisTurn.clear();
          await (options.recursive ? rm(target, { recursive: true }) : rmdir(target));
          foldersThisTurn.clear();
          writtenThisTurn.clear();
        } else if (s.size <= SYNC_WRITE_MAX) unlinkSync(target);
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
      if (isReserved(path)) throw reserved(path);
      try {
        await mkdir(locate(path), { recursive: true });
      } catch (err) {
        throwAsVfsError(err, path);
      }
    },

    onChange: (listener) => changes.on(listener),

    watch(p, report) {
      const path = normalizeVfsPath(p);
      if (!path) return null;
      const named = abs(path);
      const stop = watchers.watch(named, report);
      // A link: its target's folder too (an edit of the target is a change of this file).
      let real: string | undefined;
      try {
        real = writtenThisTurn.get(path) ?? existing(path);
      } catch {
        real = undefined;
      }
      if (stop === null || real === undefined || real === named) return stop;
      const stopReal = watchers.watch(real, report);
      return () => {
        stop();
        stopReal?.();
      };
    },

    watchFolder(p, report) {
      return watchers.watchAll(abs(normalizeVfsPath(p)), report);
    },

    async close() {
      watchers.close();
    },
  };
}
