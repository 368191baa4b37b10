/**
 * overlayFs(top, base): one Vfs that reads the top Vfs first and the base second (a scenario
 * folder over the base mocks, as unstorage's overlay driver and Linux overlayfs do).
 *
 * Read rule: a path present in `top` is served from `top` (a file there hides a base folder of
 * the same name and vice versa); otherwise from `base`, unless the overlay removed it. Folders
 * list the union of both (top's kind wins a name clash), sorted by name.
 *
 * Write rule: every change goes to `top`; `base` is never written.
 *   - write / create / mkdir: in `top` (parents created there). `create` fails with EEXIST when
 *     either side has the path.
 *   - append to a file only the base has: the base bytes are copied up to `top` first (appends to
 *     one path are serialised, so concurrent appends lose nothing).
 *   - remove of what the base holds: the overlay records a whiteout (in this object, for its
 *     lifetime: a new overlay over the same Vfs shows the base again), which hides the base entry
 *     (a folder: everything below it). Writing the path again makes it visible; a folder written
 *     into after its removal shows only what is written into it from then on.
 * `reset()` drops what was written through the overlay (a test's changes over the mocks).
 * Change events: `top`'s and `base`'s are passed on (a base change may change what reads see),
 * and whiteouts are reported by the overlay itself.
 * `exclusive` only when both are; `watch` watches the path on each side that needs it.
 * `writeJson` when `top` has it (a parsed value kept as is, src/vfs/delta.ts).
 */
import { KeyedQueue } from '../core/keyed-queue.js';
import { ChangeEmitter } from './change-emitter.js';
import { normalizeVfsPath, parentOf } from './path.js';
import { isVfsError, VfsError, type Vfs, type VfsDirent, type VfsStat } from './types.js';

export interface OverlayVfs extends Vfs {
  readonly top: Vfs;
  readonly base: Vfs;
  /** Whether the overlay hides the base entry at `path` (removed through it). Synchronous. */
  hides(path: string): boolean;
  /**
   * Back to the base as it is: the top emptied (its own `reset()` when it has one, e.g. a
   * `memoryFs` seed; else everything in it removed) and every whiteout dropped.
   */
  reset(): Promise<void>;
}

const encoder = new TextEncoder();

function bytesOf(data: Uint8Array | string): Uint8Array {
  return typeof data === 'string' ? encoder.encode(data) : data;
}

/** `path` and its ancestors, nearest first, the root (`''`) excluded. */
function* selfAndAncestors(path: string): Generator<string> {
  for (let p = path; p !== ''; p = parentOf(p)) yield p;
}

