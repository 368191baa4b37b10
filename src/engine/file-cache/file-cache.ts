/**
 * engine/file-cache/ — a SERVICE (the engine's services floor, ENGINE_FLOORS): what every user of
 * a mocks folder shares, so that no layer imports another. This file: the caches. Its rooms:
 * cache-states.ts (the states of a lookup and of an entry, and their moves), lookup.ts (request path → file), miss-watch.ts, folder-listings.ts and variant-listings.ts
 * (misses, `<path>.<ext>` candidates and query variants kept fresh), dir-probe.ts + fs-dir-check.ts (is fsDir a folder),
 * json-problem.ts (over-deep or malformed files; the layout writes keep: core/json-layout.ts), fs-call.ts (one call in file mode: the
 * env — cache, queue, limits — and the request's parameters), patch-batch.ts (the per-file write
 * queue: read-modify-write one at a time, `runExclusive`), patch-document.ts + merge-patch.ts,
 * the query over cached JSON arrays (filters.ts, pagination.ts, sort.ts, query.ts, scan.ts,
 * dot-path.ts, param-source.ts; their options in query-options.ts), query-variant.ts +
 * target-path.ts (file names of query variants and write targets), messages.ts (file mode's
 * texts), files-layer.ts (the files layer as others see it). Used by the files layer
 * (engine/files/), the store, collections, streams, replay, proxy, preset-hints, the OpenAPI
 * backend.
 *
 * The file-mode caches: lookup results (request path → file) and file contents (bytes, GET
 * headers, parsed JSON arrays, sorted views). Invalidated by `vfs.onChange`.
 *
 * On drivers that are not `exclusive` (disk), files also change behind the engine's back. There
 * a cached file is confirmed with one `stat` (size, mtime, inode) before use:
 *   - when the driver watches it (`vfs.watch`, one fs.watch per folder), the `stat` is taken
 *     only after the watcher reported a possible change, and at the latest WATCHED_RECHECK_MS
 *     after the previous one (a bound for reports that come late or never);
 *   - otherwise once per event-loop turn (shared by the requests of that turn).
 * Lookup results are re-resolved after LOOKUP_TTL_MS, so a new candidate file is found too.
 * The states of a lookup and of an entry, and every move between them: cache-states.ts (here
 * every change of them goes through `lookupOn` / `entryOn`).
 */
import type { FastHeaders } from '../../core/fast-response.js';
import { DEFAULT_MAX_JSON_DEPTH, textExceedsDepth } from '../../core/json-depth.js';
import { contentTypeFor, isJsonPath } from '../../core/media-type.js';
import type { Vfs, VfsStat } from '../../vfs/types.js';
import { detectLayout, serializeJson, type JsonLayout } from '../../core/json-layout.js';
import { entryMove, lookupMove, type EntryEvent, type EntryState, type LookupEvent, type LookupState } from './cache-states.js';
import type { JsonProblem } from './json-problem.js';
import { lookupFile, type LookupTarget } from './lookup.js';
import { FolderListings } from './folder-listings.js';
import { MissWatches } from './miss-watch.js';
import { VariantListings } from './variant-listings.js';

/** How long a lookup result is trusted on a non-exclusive driver before it is resolved again. */
export const LOOKUP_TTL_MS = 1000;
const MAX_LOOKUPS = 10_000;
/**
 * How long a watched file is trusted without a `stat`. Watch reports normally arrive before the
 * next request (the kernel queues them when the file changes); this bounds a report that is
 * late (macOS coalesces) or lost (network filesystems).
 */
export const WATCHED_RECHECK_MS = 100;
/** Files larger than this are served but not kept. */
const MAX_CACHED_FILE = 64 * 1024 * 1024;
/** Budget for all cached bytes (parsed values are not counted precisely; bytes are a proxy). */
const MAX_CACHED_BYTES = 256 * 1024 * 1024;

