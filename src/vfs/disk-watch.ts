/**
 * Change reports for files on disk (Node only), so caches need not `stat` a file on every use
 * to notice an edit made behind their back (an editor, git, a script).
 *
 * One `fs.watch` per folder that holds a watched file (inotify on Linux), created on the first
 * watch in that folder and closed with its last one; watchers are not persistent (they never keep
 * the process alive). A report means "this file may have changed": callers confirm with `stat`,
 * so reports for our own writes or for events that change nothing cost one `stat`, never a
 * wrong answer. When a folder's watcher fails, or the folder itself is removed or renamed (the
 * watcher would go deaf), every file it held gets a final report (`ended`) and the watcher is
 * dropped: callers go back to checking with `stat`. `watch` answers null when it cannot watch
 * (platform without fs.watch, too many folders), with the same consequence.
 *
 * Best effort by nature: on some platforms and filesystems (network mounts, macOS FSEvents'
 * coalescing) reports come late or not at all, which is why callers still re-check now and then.
 */
import { watch as watchFolder, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';

/** `name`: the entry reported (reports of `watchAll`). */
type Report = (ended: boolean, name?: string) => void;

interface Folder {
  readonly watcher: FSWatcher;
  /** File name → the reports waiting for it. */
  readonly files: Map<string, Set<Report>>;
  /** Reports for any entry of the folder (`watchAll`). */
  readonly any: Set<Report>;
  /** The folder's own name: libuv reports events on the folder itself under it. */
  readonly self: string;
}

/** Beyond this many watched folders, `watch` answers null (inotify watches are a user-wide budget). */
const MAX_FOLDERS = 4096;

export class FolderWatchers {
  private readonly folders = new Map<string, Folder>();
  private closed = false;

  /**
   * @param hidden entry names never reported (the driver's temp files: a write's temp file is
   * created, written and renamed away, three events that can change nothing a caller sees).
   */
  constructor(private readonly hidden?: (name: string) => boolean) {}

  /** Watches the file at the absolute path `file`; see the module comment. */
  watch(file: string, report: Report): (() => void) | null {
    const dir = dirname(file);
    const name = basename(file);
    const folder = this.folder(dir);
    if (folder === undefined) return null;
    let reports = folder.files.get(name);
    if (reports === undefined) folder.files.set(name, (reports = new Set()));
    reports.add(report);
    return () => {
      const set = folder.files.get(name);
      if (set === undefined || !set.delete(report)) return;
      if (set.size === 0) folder.files.delete(name);
      this.release(dir, folder);
    };
  }

  /**
   * Watches every entry of the folder at the absolute path `dir` (not recursive): `report` on
   * any entry added, removed, renamed or changed, with its name. null when the folder cannot be
   * watched (absent).
   */
  watchAll(dir: string, report: Report): (() => void) | null {
    const folder = this.folder(dir);
    if (folder === undefined) return null;
    folder.any.add(report);
    return () => {
      if (folder.any.delete(report)) this.release(dir, folder);
    };
  }

  /** The watched folder at `dir`, its watcher started on first use; undefined when it cannot be watched. */
  private folder(dir: string): Folder | undefined {
    if (this.closed) return undefined;
    let folder = this.folders.get(dir);
    if (folder === undefined) {
      if (this.folders.size >= MAX_FOLDERS) return undefined;
      let watcher: FSWatcher;
      try {
        watcher = watchFolder(dir, { persistent: false }, (_event, filename) => this.event(dir, filename));
      } catch {
        return undefined; // folder gone, no watcher support, inotify budget spent
      }
      watcher.on('error', () => this.end(dir));
      folder = { watcher, files: new Map(), any: new Set(), self: basename(dir) };
      this.folders.set(dir, folder);
    }
    return folder;
  }

  /** Closes a folder's watcher once nobody waits for its reports. */
  private release(dir: string, folder: Folder): void {
    if (folder.files.size === 0 && folder.any.size === 0 && this.folders.get(dir) === folder) {
      this.folders.delete(dir);
      folder.watcher.close();
    }
  }

  /** Stops every watcher (no reports after this). */
  close(): void {
    this.closed = true;
    for (const folder of this.folders.values()) folder.watcher.close();
    this.folders.clear();
  }

  private event(dir: string, filename: string | Buffer | null): void {
    const folder = this.folders.get(dir);
    if (folder === undefined) return;
    const name = filename === null ? null : String(filename);
    // No name, or the folder's own name: something happened to the folder itself (removed,
    // renamed, its watch dropped by the kernel). Nothing more can be trusted from this watcher.
    if (name === null || name === folder.self) {
      this.end(dir);
      return;
    }
    if (this.hidden?.(name) === true) return;
    const reports = folder.files.get(name);
    if (reports !== undefined) for (const report of [...reports]) report(false);
    for (const report of [...folder.any]) report(false, name);
  }

  private end(dir: string): void {
    const folder = this.folders.get(dir);
    if (folder === undefined) return;
    this.folders.delete(dir);
    try {
      folder.watcher.close();
    } catch {
      // already closed by the failure
    }
    for (const reports of folder.files.values()) for (const report of reports) report(true);
    for (const report of folder.any) report(true);
  }
}