export function overlayFs(top: Vfs, base: Vfs): OverlayVfs {
  const changes = new ChangeEmitter();
  const offTop = top.onChange((p) => changes.emit(p));
  const offBase = base.onChange((p) => changes.emit(p));
  const appends = new KeyedQueue();
  /** Base paths removed through the overlay (hidden with everything below them). */
  const whiteouts = new Set<string>();
  /** Folders re-created after a whiteout: their base content stays hidden. */
  const opaque = new Set<string>();

  function baseHidden(path: string): boolean {
    if (whiteouts.size === 0 && opaque.size === 0) return false;
    for (const p of selfAndAncestors(path)) {
      if (whiteouts.has(p)) return true;
      if (p !== path && opaque.has(p)) return true;
    }
    return false;
  }

  /**
   * A path written in top is visible again, and so are its parents; a whited-out parent turns
   * opaque (only what is written into it from now on shows). Returns whether `path` itself was
   * whited out.
   */
  function unhide(path: string): boolean {
    if (whiteouts.size === 0) return false;
    let self = false;
    for (const p of selfAndAncestors(path)) {
      if (!whiteouts.delete(p)) continue;
      if (p === path) self = true;
      else opaque.add(p);
    }
    return self;
  }

  async function baseStat(path: string): Promise<VfsStat | null> {
    return baseHidden(path) ? null : base.stat(path);
  }

  const vfs: OverlayVfs = {
    driver: `overlay(${top.driver} over ${base.driver})`,
    exclusive: top.exclusive && base.exclusive,
    root: `${top.root} over ${base.root}`,
    top,
    base,
    hides: (path) => baseHidden(path),

    async stat(path) {
      const p = normalizeVfsPath(path);
      return (await top.stat(p)) ?? (await baseStat(p));
    },

    async read(path) {
      const p = normalizeVfsPath(path);
      try {
        return await top.read(p);
      } catch (err) {
        if (!isVfsError(err, 'ENOENT')) throw err;
      }
      if (baseHidden(p)) throw new VfsError('ENOENT', p);
      return base.read(p);
    },

    async write(path, data) {
      const p = normalizeVfsPath(path);
      await top.write(p, data);
      unhide(p);
    },

    async create(path, data) {
      const p = normalizeVfsPath(path);
      if ((await baseStat(p)) !== null) throw new VfsError('EEXIST', p);
      await top.create(p, data);
      unhide(p);
    },

    append(path, data) {
      const p = normalizeVfsPath(path);
      return appends.run(p, async () => {
        if ((await top.stat(p)) === null) {
          const below = await baseStat(p);
          if (below !== null && below.kind === 'file') {
            const old = await base.read(p);
            const add = bytesOf(data);
            const both = new Uint8Array(old.byteLength + add.byteLength);
            both.set(old, 0);
            both.set(add, old.byteLength);
            await top.write(p, both);
            unhide(p);
            return;
          }
        }
        await top.append(p, data);
        unhide(p);
      });
    },

    async readdir(path) {
      const p = normalizeVfsPath(path);
      const [t, b] = await Promise.all([top.stat(p), baseStat(p)]);
      const kind = t?.kind ?? b?.kind;
      if (kind === undefined) {
        // Absent in both: ENOTDIR when either layer sees a file on the way (the Vfs contract).
        for (const layer of [top, base]) await layer.readdir(p).catch((err: unknown) => { if (isVfsError(err, 'ENOTDIR')) throw err; });
        throw new VfsError('ENOENT', p);
      }
      if (kind === 'file') throw new VfsError('ENOTDIR', p);
      const byName = new Map<string, VfsDirent>();
      if (b?.kind === 'dir' && t?.kind !== 'file') {
        for (const e of await base.readdir(p)) {
          if (!baseHidden(p === '' ? e.name : `${p}/${e.name}`)) byName.set(e.name, e);
        }
      }
      if (t?.kind === 'dir') for (const e of await top.readdir(p)) byName.set(e.name, e);
      return [...byName.values()].sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0));
    },

    async remove(path, options) {
      const p = normalizeVfsPath(path);
      const s = await vfs.stat(p);
      if (s === null) return false;
      if (s.kind === 'dir' && !options?.recursive && (await vfs.readdir(p)).length > 0) throw new VfsError('ENOTEMPTY', p);
      const inTop = (await top.stat(p)) !== null;
      const inBase = (await baseStat(p)) !== null;
      if (inTop) await top.remove(p, { recursive: true });
      if (inBase) {
        whiteouts.add(p);
        for (const o of opaque) if (o === p || o.startsWith(`${p}/`)) opaque.delete(o);
        if (!inTop) changes.emit(p);
      }
      return true;
    },

    async mkdir(path) {
      const p = normalizeVfsPath(path);
      await top.mkdir(p);
      if (unhide(p)) opaque.add(p); // re-created after its removal: the base's content stays hidden
    },

    onChange: (listener) => changes.on(listener),

    async reset() {
      const own = (top as { reset?: () => Promise<void> }).reset;
      if (typeof own === 'function') await own.call(top);
      else for (const e of await top.readdir('')) await top.remove(e.name, { recursive: true });
      whiteouts.clear();
      opaque.clear();
      changes.emit('');
    },

    async close() {
      offTop();
      offBase();
    },
  };

  // A top that keeps parsed JSON values (deltaFs) keeps them through the overlay too.
  if (top.writeJson !== undefined) {
    vfs.writeJson = async (path, value) => {
      const p = normalizeVfsPath(path);
      await top.writeJson!(p, value);
      unhide(p);
    };
  }

  const watchers = [top, base].filter((v) => !v.exclusive);
  if (watchers.length > 0) {
    vfs.watch = (path, report) => {
      const stops: Array<() => void> = [];
      for (const v of watchers) {
        const stop = v.watch?.(path, report) ?? null;
        if (stop === null) {
          for (const s of stops) s();
          return null; // one side cannot be watched: the caller checks with stat instead
        }
        stops.push(stop);
      }
      return () => {
        for (const s of stops) s();
      };
    };
  }
  return vfs;
}
