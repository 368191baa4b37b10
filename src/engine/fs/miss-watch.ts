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
 * driver without `watchFolder`, or whose folder cannot be watched: those keep looking every time.
 */
import type { Vfs } from '../../vfs/types.js';
import { joinSafe, parentOf } from '../../vfs/path.js';

interface WatchedFolder {
  /** Request-path keys whose miss this folder's watch vouches for. */
  readonly keys: Set<string>;
  readonly stop: () => void;
}

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
   * Called before the lookup of `rel`: watches the folder its file would be in (or the nearest
   * existing ancestor) for `key`. True when a miss of this lookup may be remembered.
   */
  watchBefore(key: string, rel: string, trailingSlash: boolean): boolean {
    if (this.vfs.watchFolder === undefined || this.vfs.exclusive) return false;
    const full = joinSafe(this.fsDir, rel);
    // `rel === ''` or a trailing slash: the lookup reads the folder itself (its index.json).
    let dir = rel === '' || trailingSlash ? full : parentOf(full);
    for (;;) {
      if (this.watch(dir, key)) return true;
      if (dir === this.fsDir || dir === '' || rel === '' || trailingSlash) return false;
      dir = parentOf(dir);
    }
  }

  private watch(dir: string, key: string): boolean {
    const known = this.folders.get(dir);
    if (known !== undefined) {
      known.keys.add(key);
      return true;
    }
    const keys = new Set<string>([key]);
    let stop: (() => void) | null;
    try {
      stop = this.vfs.watchFolder!(dir, (ended) => this.reported(dir, ended));
    } catch {
      stop = null;
    }
    if (stop === null) return false;
    this.folders.set(dir, { keys, stop });
    return true;
  }

  private reported(dir: string, ended: boolean): void {
    this.reports++;
    const folder = this.folders.get(dir);
    if (folder === undefined) return;
    for (const key of folder.keys) this.forget(key);
    folder.keys.clear();
    if (ended) {
      this.folders.delete(dir);
      folder.stop();
    }
  }

  /** Forgets every key (the cache dropped its lookups); the watchers stay for the next misses. */
  clearKeys(): void {
    for (const folder of this.folders.values()) folder.keys.clear();
  }

  close(): void {
    for (const folder of this.folders.values()) folder.stop();
    this.folders.clear();
  }
}