export interface FileEntry {
  /** Vfs path. */
  readonly path: string;
  readonly stat: VfsStat;
  readonly bytes: Uint8Array;
  readonly contentType: string;
  /** `.json` file. */
  readonly isJson: boolean;
  /** The parsed array when the file is a JSON array (shared: never mutate). */
  readonly array: unknown[] | undefined;
  /** A `.json` file that cannot be used as JSON (served as stored, never queried or patched). */
  readonly problem?: JsonProblem;
  /** X-Total-Count of a plain GET: array length, 1 for other JSON (unless `countObjects` is off), undefined for non-JSON. */
  readonly count: number | undefined;
  /** GET headers (Content-Type, Content-Length, X-Total-Count). Shared: never mutate. */
  readonly headers: FastHeaders;
  /**
   * The body as answered: a small UTF-8 text file as a string (node:http then writes its head
   * and body in one string write instead of a two-buffer writev), else `bytes`.
   */
  readonly wire?: string | Uint8Array;
  /** Event-loop turn in which `stat` last confirmed this entry (non-exclusive drivers). */
  checkedTurn?: number;
  /** Watched entries: `performance.now()` until which no `stat` is needed (0 after a report). */
  trustedUntil?: number;
  /** Bytes counted against the cache budget (entries whose bytes are built on demand). */
  readonly weight?: number;
}

/**
 * An entry stored from a parsed value (`FileCache.writeValue`): the bytes (and the headers that
 * carry their length) are serialised on first use only — a collection item PATCH never pays for
 * the text of the whole collection unless someone reads it.
 */
class ValueEntry implements FileEntry {
  readonly isJson = true;
  readonly array: unknown[] | undefined;
  readonly count: number | undefined;
  readonly weight: number;
  private text: Uint8Array | undefined;
  private head: FastHeaders | undefined;
  sorted?: Map<string, Uint32Array>;
  matches?: Map<string, Uint32Array>;
  seenQueries?: Set<string>;
  checkedTurn?: number;
  trustedUntil?: number;
  constructor(
    readonly path: string,
    readonly stat: VfsStat,
    readonly contentType: string,
    private readonly value: unknown,
    readonly layout: JsonLayout,
    weight: number,
    countObjects: boolean,
  ) {
    this.array = Array.isArray(value) ? value : undefined;
    this.count = this.array ? this.array.length : countObjects ? 1 : undefined;
    this.weight = weight;
  }
  get bytes(): Uint8Array {
    return (this.text ??= serializeJson(this.value, this.layout));
  }
  get headers(): FastHeaders {
    return (this.head ??= getHeaders(this.contentType, this.bytes, this.count));
  }
}

/** An entry's GET headers; frozen: shared by every answer of the entry (and lets CORS merges be memoised). */
function getHeaders(contentType: string, bytes: Uint8Array, count: number | undefined): FastHeaders {
  const headers: FastHeaders = { 'Content-Type': contentType, 'Content-Length': String(bytes.byteLength) };
  if (count !== undefined) headers['X-Total-Count'] = String(count);
  return Object.freeze(headers);
}

/** The layout a JSON entry's file is written with (kept on rewrites: core/json-layout.ts). */
export function entryLayout(e: FileEntry): JsonLayout {
  return e instanceof ValueEntry ? e.layout : detectLayout(e.bytes);
}

/** Bytes an entry counts for in the cache budget. */
function weightOf(e: FileEntry): number {
  return e.weight ?? e.bytes.byteLength;
}

/** Runs `fn` once the current event-loop turn is over (setImmediate in Node). */
const afterTurn: (fn: () => void) => void =
  typeof (globalThis as { setImmediate?: unknown }).setImmediate === 'function'
    ? (fn) => { (globalThis as unknown as { setImmediate(f: () => void): unknown }).setImmediate(fn); }
    : (fn) => { setTimeout(fn, 0); };

interface LookupHit {
  path: string | null;
  at: number;
  /** A miss on a non-exclusive driver, vouched for by a folder watch (miss-watch.ts) until a report or WATCHED_RECHECK_MS. */
  watched?: boolean;
}

const decoder = new TextDecoder();

/**
 * A cache layered over another one (a session's files over the base's, src/engine/sessions/):
 * the files the layer above does not hold or hide are the ones below, so their entries (bytes,
 * parsed arrays, indexes) are asked of the cache below and shared, not loaded again. The layer
 * above is in memory and changes only through this cache, so its own entries need no `stat`.
 */
export interface SharedBelow {
  /** The cache below (undefined while it is not started: then files are loaded here). */
  cache(): FileCache | undefined;
  /** Whether the layer above holds or hides `path` (a Vfs path): then this cache answers for it. */
  owns(path: string): boolean;
}

