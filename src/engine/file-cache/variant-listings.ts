/**
 * Per folder: the names that have query variants (`users` for `users@page=2.json`), read with one
 * readdir and kept (the file cache's `variantStems`; query-variant.ts and the recorded layer ask).
 *
 * A change forgets only the listings it can alter: the folder that changed (and every folder
 * under it: it may have been removed or replaced), and its parent's listing only when the changed
 * name holds the variant mark. A write-heavy folder (`POST /api/items/7`, `DELETE …`) thus keeps
 * its listing, and a request after each write does not list the folder again. A listing read
 * while such a change happened is not kept. On a driver that files change behind (disk) a listing
 * is trusted for `ttlMs`, as before: outside changes are found within that time.
 */
import { baseName, parentOf } from '../../vfs/path.js';

interface Listing {
  readonly at: number;
  readonly mark: string;
  readonly stems: ReadonlySet<string>;
}

/** Folders listed at most (then all are forgotten at once). */
const MAX_FOLDERS = 10_000;

export class VariantListings {
  private readonly folders = new Map<string, Listing>();
  /** Folders being listed now, with the mark each listing looks for. */
  private readonly reading = new Map<string, { mark: string; spoiled: boolean }>();

  constructor(private readonly ttlMs: number | undefined) {}

  /** The stems of `dir` when known and still trusted, else undefined. */
  now(dir: string): ReadonlySet<string> | undefined {
    const known = this.folders.get(dir);
    if (known === undefined) return undefined;
    return this.ttlMs === undefined || performance.now() - known.at < this.ttlMs ? known.stems : undefined;
  }

  /** Lists `dir` with `list` (its files' names) and keeps the stems unless a change spoiled the reading. */
  async read(dir: string, mark: string, list: () => Promise<readonly string[]>): Promise<ReadonlySet<string>> {
    const mine = { mark, spoiled: false };
    this.reading.set(dir, mine);
    const stems = new Set<string>();
    try {
      for (const name of await list()) {
        const at = name.indexOf(mark);
        if (at > 0) stems.add(name.slice(0, at));
      }
    } finally {
      if (this.reading.get(dir) === mine) this.reading.delete(dir);
    }
    if (!mine.spoiled) {
      if (this.folders.size >= MAX_FOLDERS) this.folders.clear();
      this.folders.set(dir, { at: performance.now(), mark, stems });
    }
    return stems;
  }

  /** A change at `path` (a file or a folder, created, changed or removed). */
  changed(path: string): void {
    if (path === '') {
      this.clear();
      return;
    }
    const parent = parentOf(path);
    const name = baseName(path);
    const under = `${path}/`;
    const hits = (dir: string, mark: string) => dir === path || dir.startsWith(under) || (dir === parent && name.includes(mark));
    for (const [dir, listing] of this.folders) if (hits(dir, listing.mark)) this.folders.delete(dir);
    for (const [dir, reading] of this.reading) if (hits(dir, reading.mark)) reading.spoiled = true;
  }

  clear(): void {
    this.folders.clear();
    for (const reading of this.reading.values()) reading.spoiled = true;
  }
}
