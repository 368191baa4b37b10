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
 */
import { ChangeEmitter } from './change-emitter.js';
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

interface Slot {
  value: unknown;
  /** The serialisation served by `read` (built on demand). */
  bytes: Uint8Array | undefined;
  mtimeMs: number;
  /** Bumped on every change: the `ino` of the virtual file. */
  version: number;
}

const encoder = /* @__PURE__ */ new TextEncoder();
const decoder = /* @__PURE__ */ new TextDecoder();
const SUFFIX = '.json';
/** Reports within this long after our own rewrite may be its own echo: confirmed with a stat. */
const ECHO_MS = 200;

function validKey(key: string): boolean {
  if (key === '' || key === '.' || key === '..' || key.length > 200) return false;
  return !/[\\/\0]/.test(key);
}

function indentOf(text: string): string | number {
  const m = /\n([ \t]+)/.exec(text);
  if (!m) return 2;
  return m[1]![0] === '\t' ? '\t' : m[1]!.length;
}

export function jsonDbFs(inner: Vfs, file = 'db.json', options: JsonDbOptions = {}): JsonDbVfs {
  const filePath = normalizeVfsPath(file);
  const flushDelayMs = options.flushDelayMs ?? 25;
  const recheckMs = options.recheckMs ?? 250;
  const warn = options.onWarning ?? ((m: string) => console.warn(`[mockyard] ${m}`));
  const changes = new ChangeEmitter();

  /** The document: exposed keys and the others (kept as they are), in document order. */
  let doc = new Map<string, Slot>();
  let hidden = new Map<string, unknown>();
  let indent: string | number = 2;
  let version = 0;
  /** The file's stat as we last read or wrote it (null: absent). */
  let known: VfsStat | null = null;
  /** Load or reload in progress: every operation waits for it. */
  let pending: Promise<void> | undefined;
  let loaded = false;
  let dirty = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let flushing: Promise<void> | undefined;
  let selfWriting = false;
  let ownWriteAt = -Infinity;
  let closed = false;

  const now = () => (typeof performance !== 'undefined' ? performance.now() : Date.now());

  function parseDocument(bytes: Uint8Array): { doc: Map<string, Slot>; hidden: Map<string, unknown>; indent: string | number } {
    const text = decoder.decode(bytes);
    const value: unknown = text.trim() === '' ? {} : JSON.parse(text);
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      throw new VfsError('EINVAL', filePath, `${filePath} must hold a JSON object whose keys are the resources (got ${Array.isArray(value) ? 'an array' : typeof value})`);
    }
    const d = new Map<string, Slot>();
    const h = new Map<string, unknown>();
    const t = Date.now();
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      if (validKey(k)) d.set(k, { value: v, bytes: undefined, mtimeMs: t, version: ++version });
      else h.set(k, v);
    }
    return { doc: d, hidden: h, indent: indentOf(text) };
  }

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
    let parsed;
    try {
      // An empty file is an empty db only at start-up; later it is an editor mid-save (truncate,
      // then write): taking it would serve nothing and the next rewrite would save nothing.
      if (loaded && decoder.decode(bytes).trim() === '') {
        // Routine (an editor's truncating save): no warning. The write that follows is reported,
        // but reports of one file can merge in the kernel: look again at once as well.
        known = stat;
        readAgain = true;
        return;
      }
      parsed = parseDocument(bytes);
    } catch (err) {
      if (!loaded) throw err instanceof VfsError ? err : new VfsError('EINVAL', filePath, `${filePath} is not valid JSON: ${(err as Error).message}`);
      warn(`${filePath} changed on disk but is not a valid JSON object (${(err as Error).message}); serving its last good content`);
      known = stat;
      return;
    }
    if (loaded && dirty > 0) warn(`${filePath} changed on disk while ${dirty} write(s) waited to be saved; the file's content wins`);
    const before = [...doc.keys()];
    doc = parsed.doc;
    hidden = parsed.hidden;
    indent = parsed.indent;
    known = stat;
    dirty = 0;
    const wasLoaded = loaded;
    loaded = true;
    if (wasLoaded) {
      for (const k of new Set([...before, ...doc.keys()])) changes.emit(`${k}${SUFFIX}`);
      changes.emit('');
    }
  }

  /** Set by a report that comes while the file is being read: read it once more after. */
  let readAgain = false;
  function load(): Promise<void> {
    if (pending) {
      readAgain = true;
      return pending;
    }
    pending = (async () => {
      let rounds = 0;
      do {
        readAgain = false;
        await readFile();
        // A file that stays empty is re-read a few times only (then the re-check timer takes over).
        if (readAgain && ++rounds > 3) await new Promise((r) => setTimeout(r, 5));
      } while (readAgain && !closed && rounds < 20);
    })().finally(() => {
      pending = undefined;
    });
    return pending;
  }

  const firstLoad = load();
  firstLoad.catch(() => undefined);

  /** Waits for a load/reload in progress (or the first one). */
  async function settled(): Promise<void> {
    while (pending) await pending;
    if (!loaded) await load();
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

  function bytesOf(slot: Slot): Uint8Array {
    return (slot.bytes ??= encoder.encode(`${JSON.stringify(slot.value, null, indent)}\n`));
  }

  // ---- persistence ---------------------------------------------------------------------------

  function documentText(): string {
    const out: Record<string, unknown> = {};
    for (const [k, s] of doc) out[k] = s.value;
    for (const [k, v] of hidden) if (!(k in out)) out[k] = v;
    return `${JSON.stringify(out, null, indent)}\n`;
  }

  function schedule(): void {
    if (timer !== undefined || flushing || closed) return;
    timer = setTimeout(() => {
      timer = undefined;
      void persist();
    }, flushDelayMs);
  }

  function persist(): Promise<void> {
    if (flushing) return flushing;
    if (timer !== undefined) {
      clearTimeout(timer);
      timer = undefined;
    }
    if (dirty === 0) return Promise.resolve();
    flushing = (async () => {
      const writes = dirty;
      const text = documentText();
      selfWriting = true;
      try {
        await inner.write(filePath, text);
        dirty -= Math.min(writes, dirty);
        known = await inner.stat(filePath).catch(() => null);
      } catch (err) {
        warn(`could not save ${filePath}: ${(err as Error)?.message ?? String(err)} (will retry)`);
      } finally {
        selfWriting = false;
        ownWriteAt = now();
      }
    })().finally(() => {
      flushing = undefined;
      if (dirty > 0) {
        if (closed) void persist();
        else schedule();
      }
    });
    return flushing;
  }

  function changed(key: string): void {
    dirty++;
    schedule();
    changes.emit(`${key}${SUFFIX}`);
  }

  // ---- outside edits -------------------------------------------------------------------------

  function sameStat(a: VfsStat | null, b: VfsStat | null): boolean {
    if (a === null || b === null) return a === b;
    return a.size === b.size && a.mtimeMs === b.mtimeMs && a.ino === b.ino;
  }

  let checking: Promise<void> | undefined;
  /** Re-reads the file when its stat differs from what we last read or wrote. */
  function check(): Promise<void> {
    if (flushing || selfWriting) return Promise.resolve();
    checking ??= (async () => {
      try {
        await settled();
        const s = await inner.stat(filePath).catch(() => null);
        if (!flushing && !sameStat(s, known)) await load();
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
    if (closed || selfWriting || flushing) return;
    if (now() - ownWriteAt < ECHO_MS) {
      void check();
      return;
    }
    // Drop everything now (listeners forget synchronously); the next operation re-reads.
    for (const k of doc.keys()) changes.emit(`${k}${SUFFIX}`);
    changes.emit('');
    load().catch(() => undefined);
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
    if (dirty > 0 && (g.document?.visibilityState === 'hidden' || g.document?.visibilityState === undefined)) void persist();
  };
  const onPageHide = () => {
    if (dirty > 0) void persist();
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
      while (dirty > 0 || flushing) await persist();
    },
    keys: () => [...doc.keys()],

    async stat(path) {
      if (pending) await settled();
      const p = normalizeVfsPath(path);
      if (p === '') return rootStat();
      const key = keyOf(p);
      const slot = key === undefined ? undefined : doc.get(key);
      if (!slot) return null;
      return { kind: 'file', size: bytesOf(slot).byteLength, mtimeMs: slot.mtimeMs, ino: slot.version };
    },

    async read(path) {
      if (pending) await settled();
      const p = normalizeVfsPath(path);
      if (p === '') throw new VfsError('EISDIR', p);
      const key = keyOf(p);
      const slot = key === undefined ? undefined : doc.get(key);
      if (!slot) throw new VfsError('ENOENT', p);
      return bytesOf(slot);
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
      doc.set(key, { value, bytes: undefined, mtimeMs: Date.now(), version: ++version });
      changed(key);
    },

    async writeJson(path, value) {
      if (pending) await settled();
      const key = keyOf(path);
      if (key === undefined) refuse(path, 'write');
      const slot = doc.get(key);
      if (slot) {
        slot.value = value;
        slot.bytes = undefined;
        slot.mtimeMs = Date.now();
        slot.version = ++version;
      } else doc.set(key, { value, bytes: undefined, mtimeMs: Date.now(), version: ++version });
      changed(key);
    },

    async create(path, data) {
      await settled();
      const key = keyOf(path);
      if (key !== undefined && doc.has(key)) throw new VfsError('EEXIST', normalizeVfsPath(path));
      await vfs.write(path, data);
    },

    async append(path) {
      refuse(path, 'append to');
    },

    async readdir(path) {
      if (pending) await settled();
      const p = normalizeVfsPath(path);
      if (p === '') return [...doc.keys()].map((k): VfsDirent => ({ name: `${k}${SUFFIX}`, kind: 'file' })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      const key = keyOf(p);
      throw new VfsError(key !== undefined && doc.has(key) ? 'ENOTDIR' : 'ENOENT', p);
    },

    async remove(path) {
      await settled();
      const key = keyOf(path);
      if (key === undefined || !doc.delete(key)) return false;
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
      if (poll !== undefined) clearInterval(poll);
      if (inPage) {
        g.removeEventListener?.('pagehide', onPageHide);
        g.removeEventListener?.('visibilitychange', onHide);
      }
      stopWatch?.();
      stopInnerChanges();
      await firstLoad.catch(() => undefined);
      while (dirty > 0 || flushing) {
        const before = dirty;
        await persist();
        if (dirty >= before && !flushing) break; // the inner Vfs refuses: give up rather than spin
      }
    },
  };
  return vfs;
}