/**
 * `known`: the parsed value of `bytes` when the caller has it (never mutated afterwards).
 * `maxDepth`: JSON nested deeper is not parsed (core/json-depth.ts), like malformed JSON.
 */
export function buildEntry(path: string, stat: VfsStat, bytes: Uint8Array, known?: { value: unknown }, maxDepth = DEFAULT_MAX_JSON_DEPTH, countObjects = true): FileEntry {
  const isJson = isJsonPath(path);
  let array: unknown[] | undefined;
  let count: number | undefined;
  let problem: JsonProblem | undefined;
  if (isJson && !known && textExceedsDepth(bytes, maxDepth)) {
    problem = 'too-deep';
  } else if (isJson) {
    // Parsed once per load (then cached): arrays feed queries, and only valid JSON gets a count.
    try {
      const v: unknown = known ? known.value : JSON.parse(decoder.decode(bytes));
      if (Array.isArray(v)) {
        array = v;
        count = v.length;
      } else if (countObjects) count = 1;
    } catch {
      // Malformed JSON on disk: served as stored, without a count.
      problem = 'malformed';
    }
  }
  const contentType = contentTypeFor(path);
  const entry: FileEntry = { path, stat, bytes, contentType, isJson, array, count, headers: getHeaders(contentType, bytes, count), wire: wireBody(bytes) };
  return problem === undefined ? entry : { ...entry, problem };
}

/** Small files go out as text when their bytes are exactly UTF-8 (a BOM kept as U+FEFF). */
const WIRE_TEXT_MAX = 2048;
const exactUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function wireBody(bytes: Uint8Array): string | Uint8Array {
  if (bytes.byteLength > WIRE_TEXT_MAX) return bytes;
  try {
    return exactUtf8.decode(bytes);
  } catch {
    return bytes; // not UTF-8 (an image, a font): bytes as stored
  }
}

function sameStat(a: VfsStat, b: VfsStat): boolean {
  return a.size === b.size && a.mtimeMs === b.mtimeMs && a.ino === b.ino && b.kind === 'file';
}

/**
 * One vocabulary: a *lookup* is which file a request path names (request key → Vfs path, or null
 * for none); an *entry* is a file's content. Each question has an async form that always
 * answers (`lookup`, `entry`, `lookupEntry` = both, `variantStems`) and a synchronous `…Now`
 * form (`lookupNow`, `entryNow`, `lookupEntryNow`, `variantStemsNow`) that answers from the
 * caches or says `undefined` when only the async form can tell (the engine's fast path).
 */
export class FileCache {
  private readonly lookups = new Map<string, LookupHit>();
  private readonly files = new Map<string, FileEntry>();
  private readonly loading = new Map<string, Promise<FileEntry | null>>();
  /** Paths being replaced in place by `write(…, existing)`. */
  private readonly overwriting = new Set<string>();
  private cachedBytes = 0;
  private readonly maxCachedBytes: number;
  /** Bumped on every change under fsDir: a write's entry is stored only when nothing changed meanwhile. */
  private generation = 0;
  /** `writeValue` calls on their way: the changes reported for each one's path meanwhile. */
  private readonly valueWrites = new Set<{ readonly path: string; reports: number }>();
  /**
   * Bumped on the changes that may move lookup results (not on a file overwritten in place):
   * lookups that started earlier are not remembered. A steady stream of writes to one file thus
   * never keeps other paths from being remembered.
   */
  private lookupGeneration = 0;
  /** Per folder: the names with query variants (variantStems; variant-listings.ts). */
  private readonly variantDirs: VariantListings;
  private readonly exclusive: boolean;
  private readonly unsubscribe: () => void;
  /** Current event-loop turn (non-exclusive drivers): one `stat` per file per turn. */
  private turn = 0;
  private turnScheduled = false;
  /** Files the driver watches for us (`vfs.watch`), with the function that stops each watch. */
  private readonly watches = new Map<string, () => void>();
  /** Folder watches vouching for remembered misses (non-exclusive drivers with `watchFolder`). */
  private readonly misses: MissWatches;
  /** Kept folder listings for lookup step 4 (non-exclusive drivers with `watchFolder`; folder-listings.ts). */
  private readonly listings: FolderListings | undefined;
  /** Bumped by every watch report: a check or load that saw it change may not grant trust. */
  private reports = 0;
  private readonly below: SharedBelow | undefined;
  /** Told of every change the Vfs reports, after the cache dropped what it made stale (`onChange`). */
  private readonly followers = new Set<(path: string) => void>();

