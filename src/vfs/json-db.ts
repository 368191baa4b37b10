/**
 * `jsonDbFs(inner, 'db.json')`: one JSON file seen as a folder — the json-server layout. Each
 * top-level key of the document is a file `<key>.json` at the root (arrays: collections;
 * objects and other values: singletons), so file mode, filters, collections and every host work
 * on it unchanged. Host-neutral: it runs over any other Vfs (disk, memory, IndexedDB).
 *
 * Writes (`write`, `writeJson`, `create`, `remove`) change the document in memory at once (the
 * next read sees them) and are persisted into the one file by a coalesced, atomic rewrite
 * (`inner.write`: temp file + rename on disk):
 *   - a burst of writes is one rewrite; a write is on its way to the file at most
 *     `flushDelayMs` (default 25 ms) after it was made, or right after the rewrite running at
 *     that moment ends (never two rewrites at once, never a lost update: every rewrite takes the
 *     whole current document);
 *   - `flush()` forces it now, `close()` flushes before it resolves; in a page, hiding or leaving
 *     the page (`pagehide`, `visibilitychange`) starts the rewrite at once.
 *
 * Outside edits of the file (an editor, git, a script; another tab on IndexedDB): the driver
 * watches it (`inner.watch`, `inner.onChange`) and, where watch reports can be late or lost,
 * re-checks its `stat` every `recheckMs` (default 250 ms). A report that cannot be our own write
 * drops every key at once (listeners are told synchronously, so caches forget), and the next
 * operation waits for the file to be read again: the next request is served from the edit.
 * Reports that come just after our own rewrite are confirmed with one `stat` first. If the file
 * is not valid JSON (an editor mid-save), the last good document keeps being served, with a
 * warning. An outside edit made while our own writes wait for their rewrite wins (a warning
 * says how many writes it replaced).
 *
 * Only top-level keys that are valid file names are exposed (`posts`, `user-settings`; not
 * `a/b`, `..`); others are kept in the file untouched. Folders, non-JSON files and `append` are
 * refused with EINVAL (db.json holds JSON values only).
 *
 * The parts: the document (json-document.ts); its saving (json-db-saver.ts; its states saved |
 * waiting | writing | failed | held and their moves: json-db-saver-state.ts); reading the file (here: `phase` unloaded | loaded, re-reads
 * through one CoalescedRun); watching for outside edits (here).
 */
import { CoalescedRun } from '../core/coalesced-run.js';
import { ChangeEmitter } from './change-emitter.js';
import { DocumentSaver } from './json-db-saver.js';
import { JsonDocument, validKey } from './json-document.js';
import { normalizeVfsPath } from './path.js';
import { isVfsError, VfsError, type Vfs, type VfsDirent, type VfsStat } from './types.js';

export interface JsonDbOptions {
  /** Most milliseconds between a write and the start of the rewrite that persists it. Default 25. */
  flushDelayMs?: number;
  /** Where outside edits can go unreported (disk), the file's `stat` is re-checked this often. Default 250. */
  recheckMs?: number;
  /** Warnings (invalid JSON on disk, outside edit over pending writes, failed rewrites). */
  onWarning?: (message: string) => void;
}

export interface JsonDbVfs extends Vfs {
  /** Loads the file (once); rejects when it is not a JSON object. */
  ready(): Promise<void>;
  /** Persists pending writes now. */
  flush(): Promise<void>;
  /** The top-level keys, in document order. */
  keys(): string[];
}

const encoder = /* @__PURE__ */ new TextEncoder();
const decoder = /* @__PURE__ */ new TextDecoder();
const SUFFIX = '.json';
/** Reports within this long after our own rewrite may be its own echo: confirmed with a stat. */
const ECHO_MS = 200;
/** A file that stays empty (an editor's save in two steps) is read again this many times at most… */
const EMPTY_READS = 20;
/** …the first few at once, the others this long apart (then the re-check timer takes over). */
const EMPTY_READ_PAUSE_MS = 5;

function sameStat(a: VfsStat | null, b: VfsStat | null): boolean {
  if (a === null || b === null) return a === b;
  return a.size === b.size && a.mtimeMs === b.mtimeMs && a.ino === b.ino;
}

