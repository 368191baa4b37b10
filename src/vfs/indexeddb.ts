/**
 * IndexedDB driver (browser), on `idb`. Same contract as memoryFs and diskFs.
 *
 * Layout: one object store `entries` keyed by the normalised path, holding
 * `{ path, parent, kind, data?, size, mtimeMs, ino }`, with an index on `parent` for `readdir`.
 * Directories are explicit entries (created by `mkdir` and by writes, like `mkdir -p`); the root
 * `''` always exists and is never stored.
 *
 * Every change is ONE readwrite transaction (the parents, the file and the inode counter
 * together), so a crash or a closed tab leaves the old state or the new one, never half of it.
 * The seed is written inside the upgrade transaction that creates the database: a new database
 * gets the seed, an existing one keeps the user's changes; `reset()` restores the seed in one
 * transaction. The database remembers per-file digests of the seed it was made from: opened with
 * a seed whose files differ (a seed file edited under a dev server), it is re-seeded from the new
 * files and one console line says which files changed and how to keep edits instead
 * (`onSeedChange: 'keep'`). Opened without a seed, it never re-seeds.
 *
 * `exclusive: true`: changes made through this object raise `onChange`. Changes made by another
 * tab (another `indexedDbFs` on the same name) are announced on a BroadcastChannel
 * (`mockyard-vfs:<name>`) after their transaction commits and raised here too, so engine caches
 * in every tab stay right.
 */
import { openDB, type DBSchema, type IDBPDatabase, type IDBPObjectStore } from 'idb';
import { ChangeEmitter } from './change-emitter.js';
import { baseName, normalizeVfsPath, parentOf } from './path.js';
import { check } from '../core/options.js';
import { seedChanges, seedDigest, seedEntries, toBytes, type SeedDigest, type SeedTree } from './seed.js';
import { VfsError, type Vfs, type VfsDirent, type VfsStat } from './types.js';

export interface IndexedDbFsOptions {
  /** Files written when the database is created (and again by `reset()`). */
  seed?: SeedTree;
  /**
   * When the database was made from a different seed (a seed file changed since): `'reseed'`
   * (default) replaces the data with the new seed, saying so in the console; `'keep'` keeps the
   * data (edits included) and says once that `reset()` takes the new seed.
   */
  onSeedChange?: 'reseed' | 'keep';
}

export interface IndexedDbVfs extends Vfs {
  /** Restores the seed tree (everything else is removed), in one transaction. */
  reset(): Promise<void>;
}

interface Entry {
  path: string;
  parent: string;
  kind: 'file' | 'dir';
  data?: Uint8Array;
  size: number;
  mtimeMs: number;
  ino: number;
}

interface Schema extends DBSchema {
  entries: { key: string; value: Entry; indexes: { parent: string } };
  meta: { key: string; value: number | SeedDigest };
}

type RwStore = IDBPObjectStore<Schema, ['entries', 'meta'], 'entries', 'readwrite' | 'versionchange'>;
type MetaStore = IDBPObjectStore<Schema, ['entries', 'meta'], 'meta', 'readwrite' | 'versionchange'>;

const DB_VERSION = 1;
const ROOT_STAT: VfsStat = { kind: 'dir', size: 0, mtimeMs: 0 };
const EMPTY = new Uint8Array(0);

/** A copy that owns its whole buffer (structured clone of a view would store the whole buffer). */
function ownBytes(bytes: Uint8Array): Uint8Array {
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : bytes.slice();
}

function ancestors(path: string): string[] {
  const out: string[] = [];
  for (let p = parentOf(path); p !== ''; p = parentOf(p)) out.push(p);
  return out.reverse();
}

/** Upper bound of the key range holding everything below `dir` (`'a/'` … `'a0'`, `'0'` follows `'/'`). */
function descendants(dir: string): IDBKeyRange {
  return IDBKeyRange.bound(`${dir}/`, `${dir}0`, false, true);
}

/** IndexedDB failures (quota, a closed connection…) as VfsError EIO; VfsErrors pass through. */
function asVfsError(err: unknown, path: string): VfsError {
  if (err instanceof VfsError) return err;
  const name = (err as { name?: string } | null)?.name ?? 'Error';
  return new VfsError('EIO', path, `IndexedDB error (${name}) on ${path || '/'}`);
}