  /** The cache below that answers for `path` (a path this layer does not own), or undefined. */
  private shared(path: string): FileCache | undefined {
    const below = this.below;
    return below === undefined || below.owns(path) ? undefined : below.cache();
  }

  /** Whether an own entry may be used without a `stat` (exclusive drivers; the memory layer above a shared cache). */
  private ownTrusted(e: FileEntry, now?: number): boolean {
    return this.exclusive || this.below !== undefined || this.fresh(e, now);
  }

  constructor(
    private readonly vfs: Vfs,
    private readonly fsDir: string,
    private readonly json: {
      /** Deepest JSON nesting parsed (files nested deeper are served, not parsed). */
      maxDepth?: number;
      /** Told when a `.json` file entering the cache cannot be used as JSON (json-problem.ts). */
      onProblem?: (path: string, stat: VfsStat, bytes: Uint8Array, problem: JsonProblem) => void;
      /** A layer below whose entries are shared for the paths this one does not own. */
      below?: SharedBelow;
      /**
       * `X-Total-Count: 1` on a JSON file that is not an array (the spec's file-mode header; default
       * true). Off under json-server's preset: 0.17 sends none on a singular such as `/profile`.
       */
      countObjects?: boolean;
      /** The byte budget of all cached files (MAX_CACHED_BYTES; tests make it small to see eviction). */
      maxCachedBytes?: number;
    } = {},
  ) {
    this.exclusive = vfs.exclusive;
    this.maxCachedBytes = json.maxCachedBytes ?? MAX_CACHED_BYTES;
    this.below = json.below;
    this.variantDirs = new VariantListings(vfs.exclusive ? undefined : LOOKUP_TTL_MS);
    this.unsubscribe = vfs.onChange((p) => {
      this.invalidate(p);
      for (const f of this.followers) f(p);
    });
    this.listings = vfs.exclusive || vfs.watchFolder === undefined ? undefined : new FolderListings(vfs, WATCHED_RECHECK_MS);
    this.misses = new MissWatches(vfs, fsDir, (key) => {
      if (this.lookupState(key) === 'watchedMiss') this.lookupOn(key, 'folderReported');
    });
  }

  /**
   * Whether a remembered lookup may be used without looking again: always on exclusive drivers;
   * a miss vouched for by a folder watch for WATCHED_RECHECK_MS; a found file for the lookup TTL,
   * and a plain miss too when the caller accepts that (`trustMisses`: query variants).
   */
  private trusted(hit: LookupHit, trustMisses = false, now?: number): boolean {
    if (this.exclusive) return true; // before reading the clock: lookupNow is on the hot path
    const at = now ?? performance.now();
    if (hit.watched === true) return at - hit.at < WATCHED_RECHECK_MS;
    return (hit.path !== null || trustMisses) && at - hit.at < LOOKUP_TTL_MS;
  }

  /** Drops every remembered lookup: the move `cleared` for every key at once (unknown from every state). */
  private clearLookups(): void {
    this.lookups.clear();
    this.misses.clearKeys();
  }

  /** The state of the lookup of request path `key` (cache-states.ts). */
  lookupState(key: string): LookupState {
    const hit = this.lookups.get(key);
    return hit === undefined ? 'unknown' : hit.path !== null ? 'found' : hit.watched === true ? 'watchedMiss' : 'missing';
  }

  /** The one way a lookup's state changes (one key): the table's move for `event`; `hit` is what `found`/`missing`/`watchedMiss` remember. */
  private lookupOn(key: string, event: LookupEvent, hit?: LookupHit): void {
    const to = lookupMove(this.lookupState(key), event);
    if (to === 'unknown') this.lookups.delete(key);
    else if (hit !== undefined) this.lookups.set(key, hit);
  }