export function jsonDbFs(inner: Vfs, file = 'db.json', options: JsonDbOptions = {}): JsonDbVfs {
  const filePath = normalizeVfsPath(file);
  const flushDelayMs = options.flushDelayMs ?? 25;
  const recheckMs = options.recheckMs ?? 250;
  const warn = options.onWarning ?? ((m: string) => console.warn(`[mockyard] ${m}`));
  const changes = new ChangeEmitter();
  const now = () => (typeof performance !== 'undefined' ? performance.now() : Date.now());

  let versions = 0;
  const nextVersion = () => ++versions;
  /** What is served; replaced as a whole when the file is read. */
  let doc = JsonDocument.empty(nextVersion);
  /** Until the file has been read once, operations wait for (or retry) that read. */
  let phase: 'unloaded' | 'loaded' = 'unloaded';
  /** The file's stat as we last read or wrote it (null: absent). */
  let known: VfsStat | null = null;
  let closed = false;
  const saver = new DocumentSaver({
    delayMs: flushDelayMs,
    text: () => doc.text(),
    write: async (text) => {
      await inner.write(filePath, text);
      known = await inner.stat(filePath).catch(() => null);
    },
    onFailure: (err) => warn(`could not save ${filePath}: ${(err as Error)?.message ?? String(err)} (will retry)`),
  });

  // ---- reading the file ----------------------------------------------------------------------

  /** One read of the file into `doc`. Asks for another round when it finds the file empty. */
  async function readFile(): Promise<void> {
    let bytes: Uint8Array;
    let stat: VfsStat | null;
    try {
      stat = await inner.stat(filePath);
      bytes = stat === null ? new Uint8Array(0) : await inner.read(filePath);
    } catch (err) {
      if (!isVfsError(err, 'ENOENT')) throw err;
      stat = null;
      bytes = new Uint8Array(0);
    }
    const text = decoder.decode(bytes);
    let parsed: JsonDocument;
    try {
      // An empty file is an empty db only at start-up; later it is an editor mid-save (truncate,
      // then write): taking it would serve nothing and the next rewrite would save nothing.
      if (phase === 'loaded' && text.trim() === '') {
        // Routine (an editor's truncating save): no warning. The write that follows is reported,
        // but reports of one file can merge in the kernel: look again at once as well.
        known = stat;
        reading.again();
        return;
      }
      parsed = JsonDocument.parse(text, filePath, nextVersion);
    } catch (err) {
      if (phase === 'unloaded') throw err instanceof VfsError ? err : new VfsError('EINVAL', filePath, `${filePath} is not valid JSON: ${(err as Error).message}`);
      warn(`${filePath} changed on disk but is not a valid JSON object (${(err as Error).message}); serving its last good content`);
      known = stat;
      return;
    }
    if (phase === 'loaded' && saver.unsaved > 0) warn(`${filePath} changed on disk while ${saver.unsaved} write(s) waited to be saved; the file's content wins`);
    const before = [...doc.slots.keys()];
    doc = parsed;
    known = stat;
    saver.discard();
    const reloaded = phase === 'loaded';
    phase = 'loaded';
    if (reloaded) {
      for (const k of new Set([...before, ...doc.slots.keys()])) changes.emit(`${k}${SUFFIX}`);
      changes.emit('');
    }
  }

  /** Reads the file; asked again while reading (a report, an empty file), reads it once more. */
  const reading = new CoalescedRun(
    async (round) => {
      if (round > 3) await new Promise((r) => setTimeout(r, EMPTY_READ_PAUSE_MS));
      await readFile();
    },
    (round) => !closed && round < EMPTY_READS,
  );

  const firstLoad = reading.run();
  firstLoad.catch(() => undefined);

  /** Waits for a read under way (or makes the first one). */
  async function settled(): Promise<void> {
    while (reading.underWay) await reading.underWay;
    if (phase === 'unloaded') await reading.run();
  }

  function keyOf(path: string): string | undefined {
    const p = normalizeVfsPath(path);
    if (!p.endsWith(SUFFIX) || p.includes('/')) return undefined;
    const k = p.slice(0, -SUFFIX.length);
    return validKey(k) ? k : undefined;
  }

  function refuse(path: string, what: string): never {
    throw new VfsError('EINVAL', path, `${filePath} holds JSON values under top-level keys only: cannot ${what} ${path || '/'}`);
  }

  /** A change of the document: saved within `flushDelayMs` (json-db-saver.ts), told to listeners now. */
  function changed(key: string): void {
    saver.changed();
    changes.emit(`${key}${SUFFIX}`);
  }

  // ---- outside edits -------------------------------------------------------------------------

  let checking: Promise<void> | undefined;
  /** Reads the file again when its stat differs from what we last read or wrote. */
  function check(): Promise<void> {
    if (saver.writing) return Promise.resolve();
    checking ??= (async () => {
      try {
        await settled();
        const s = await inner.stat(filePath).catch(() => null);
        if (!saver.writing && !sameStat(s, known)) await reading.run();
      } catch {
        // reported by the next operation
      }
    })().finally(() => {
      checking = undefined;
    });
    return checking;
  }

  /** A report that the file may have changed from outside. */
  function reported(): void {
    if (closed || saver.writing) return;
    if (now() - saver.rewroteAt < ECHO_MS) {
      void check();
      return;
    }
    // Drop everything now (listeners forget synchronously); the next operation reads again.
    for (const k of doc.slots.keys()) changes.emit(`${k}${SUFFIX}`);
    changes.emit('');
    reading.run().catch(() => undefined);
  }

  const stopInnerChanges = inner.onChange((p) => {
    if (p === filePath || p === '') reported();
  });
  const stopWatch = inner.watch?.(filePath, () => reported()) ?? null;
  let poll: ReturnType<typeof setInterval> | undefined;
  if (!inner.exclusive && recheckMs > 0) {
    poll = setInterval(() => void check(), recheckMs);
    (poll as { unref?: () => void }).unref?.();
  }

  // In a page: save what is pending when the page is hidden or goes away (IndexedDB writes
  // started then still commit), so a reload right after a write does not lose it.
  const g = globalThis as { addEventListener?: (t: string, f: () => void) => void; removeEventListener?: (t: string, f: () => void) => void; document?: { visibilityState?: string } };
  const onHide = () => {
    if (saver.unsaved > 0 && (g.document?.visibilityState === 'hidden' || g.document?.visibilityState === undefined)) void saver.rewrite();
  };
  const onPageHide = () => {
    if (saver.unsaved > 0) void saver.rewrite();
  };
  const inPage = typeof g.addEventListener === 'function' && g.document !== undefined;
  if (inPage) {
    g.addEventListener!('pagehide', onPageHide);
    g.addEventListener!('visibilitychange', onHide);
  }

  // ---- the Vfs contract ----------------------------------------------------------------------

  const rootStat = (): VfsStat => ({ kind: 'dir', size: 0, mtimeMs: known?.mtimeMs ?? 0 });
  const vfs: JsonDbVfs = {
    driver: 'json-db',
    exclusive: true,
    root: `${inner.root.replace(/\/+$/, '')}/${filePath}`,

    ready: async () => {
      await firstLoad;
    },
    flush: async () => {
      await settled();
      await saver.saveAll(false);
    },
    keys: () => [...doc.slots.keys()],

    async stat(path) {
      if (reading.running) await settled();
      const p = normalizeVfsPath(path);
      if (p === '') return rootStat();
      const key = keyOf(p);
      const slot = key === undefined ? undefined : doc.slots.get(key);
      if (!slot) return null;
      return { kind: 'file', size: doc.bytesOf(slot).byteLength, mtimeMs: slot.mtimeMs, ino: slot.version };
    },

    async read(path) {
      if (reading.running) await settled();
      const p = normalizeVfsPath(path);
      if (p === '') throw new VfsError('EISDIR', p);
      const key = keyOf(p);
      const slot = key === undefined ? undefined : doc.slots.get(key);
      if (!slot) throw new VfsError('ENOENT', p);
      return doc.bytesOf(slot);
    },

    async write(path, data) {
      await settled();
      const key = keyOf(path);
      if (key === undefined) refuse(path, 'write');
      const bytes = typeof data === 'string' ? encoder.encode(data) : data;
      let value: unknown;
      try {
        value = JSON.parse(decoder.decode(bytes));
      } catch {
        throw new VfsError('EINVAL', path, `${path} must be valid JSON to be stored in ${filePath}`);
      }
      doc.set(key, value);
      changed(key);
    },

    async writeJson(path, value) {
      if (reading.running) await settled();
      const key = keyOf(path);
      if (key === undefined) refuse(path, 'write');
      doc.set(key, value);
      changed(key);
    },

    async create(path, data) {
      await settled();
      const key = keyOf(path);
      if (key !== undefined && doc.slots.has(key)) throw new VfsError('EEXIST', normalizeVfsPath(path));
      await vfs.write(path, data);
    },

    async append(path) {
      refuse(path, 'append to');
    },

    async readdir(path) {
      if (reading.running) await settled();
      const p = normalizeVfsPath(path);
      if (p === '') return [...doc.slots.keys()].map((k): VfsDirent => ({ name: `${k}${SUFFIX}`, kind: 'file' })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      const key = keyOf(p);
      throw new VfsError(key !== undefined && doc.slots.has(key) ? 'ENOTDIR' : 'ENOENT', p);
    },

    async remove(path) {
      await settled();
      const key = keyOf(path);
      if (key === undefined || !doc.slots.delete(key)) return false;
      changed(key);
      return true;
    },

    async mkdir(path) {
      if (normalizeVfsPath(path) !== '') refuse(path, 'create the folder');
    },

    onChange: (listener) => changes.on(listener),

    async close() {
      if (closed) return;
      closed = true;
      saver.close();
      if (poll !== undefined) clearInterval(poll);
      if (inPage) {
        g.removeEventListener?.('pagehide', onPageHide);
        g.removeEventListener?.('visibilitychange', onHide);
      }
      stopWatch?.();
      stopInnerChanges();
      await firstLoad.catch(() => undefined);
      await saver.saveAll(true);
    },
  };
  return vfs;
}
