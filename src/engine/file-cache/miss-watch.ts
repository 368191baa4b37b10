/**
 * Remembered misses on a driver that files change behind (disk): "this request path names no
 * file" is kept only while the folders that could make it name one are watched.
 *
 * A lookup that misses reads the folder the file would be in (a `stat` or two and a readdir,
 * lookup.ts). Without memory every request for an unmocked path pays that again: a mock API that
 * passes the rest through to a real API (`mock.proxy`) would list its folder on every proxied
 * request. Here, before the lookup runs, the folder the file would be in is watched (or, when it
 * does not exist, its nearest existing ancestor under the mocks folder, where its creation would
 * show); the miss is then trusted until that folder reports any change, and at most
 * WATCHED_RECHECK_MS (file-cache.ts: the same bound as a watched file's content, for reports that
 * come late or never). Watching before the lookup means no change after it goes unreported.
 *
 * A miss on a path that is itself a folder (its `index.json` absent) is not remembered: its
 * index would appear inside a folder that was not watched before the lookup. Nor is any miss on a
 * driver without `watchFolder`, or whose folder exists but cannot be watched (at most MAX_FOLDERS
 * folders are watched for misses): those keep looking every time. A folder is watched only while
 * a remembered miss needs it; its first report forgets them all and stops the watch.
 */
import type { Vfs } from '../../vfs/types.js';
import { joinSafe, parentOf } from '../../vfs/path.js';

interface WatchedFolder {
  /** Request-path keys whose remembered miss this folder's watch vouches for. */
  readonly keys: Set<string>;
  readonly stop: () => void;
}

/** Folders watched for misses at most (each is an inotify watch, a budget shared with file watches). */
const MAX_FOLDERS = 256;

export class MissWatches {
  private readonly folders = new Map<string, WatchedFolder>();
  /** Bumped by every folder report: a lookup that saw one may not remember its miss (the report came before the key was kept). */
  reports = 0;

  /**
   * @param forget drops the remembered miss of a key (when its folder reported a change).
   */
  constructor(
    private readonly vfs: Vfs,
    private readonly fsDir: string,
    private readonly forget: (key: string) => void,
  ) {}

  /**
   * Called before the lookup of `rel`: watches the folder its file would be in, or, when that
   * folder does not exist, the nearest existing ancestor under the mocks folder. Returns the
   * folder watched (give it to `keep` or `release` after the lookup), or undefined when a miss of
   * this lookup may not be remembered.
   */
  async watchBefore(rel: string, trailingSlash: boolean): Promise<string | undefined> {
    if (this.vfs.watchFolder === undefined || this.vfs.exclusive) return undefined;
    // `rel === ''` or a trailing slash: the lookup reads the folder itself (its index.json).
    const own = rel === '' || trailingSlash;
    let dir = own ? joinSafe(this.fsDir, rel) : parentOf(joinSafe(this.fsDir, rel));
    for (;;) {
      if (this.watch(dir)) return dir;
      if (own || dir === this.fsDir || dir === '') return undefined;
      // Only a folder that does not exist is stood in for by its parent (where its creation
      // shows); one that exists but cannot be watched (budget spent, no permission) cannot be.
      if ((await this.vfs.stat(dir)) !== null) return undefined;
      dir = parentOf(dir);
    }
  }

  /** After a lookup that missed: `key`'s miss is vouched for by `dir` (false: the watch is over, do not remember it). */
  keep(dir: string, key: string): boolean {
    const folder = this.folders.get(dir);
    if (folder === undefined) return false;
    folder.keys.add(key);
    return true;
  }

  /** After a lookup whose miss is not remembered: `dir` stops being watched when no miss needs it. */
  release(dir: string): void {
    const folder = this.folders.get(dir);
    if (folder !== undefined && folder.keys.size === 0) this.drop(dir, folder);
  }

  /** Forgets every key (the cache dropped its lookups) and stops the watches. */
  clearKeys(): void {
    for (const [dir, folder] of this.folders) this.drop(dir, folder);
  }

  close(): void {
    this.clearKeys();
  }

  private watch(dir: string): boolean {
    if (this.folders.has(dir)) return true;
    if (this.folders.size >= MAX_FOLDERS) return false;
    let stop: (() => void) | null;
    try {
      stop = this.vfs.watchFolder!(dir, () => this.reported(dir));
    } catch {
      stop = null;
    }
    if (stop === null) return false;
    this.folders.set(dir, { keys: new Set(), stop });
    return true;
  }

  /** Any report (a change, or the watch ended): every miss it vouched for is forgotten, the watch stopped. */
  private reported(dir: string): void {
    this.reports++;
    const folder = this.folders.get(dir);
    if (folder === undefined) return;
    for (const key of folder.keys) this.forget(key);
    this.drop(dir, folder);
  }

  private drop(dir: string, folder: WatchedFolder): void {
    folder.keys.clear();
    this.folders.delete(dir);
    folder.stop();
  }
}