  /** The state of the entry of `path` (a Vfs path) in the cache that answers for it (cache-states.ts). */
  entryState(path: string): EntryState {
    const below = this.shared(path);
    return below !== undefined ? below.entryState(path) : this.ownEntryState(path);
  }

  private ownEntryState(path: string): EntryState {
    const e = this.files.get(path);
    if (e !== undefined) return this.ownTrusted(e) ? 'fresh' : 'unconfirmed';
    return this.loading.has(path) ? 'loading' : 'unknown';
  }

  /**
   * The one way an own entry's state changes: the table's move for `event`, then what entering
   * the state takes. unknown: what is held and the load registered are dropped; loading (from
   * another state): a load starts; fresh: `entry` (a load's or a write's) is kept in place of what was held, and marked
   * checked (`reports`: see `confirmed`); unconfirmed: the next read takes a `stat`.
   */
  private entryOn(path: string, event: EntryEvent, entry?: FileEntry, reports = this.reports): void {
    const from = this.ownEntryState(path);
    const to = entryMove(from, event);
    if (to === 'unknown') {
      this.drop(path);
    } else if (to === 'loading') {
      if (from !== 'loading') this.startLoad(path); // a report while loading: the load goes on
    } else if (to === 'fresh') {
      if (entry !== undefined) {
        this.drop(path);
        this.files.set(path, entry);
        this.cachedBytes += weightOf(entry);
      }
      if (!this.exclusive) this.confirmed(this.files.get(path)!, reports);
    } else {
      const e = this.files.get(path)!;
      e.trustedUntil = 0;
      e.checkedTurn = -1;
    }
  }

  /**
   * Calls `listener` with each path the Vfs reports changed, once the cache has dropped what it
   * made stale, until the returned stop function is called or the cache closes (its users' own
   * memos — folder listings — go with the engine that made them).
   */
  onChange(listener: (path: string) => void): () => void {
    const own = (path: string) => listener(path);
    this.followers.add(own);
    return () => this.followers.delete(own);
  }

  close(): void {
    this.unsubscribe();
    this.followers.clear();
    this.misses.close();
    this.listings?.close();
    for (const stop of this.watches.values()) stop();
    this.watches.clear();
    this.lookups.clear();
    this.variantDirs.clear();
    this.files.clear();
  }

  /**
   * Asks the driver to report outside changes to `path` (once per path; non-exclusive drivers
   * with `watch`). Called before the file is read, so no change after the read goes unreported.
   */
  private watchFile(path: string): void {
    if (this.exclusive || this.vfs.watch === undefined || this.watches.has(path)) return;
    let stop: (() => void) | null;
    try {
      stop = this.vfs.watch(path, (ended) => this.reported(path, ended));
    } catch {
      stop = null;
    }
    if (stop) this.watches.set(path, stop);
  }

  /** A watch report: the entry must be confirmed with `stat` before its next use. */
  private reported(path: string, ended: boolean): void {
    this.reports++;
    if (ended) this.watches.delete(path);
    this.entryOn(path, 'reported');
  }

  /** Whether a cached entry may be used without a `stat` at `now` (non-exclusive drivers). */
  private fresh(e: FileEntry, now = performance.now()): boolean {
    return e.checkedTurn === this.turn || (e.trustedUntil !== undefined && e.trustedUntil > now);
  }

  /** Drops what a change at `path` may affect. */
  invalidate(path: string): void {
    const dir = this.fsDir;
    // Changes outside the mocks folder (e.g. a collector sharing the Vfs) do not concern us.
    if (dir && path && path !== dir && !path.startsWith(`${dir}/`) && !dir.startsWith(`${path}/`)) return;
    this.generation++;
    for (const w of this.valueWrites) if (path === '' || w.path === path || w.path.startsWith(`${path}/`)) w.reports++;
    this.listings?.changed(path);
    if (!this.overwriting.has(path)) {
      this.lookupGeneration++;
      this.clearLookups();
      this.variantDirs.changed(path);
    }
    if (path === '' || (dir && dir.startsWith(`${path}/`))) {
      // `changed` for every entry at once (unknown from every state).
      this.files.clear();
      this.loading.clear();
      this.cachedBytes = 0;
      return;
    }
    this.entryOn(path, 'changed');
    const under = `${path}/`;
    for (const key of this.files.keys()) if (key.startsWith(under)) this.entryOn(key, 'changed');
    for (const key of this.loading.keys()) if (key.startsWith(under)) this.entryOn(key, 'changed');
  }

