/**
 * Lookup step 4 (`<path>.<ext>`, lookup.ts) without a readdir per miss, on a driver whose files
 * change behind the engine (disk) and that reports which entry of a watched folder changed.
 *
 * A lookup that finds neither `users/7` nor `users/7.json` reads the folder for `users/7.<ext>`:
 * every POST of a new item did (its lookup must miss), listing a folder that grows with the items.
 * Here a folder's listing is kept, indexed by the names a candidate can have (`a.b.xml` is a
 * candidate of `a` and of `a.b`), while a watch of the folder vouches for it. The watch starts
 * before the readdir, so no change after it goes unreported. A reported or own change to a name
 * (`vfs.onChange`, from the file cache) does not drop the listing: it marks the bases the name can
 * be a candidate of, and only a lookup of such a base reads the folder again. A POST's own write
 * of `users/7.json` thus leaves the listing good for `users/8`. A report without a name, the
 * watch ending, or a change to the folder itself (or above it) drops the listing; at most
 * WATCHED_RECHECK_MS after its readdir a listing is read again (reports that come late or never,
 * as remembered misses: miss-watch.ts).
 */
import type { Vfs, VfsDirent } from '../../vfs/types.js';
import { baseName, parentOf } from '../../vfs/path.js';

interface Listing {
  /** Candidates by base: the files named `${base}.…`. */
  readonly byBase: Map<string, VfsDirent[]>;
  /** Bases a change since the readdir may have given other candidates. */
  readonly dirty: Set<string>;
  /** `performance.now()` of the readdir (-Infinity: not read yet, or spoiled). */
  at: number;
  readonly stop: () => void;
}

/** Folders whose listing is kept at most (each holds a folder watch, a budget shared with file watches). */
const MAX_FOLDERS = 64;
/** Changed bases kept per listing; past them the folder is read again. */
const MAX_DIRTY = 1024;
const NONE: readonly VfsDirent[] = [];

/** Calls `fn` with every base `name` is a candidate of (`a.b.xml` → `a`, `a.b`). */
function basesOf(name: string, fn: (base: string) => void): void {
  for (let i = name.indexOf('.', 1); i !== -1; i = name.indexOf('.', i + 1)) fn(name.slice(0, i));
}

export class FolderListings {
  private readonly folders = new Map<string, Listing>();

  constructor(
    private readonly vfs: Vfs,
    private readonly maxAgeMs: number,
  ) {}

  /**
   * The files of `dir` named `${base}.…` (any order; `readdir` errors propagate). From the kept
   * listing when no change since its readdir can have touched such a name.
   */
  async candidates(dir: string, base: string): Promise<readonly VfsDirent[]> {
    let l = this.folders.get(dir);
    if (l !== undefined && !l.dirty.has(base) && performance.now() - l.at < this.maxAgeMs) return l.byBase.get(base) ?? NONE;
    if (l === undefined) l = this.watch(dir);
    if (l === undefined) return this.vfs.readdir(dir).then((entries) => entries.filter((e) => e.name.startsWith(`${base}.`)));
    // Changes reported during the readdir stay marked: the listing may predate them.
    l.dirty.clear();
    l.at = -Infinity;
    let entries: VfsDirent[];
    try {
      entries = await this.vfs.readdir(dir);
    } catch (err) {
      this.drop(dir);
      throw err;
    }
    l.byBase.clear();
    for (const e of entries) {
      if (e.kind !== 'file') continue;
      basesOf(e.name, (b) => {
        const list = l.byBase.get(b);
        if (list === undefined) l.byBase.set(b, [e]);
        else list.push(e);
      });
    }
    if (this.folders.get(dir) === l) l.at = performance.now();
    return l.byBase.get(base) ?? NONE;
  }

  /** A change at `path` made through the Vfs (a file or a folder, created, changed or removed). */
  changed(path: string): void {
    const under = `${path}/`;
    for (const dir of this.folders.keys()) if (dir === path || dir.startsWith(under) || path === '') this.drop(dir);
    this.touched(parentOf(path), baseName(path));
  }

  close(): void {
    for (const dir of [...this.folders.keys()]) this.drop(dir);
  }

  /** `name` in `dir` may have changed: its bases' candidates are read again. */
  private touched(dir: string, name: string): void {
    const l = this.folders.get(dir);
    if (l === undefined) return;
    basesOf(name, (b) => l.dirty.add(b));
    if (l.dirty.size > MAX_DIRTY) l.at = -Infinity;
  }

  /** A listing for `dir`, its watch started (undefined when the folder cannot be watched). */
  private watch(dir: string): Listing | undefined {
    if (this.vfs.exclusive || this.vfs.watchFolder === undefined) return undefined;
    if (this.folders.size >= MAX_FOLDERS) this.drop(this.folders.keys().next().value!);
    let stop: (() => void) | null;
    try {
      stop = this.vfs.watchFolder(dir, (ended, name) => {
        if (ended || name === undefined) this.drop(dir);
        else this.touched(dir, name);
      });
    } catch {
      stop = null;
    }
    if (stop === null) return undefined;
    const l: Listing = { byBase: new Map(), dirty: new Set(), at: -Infinity, stop };
    this.folders.set(dir, l);
    return l;
  }

  private drop(dir: string): void {
    const l = this.folders.get(dir);
    if (l === undefined) return;
    this.folders.delete(dir);
    l.stop();
  }
}