function toStat(e: Entry): VfsStat {
  return { kind: e.kind, size: e.size, mtimeMs: e.mtimeMs, ino: e.ino };
}

/**
 * A filesystem in the IndexedDB database `name`: `indexedDbFs('my-app', { seed })`. Returns at
 * once; the database opens on first use.
 */
export function indexedDbFs(name: string, options: IndexedDbFsOptions = {}): IndexedDbVfs {
  if (typeof name !== 'string' || name === '') throw new TypeError('indexedDbFs(name): name must be a non-empty string');
  check.knownKeys(check.object(options, 'indexedDbFs options') ?? {}, '', ['seed', 'onSeedChange']);
  const onSeedChange = check.oneOf(options.onSeedChange, 'onSeedChange', ['reseed', 'keep'], 'reseed');
  const seed = seedEntries(options.seed);
  const digest = seedDigest(seed);
  // A handle without a seed (another tab's, the tracker's storage) never speaks for the seed.
  let seedChecked = options.seed === undefined;
  const changes = new ChangeEmitter();
  const channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel(`mockyard-vfs:${name}`) : null;
  if (channel) channel.onmessage = (event: MessageEvent) => {
    if (typeof event.data === 'string') changes.emit(event.data);
  };
  let closed = false;
  let dbPromise: Promise<IDBPDatabase<Schema>> | undefined;

  const db = (): Promise<IDBPDatabase<Schema>> => {
    if (closed) return Promise.reject(new VfsError('EIO', '', `indexeddb:${name} is closed`));
    return (dbPromise ??= open().catch((err: unknown) => {
      dbPromise = undefined; // a failed open (blocked, quota) is retried on next use
      throw err;
    }));
  };

  const open = async () => {
    if (!(globalThis as { indexedDB?: IDBFactory }).indexedDB) {
      throw new VfsError('EIO', '', 'IndexedDB is not available in this environment');
    }
    const database = await openDB<Schema>(name, DB_VERSION, {
      upgrade(database, oldVersion, _newVersion, tx) {
        if (oldVersion < 1) {
          seedChecked = true;
          const entries = database.createObjectStore('entries', { keyPath: 'path' });
          entries.createIndex('parent', 'parent');
          database.createObjectStore('meta');
          // Same transaction as the stores: a new database is seeded or does not exist.
          writeSeed(tx.objectStore('entries'), tx.objectStore('meta'), 0);
        }
      },
      blocking() {
        // Another tab wants a newer version or deletes the database: let it.
        database.close();
        dbPromise = undefined;
      },
    });
    if (!seedChecked) {
      seedChecked = true;
      await followSeed(database).catch((err: unknown) => {
        database.close();
        throw asVfsError(err, '');
      });
    }
    return database;
  };

  /**
   * Compares the seed this handle was given with the one the database was made from (one
   * transaction): re-seeds when files differ (unless `onSeedChange: 'keep'`). A database made
   * before digests were kept gets the current digest and keeps its data.
   */
  const followSeed = async (database: IDBPDatabase<Schema>) => {
    const tx = database.transaction(['entries', 'meta'], 'readwrite');
    const entries = tx.objectStore('entries');
    const meta = tx.objectStore('meta');
    const [stored, lastIno] = await Promise.all([meta.get('seed'), meta.get('ino')]);
    const changed = stored === undefined ? [] : seedChanges(stored as SeedDigest, digest);
    if (stored === undefined || (changed.length > 0 && onSeedChange === 'keep')) {
      void meta.put(digest, 'seed');
    } else if (changed.length > 0) {
      await entries.clear();
      writeSeed(entries, meta, typeof lastIno === 'number' ? lastIno : 0);
    }
    await tx.done;
    if (changed.length === 0) return;
    const files = changed.length > 5 ? `${changed.slice(0, 5).join(', ')} and ${changed.length - 5} more` : changed.join(', ');
    if (onSeedChange === 'keep') {
      console.info(`[mockyard] indexedDbFs('${name}'): the seed changed (${files}); kept the data in the browser (onSeedChange: 'keep'); reset() loads the new seed.`);
    } else {
      announce('');
      console.info(
        `[mockyard] indexedDbFs('${name}'): the seed changed (${files}), so the data was re-seeded from the new files and edits made here are gone; pass { onSeedChange: 'keep' } to keep edits when the seed changes.`,
      );
    }
  };

  /** Queues the seed's puts (no awaits: usable inside the upgrade transaction). */
  const writeSeed = (entries: RwStore, meta: MetaStore, lastIno: number) => {
    const now = Date.now();
    let ino = lastIno;
    const dirs = new Set<string>();
    for (const [path, bytes] of seed) {
      for (const dir of ancestors(path)) {
        if (dirs.has(dir)) continue;
        dirs.add(dir);
        void entries.put({ path: dir, parent: parentOf(dir), kind: 'dir', size: 0, mtimeMs: now, ino: ++ino });
      }
      const data = ownBytes(bytes);
      void entries.put({ path, parent: parentOf(path), kind: 'file', data, size: data.byteLength, mtimeMs: now, ino: ++ino });
    }
    void meta.put(ino, 'ino');
    if (options.seed !== undefined) void meta.put(digest, 'seed');
  };

  const announce = (path: string) => {
    changes.emit(path);
    channel?.postMessage(path);
  };

  /**
   * One readwrite transaction on both stores. `body` may only await IndexedDB requests of `tx`
   * (anything else would let the transaction auto-commit early).
   */
  const transact = async <T>(path: string, body: (entries: RwStore, meta: MetaStore) => Promise<T>): Promise<T> => {
    let tx;
    try {
      tx = (await db()).transaction(['entries', 'meta'], 'readwrite');
    } catch (err) {
      throw asVfsError(err, path);
    }
    let result: T;
    try {
      result = await body(tx.objectStore('entries'), tx.objectStore('meta'));
    } catch (err) {
      try {
        tx.abort();
      } catch {
        // already finished
      }
      await tx.done.catch(() => {});
      throw asVfsError(err, path);
    }
    try {
      await tx.done;
    } catch (err) {
      throw asVfsError(err, path); // e.g. QuotaExceededError at commit: nothing was written
    }
    return result;
  };

  /** A read-only lookup, failures mapped to VfsError. */
  const lookup = async <T>(path: string, run: (database: IDBPDatabase<Schema>) => Promise<T>): Promise<T> => {
    try {
      return await run(await db());
    } catch (err) {
      throw asVfsError(err, path);
    }
  };

  /** Why `path` is absent: ENOTDIR when it runs through a file (`a.json/x`), else ENOENT. */
  const absentError = async (path: string): Promise<VfsError> => {
    const above = ancestors(path);
    const found = above.length === 0 ? [] : await lookup(path, (database) => Promise.all(above.map((d) => database.get('entries', d))));
    return new VfsError(found.some((e) => e?.kind === 'file') ? 'ENOTDIR' : 'ENOENT', path);
  };

  const nextIno = async (meta: MetaStore): Promise<number> => {
    const last = await meta.get('ino');
    const ino = (typeof last === 'number' ? last : 0) + 1;
    void meta.put(ino, 'ino');
    return ino;
  };

  /** mkdir -p of `path`'s ancestors (and `path` itself with `self`), inside a transaction. */
  const ensureDirs = async (entries: RwStore, meta: MetaStore, path: string, self: boolean) => {
    const dirs = ancestors(path);
    if (self && path !== '') dirs.push(path);
    const found = await Promise.all(dirs.map((d) => entries.get(d)));
    const now = Date.now();
    for (let i = 0; i < dirs.length; i++) {
      const e = found[i];
      if (e?.kind === 'dir') continue;
      if (e) throw new VfsError(i === dirs.length - 1 && self ? 'EEXIST' : 'ENOTDIR', path);
      void entries.put({ path: dirs[i]!, parent: parentOf(dirs[i]!), kind: 'dir', size: 0, mtimeMs: now, ino: await nextIno(meta) });
    }
  };

  const putFile = async (p: string, data: Uint8Array | string, mode: 'write' | 'create' | 'append') => {
    const path = normalizeVfsPath(p);
    if (!path) throw new VfsError('EISDIR', path);
    const bytes = toBytes(data);
    await transact(path, async (entries, meta) => {
      const [current] = await Promise.all([entries.get(path), ensureDirs(entries, meta, path, false)]);
      if (current?.kind === 'dir') throw new VfsError(mode === 'create' ? 'EEXIST' : 'EISDIR', path);
      if (current && mode === 'create') throw new VfsError('EEXIST', path);
      let stored: Uint8Array;
      if (mode === 'append' && current?.data && current.data.byteLength > 0) {
        stored = new Uint8Array(current.data.byteLength + bytes.byteLength);
        stored.set(current.data, 0);
        stored.set(bytes, current.data.byteLength);
      } else {
        stored = ownBytes(bytes);
      }
      // Replacing a file gives it a new identity, as an atomic rename does on disk.
      const ino = mode === 'append' && current ? current.ino : await nextIno(meta);
      await entries.put({ path, parent: parentOf(path), kind: 'file', data: stored, size: stored.byteLength, mtimeMs: Date.now(), ino });
    });
    announce(path);
  };

  return {
    driver: 'indexeddb',
    exclusive: true,
    root: `indexeddb:${name}`,

    async stat(p) {
      const path = normalizeVfsPath(p);
      if (path === '') return { ...ROOT_STAT };
      const e = await lookup(path, (database) => database.get('entries', path));
      return e ? toStat(e) : null;
    },

    async read(p) {
      const path = normalizeVfsPath(p);
      if (path === '') throw new VfsError('EISDIR', path);
      const e = await lookup(path, (database) => database.get('entries', path));
      if (!e) throw await absentError(path);
      if (e.kind === 'dir') throw new VfsError('EISDIR', path);
      return e.data ?? EMPTY;
    },

    write: (p, data) => putFile(p, data, 'write'),
    create: (p, data) => putFile(p, data, 'create'),
    append: (p, data) => putFile(p, data, 'append'),

    async readdir(p) {
      const path = normalizeVfsPath(p);
      const [self, children] = await lookup(path, (database) => {
        const tx = database.transaction('entries', 'readonly');
        return Promise.all([path === '' ? undefined : tx.store.get(path), tx.store.index('parent').getAll(path)]);
      });
      if (path !== '') {
        if (!self) throw await absentError(path);
        if (self.kind !== 'dir') throw new VfsError('ENOTDIR', path);
      }
      const out: VfsDirent[] = children.map((e) => ({ name: baseName(e.path), kind: e.kind }));
      return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    },

    async remove(p, opts = {}) {
      const path = normalizeVfsPath(p);
      if (!path) throw new VfsError('EINVAL', path, 'Cannot remove the root');
      const removed = await transact(path, async (entries) => {
        const e = await entries.get(path);
        if (!e) return false;
        if (e.kind === 'dir') {
          const below = descendants(path);
          if (!opts.recursive) {
            if ((await entries.count(below)) > 0) throw new VfsError('ENOTEMPTY', path);
          } else {
            await entries.delete(below);
          }
        }
        await entries.delete(path);
        return true;
      });
      if (removed) announce(path);
      return removed;
    },

    async mkdir(p) {
      const path = normalizeVfsPath(p);
      if (path === '') return;
      await transact(path, (entries, meta) => ensureDirs(entries, meta, path, true).then(() => undefined));
    },

    onChange: (listener) => changes.on(listener),

    async reset() {
      await transact('', async (entries, meta) => {
        const [lastIno] = await Promise.all([meta.get('ino'), entries.clear()]);
        // Inode numbers keep growing across resets: a cache never mistakes a new file for an old one.
        writeSeed(entries, meta, typeof lastIno === 'number' ? lastIno : 0);
      });
      announce('');
    },

    async close() {
      if (closed) return;
      closed = true;
      channel?.close();
      const pending = dbPromise;
      dbPromise = undefined;
      if (pending) (await pending.catch(() => undefined))?.close();
    },
  };
}