  /** Entering unknown: what is held and the load registered for `path` go (only `entryOn` calls it). */
  private drop(path: string): void {
    // A load that started before a change must not serve later requests.
    this.loading.delete(path);
    const e = this.files.get(path);
    if (e) {
      this.files.delete(path);
      this.cachedBytes -= weightOf(e);
    }
  }

  /**
   * The cached entry for a request path when both the lookup and the content are cached and
   * trusted; `undefined` when only `lookupEntry` can tell.
   */
  lookupEntryNow(key: string): FileEntry | undefined {
    const hit = this.lookups.get(key);
    if (hit === undefined || hit.path === null) return undefined;
    const below = this.shared(hit.path);
    if (below !== undefined) return this.trusted(hit) ? below.entryNow(hit.path) : undefined;
    const e = this.files.get(hit.path);
    if (e === undefined || this.exclusive) return e;
    // Non-exclusive: only while the lookup is trusted and the content needs no `stat`.
    const now = performance.now();
    return this.trusted(hit, false, now) && this.ownTrusted(e, now) ? e : undefined;
  }

  /** The cached content of the file at `path` (a Vfs path) when it needs no `stat`; `undefined` when only `entry` can tell. */
  entryNow(path: string): FileEntry | undefined {
    const below = this.shared(path);
    if (below !== undefined) return below.entryNow(path);
    const e = this.files.get(path);
    return e === undefined || this.ownTrusted(e) ? e : undefined;
  }

  /**
   * The Vfs path a request path resolves to (string), no file (null: a remembered miss — on
   * exclusive drivers, where change events are complete, vouched for by a folder watch, or with
   * `trustMisses` within the lookup TTL), or `undefined` when only `lookup` can tell.
   */
  lookupNow(key: string, trustMisses = false): string | null | undefined {
    const hit = this.lookups.get(key);
    return hit !== undefined && this.trusted(hit, trustMisses) ? hit.path : undefined;
  }

  /**
   * Stores a parsed JSON value as the new content of `path` (an existing or new `.json` file).
   * On drivers with `writeJson` (json-db) the value goes down as is and the cached entry builds
   * its bytes only when read; elsewhere it is serialised (in `layout`) and written as bytes.
   * The value must never be mutated afterwards.
   */
  async writeValue(path: string, value: unknown, layout: JsonLayout, existing = false): Promise<void> {
    if (this.vfs.writeJson === undefined || !(this.exclusive || this.below !== undefined)) {
      await this.write(path, serializeJson(value, layout), existing, { value });
      return;
    }
    // A rough weight (the text is not built): what the entry it replaces weighed.
    const before = this.files.get(path);
    const weight = before ? weightOf(before) : 0;
    if (existing) this.overwriting.add(path);
    const watch = { path, reports: 0 };
    this.valueWrites.add(watch);
    try {
      await this.vfs.writeJson(path, value);
    } finally {
      if (existing) this.overwriting.delete(path);
      this.valueWrites.delete(watch);
    }
    // The driver reports its own write once (synchronously: json-db, delta, overlay). Any other
    // report for the path while the call ran (an outside edit of db.json, another writer) may
    // have replaced the value: then keep nothing, and the next read loads what the Vfs holds.
    if (watch.reports !== 1) {
      this.entryOn(path, 'changed');
      return;
    }
    this.entryOn(path, 'written', new ValueEntry(path, { kind: 'file', size: -1, mtimeMs: 0 }, contentTypeFor(path), value, layout, weight, this.json.countObjects !== false));
  }

  /**
   * Synchronously: the names in folder `dir` (a Vfs path) that have query variants (`users` for
   * `users@a=1.json`, query-variant.ts), or undefined when not known (or expired on disk).
   */
  variantStemsNow(dir: string): ReadonlySet<string> | undefined {
    return this.variantDirs.now(dir);
  }

  /** The names in `dir` with query variants: one readdir, kept until a change can alter them (on disk at most for the TTL). */
  async variantStems(dir: string, mark: string): Promise<ReadonlySet<string>> {
    return (
      this.variantDirs.now(dir) ??
      this.variantDirs.read(dir, mark, async () => {
        try {
          return (await this.vfs.readdir(dir)).filter((e) => e.kind === 'file').map((e) => e.name);
        } catch {
          return []; // no such folder: no variants
        }
      })
    );
  }

  /**
   * The Vfs path a request path resolves to, or null. `key` identifies the request path (raw
   * sub-path); `target.rel`/`target.trailingSlash` are its safe decoded form, read only on a miss.
   */
  async lookup(key: string, target: LookupTarget, trustMisses = false): Promise<string | null> {
    const hit = this.lookups.get(key);
    if (hit !== undefined && this.trusted(hit, trustMisses)) return hit.path;
    const gen = this.lookupGeneration;
    // Watched before the lookup, so that no change after it goes unreported (miss-watch.ts).
    const watchedDir = this.exclusive || trustMisses ? undefined : await this.misses.watchBefore(target.rel, target.trailingSlash);
    const reports = this.misses.reports;
    const seen = { folder: false };
    const path = await lookupFile(this.vfs, this.fsDir, target.rel, target.trailingSlash, seen, this.listings);
    // Misses are remembered where change events are complete, while a folder watch vouches for
    // them (not for a path that is a folder: miss-watch.ts), or for the lookup TTL when the
    // caller accepts that (query variants: a file that appears is found within the TTL).
    const watched = path === null && !this.exclusive && !trustMisses;
    let keep = gen === this.lookupGeneration && (!watched || (watchedDir !== undefined && !seen.folder && reports === this.misses.reports));
    if (keep) {
      if (this.lookups.size >= MAX_LOOKUPS) this.clearLookups();
      if (watched) keep = this.misses.keep(watchedDir!, key); // false: the watch ended meanwhile
      if (keep) this.lookupOn(key, path !== null ? 'resolved' : watched ? 'missedWatched' : 'missed', watched ? { path, at: performance.now(), watched } : { path, at: performance.now() });
    }
    if (watchedDir !== undefined) this.misses.release(watchedDir); // no-op while a kept miss needs it
    return path;
  }

  /**
   * Removes the file at `path` through the Vfs (false: nothing was there) and stops watching it:
   * a folder where items come and go (POST, DELETE) does not pile up a watch per name it ever
   * held. A file made there again is found by a lookup and watched when it is read or written.
   */
  async remove(path: string): Promise<boolean> {
    const removed = await this.vfs.remove(path);
    const stop = this.watches.get(path);
    if (removed && stop !== undefined) {
      this.watches.delete(path);
      stop();
    }
    return removed;
  }

  /**
   * Writes through the Vfs (atomic) and keeps the new bytes as the cached content, so the next
   * read does not go back to the filesystem. On a non-exclusive driver the entry carries the
   * file's real stat (one `stat` after the write); if the size does not match what we wrote
   * (someone else wrote in between), nothing is cached and the next use reloads. `known` is the
   * parsed value of `bytes` when the caller has it (it must not be mutated afterwards).
   */
  async write(path: string, bytes: Uint8Array, existing = false, known?: { value: unknown }): Promise<void> {
    // Replacing a file that exists changes no lookup result: keep the lookup cache.
    if (existing) this.overwriting.add(path);
    try {
      await this.vfs.write(path, bytes);
    } finally {
      if (existing) this.overwriting.delete(path);
    }
    // After the write, so a file in a folder the write created is watched too; the `stat` below
    // comes after it, so nothing between the two goes unseen.
    this.watchFile(path);
    const gen = this.generation;
    const reports = this.reports;
    const stat = this.exclusive ? { kind: 'file' as const, size: bytes.byteLength, mtimeMs: 0 } : await this.vfs.stat(path);
    if (stat === null || stat.kind !== 'file' || stat.size !== bytes.byteLength || gen !== this.generation) return;
    this.store(buildEntry(path, stat, bytes, known, this.json.maxDepth, this.json.countObjects), 'written', reports);
  }

  /**
   * The file a request path resolves to, with its content, or null. A cached lookup whose file
   * has gone (deleted behind our back on disk) is resolved again once, so the next candidate
   * (`users.xml` after `users.json` was removed) is found at once.
   */
  async lookupEntry(key: string, target: LookupTarget, trustMisses = false): Promise<FileEntry | null> {
    const path = await this.lookup(key, target, trustMisses);
    if (path === null) return null;
    const entry = await this.entry(path);
    if (entry !== null) return entry;
    this.lookupOn(key, 'fileGone');
    const again = await this.lookup(key, target, trustMisses);
    return again === null ? null : this.entry(again);
  }

  /** The current content of the file at `path` (a Vfs path), or null when it is not a file. */
  async entry(path: string): Promise<FileEntry | null> {
    const below = this.shared(path);
    if (below !== undefined) return below.entry(path);
    const cached = this.files.get(path);
    if (cached !== undefined) {
      if (this.ownTrusted(cached)) return cached;
      const reports = this.reports;
      const s = await this.vfs.stat(path);
      if (s !== null && sameStat(cached.stat, s)) {
        // (A change meanwhile replaced it: the answer is still what this read found.)
        if (this.files.get(path) === cached) this.entryOn(path, 'confirmed', undefined, reports);
        return cached;
      }
      // Whatever a concurrent read holds or loads now may predate the change too: dropped.
      this.entryOn(path, 'stale');
      if (s === null || s.kind !== 'file') return null;
    }
    const pending = this.loading.get(path);
    if (pending) return pending;
    this.entryOn(path, 'read');
    return this.loading.get(path)!;
  }

  /**
   * Entering loading. The entry is kept only while it is still this path's load: a change to
   * the path (or a folder above it) drops the registration (`changed`), so a load that started
   * before the change never serves later requests, while changes to other files do not void it.
   */
  private startLoad(path: string): void {
    const load: Promise<FileEntry | null> = this.load(path, () => this.loading.get(path) === load).finally(() => {
      if (this.loading.get(path) === load) this.entryOn(path, 'loadEnded');
    });
    this.loading.set(path, load);
  }

  /**
   * Marks an entry as checked in this turn: requests handled in the same event-loop turn share
   * one `stat` (a file changed behind our back is seen from the next turn on). A watched entry
   * is also trusted for WATCHED_RECHECK_MS, unless a watch report came in since `reports` was
   * read (the check may predate the change it reported).
   */
  private confirmed(entry: FileEntry, reports: number): void {
    entry.checkedTurn = this.turn;
    entry.trustedUntil = reports === this.reports && this.watches.has(entry.path) ? performance.now() + WATCHED_RECHECK_MS : 0;
    if (this.turnScheduled) return;
    this.turnScheduled = true;
    afterTurn(() => {
      this.turn++;
      this.turnScheduled = false;
    });
  }

  private async load(path: string, current: () => boolean): Promise<FileEntry | null> {
    this.watchFile(path);
    const reports = this.reports;
    const stat = await this.vfs.stat(path);
    if (stat === null || stat.kind !== 'file') return null;
    let bytes: Uint8Array;
    try {
      bytes = await this.vfs.read(path);
    } catch (err) {
      // Gone (or its folder replaced by a file) between the stat and the read.
      const code = (err as { code?: string }).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return null;
      throw err;
    }
    // The stat taken before the read: if the file changed during the read, the next use sees
    // a different stat and reloads.
    const entry = buildEntry(path, stat, bytes, undefined, this.json.maxDepth, this.json.countObjects);
    if (entry.problem !== undefined) this.json.onProblem?.(path, stat, bytes, entry.problem);
    if (current()) this.store(entry, 'loaded', reports);
    return entry;
  }

  /**
   * Keeps `entry` as the content of its path (replacing what was there: `loaded` or `written`),
   * within the byte budget; files over MAX_CACHED_FILE are not kept. `reports`: the watch-report
   * count read before the entry's `stat` (see `confirmed`).
   */
  private store(entry: FileEntry, event: 'loaded' | 'written', reports: number): void {
    if (entry.bytes.byteLength > MAX_CACHED_FILE) return;
    this.entryOn(entry.path, event, entry, reports);
    if (this.cachedBytes > this.maxCachedBytes) this.evict();
  }

  private evict(): void {
    // Oldest first (Map keeps insertion order).
    for (const key of this.files.keys()) {
      if (this.cachedBytes <= this.maxCachedBytes / 2) break;
      this.entryOn(key, 'evicted');
    }
  }
}
