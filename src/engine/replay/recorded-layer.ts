/**
 * The recordings layer: answers a request from `<name>@recorded.json` in the mock folder
 * (recordings/recording-file.ts) with the recorded status, headers and body, before the files layer would
 * answer the plain file for it. Paths without a recording are not this layer's (PASS), so
 * hand-written mocks and plain recorded files without a recording (`users.json`) are served by
 * the files layer. A recorded path answers only what was recorded: another query,
 * method or body goes to the proxy, else a 404 naming what is recorded (miss.ts).
 *
 * It reads through the files layer's cache (files.mode(): the same lookups, change events and
 * TTLs), so a recording written during a session, or edited by hand, is served at once (on disk
 * within the lookup TTL). Fast path: the folder's variant index (the names with `@` files,
 * query-variant.ts) tells synchronously that a path has no recording; a cached recording answers
 * a GET/HEAD synchronously too. Writes read their body (to match it) on the promise path.
 * Order: after har, before streams and files: a recording answers before the plain file of its
 *   path.
 */
import { errorResponse } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import { joinSafe } from '../../vfs/path.js';
import type { RequestContext } from '../context.js';
import type { FileEntry } from '../file-cache/file-cache.js';
import { inFsDir, type FsEnv } from '../file-cache/fs-call.js';
import type { FilesLayer } from '../file-cache/files-layer.js';
import { canonicalQuery, VARIANT_MARK } from '../file-cache/query-variant.js';
import { PASS, type Layer } from '../pipeline/layer.js';
import { entryFor, pickEntry, type ReplayEntry } from '../recordings/entries.js';
import { noRecording } from './miss.js';
import { replayFor } from './origin-rewrite.js';
import { parseRecording, RECORDING_MARK, recordingLocation, type RecordingLocation } from '../recordings/recording-file.js';

export const RECORDED_LAYER = 'recorded';

interface Located extends RecordingLocation {
  /** Lookup-cache key of the recording (raw sub-path + a suffix no canonical query has). */
  key: string;
  /** The folder as a Vfs path (set on first use: fsDir is fixed for the layer). */
  vfsDir?: string;
}

const MAX_MEMO = 1000;

export interface RecordedLayerOptions {
  files: FilesLayer;
  /** Where a request without a recording goes (the proxy layer), else the 404 naming the recordings. */
  fallback: Layer | undefined;
  logger: Logger;
  bodyLimit: number;
}

export function createRecordedLayer(options: RecordedLayerOptions): Layer {
  const { files, fallback, logger, bodyLimit } = options;
  const located = new Map<string, Located | null>();
  const parsed = new WeakMap<FileEntry, ReplayEntry[] | Error>();
  // One folder listing in flight per folder: requests that arrive together wait for the same one,
  // so they reach the next layers in the order they came (concurrent writes keep their order).
  const listing = new Map<string, Promise<ReadonlySet<string>>>();

  function stemsOf(env: FsEnv, dir: string): ReadonlySet<string> | Promise<ReadonlySet<string>> {
    const known = env.cache.variantStemsNow(dir);
    if (known !== undefined) return known;
    let pending = listing.get(dir);
    if (pending === undefined) {
      pending = env.cache.variantStems(dir, VARIANT_MARK).finally(() => listing.delete(dir));
      listing.set(dir, pending);
    }
    return pending;
  }

  /** Where the sub-path's recording would be; null for a path the files layer refuses (400). */
  function locate(subPath: string): Located | null {
    let at = located.get(subPath);
    if (at !== undefined) return at;
    try {
      const loc = recordingLocation(subPath);
      at = { ...loc, key: `${subPath}?${RECORDING_MARK}` }; // `@` never occurs in a canonical query
    } catch {
      at = null;
    }
    if (located.size >= MAX_MEMO) located.clear();
    located.set(subPath, at);
    return at;
  }

  function entriesOf(entry: FileEntry, loc: Located): ReplayEntry[] | Error {
    let got = parsed.get(entry);
    if (got === undefined) {
      try {
        got = parseRecording(entry.bytes);
      } catch (err) {
        got = new Error(`${loc.file}: ${(err as Error).message}`);
        logger.warn(`recorded: ${got.message}`);
      }
      parsed.set(entry, got);
    }
    return got;
  }

  const queryOf = (ctx: RequestContext) => (ctx.search.length > 1 ? canonicalQuery(ctx.search) : '');

  function broken(ctx: RequestContext, err: Error): Response {
    ctx.answered(RECORDED_LAYER, 'invalid recording');
    return errorResponse(500, `Invalid recording ${err.message}`, ctx.pathname, { head: ctx.method === 'HEAD' });
  }

  function answered(ctx: RequestContext, loc: Located, e: ReplayEntry, bytes: Uint8Array): Response {
    ctx.answered(RECORDED_LAYER, loc.file);
    return replayFor(e, bytes, ctx.request, ctx.method === 'HEAD');
  }

  return {
    name: RECORDED_LAYER,
    peek(ctx) {
      const mode = files.mode();
      if (mode === undefined) return files.peek?.(ctx) === PASS ? PASS : undefined;
      const loc = locate(ctx.subPath);
      if (loc === null) return PASS;
      const env = mode.env;
      const stems = env.cache.variantStemsNow((loc.vfsDir ??= inFsDir(env, loc.dir)));
      if (stems === undefined) return undefined;
      if (!stems.has(loc.stem)) return PASS;
      const entry = env.cache.lookupEntryNow(loc.key);
      if (entry === undefined) return env.cache.lookupNow(loc.key, true) === null ? PASS : undefined;
      if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return undefined;
      const entries = entriesOf(entry, loc);
      if (entries instanceof Error) return undefined;
      const e = pickEntry(entries, ctx.method, queryOf(ctx), undefined, ctx.request);
      if (e === undefined) return undefined;
      if (e.answer instanceof Uint8Array) return answered(ctx, loc, e, e.answer);
      const file = env.cache.entryNow(inFsDir(env, joinSafe(loc.dir, e.answer.file)));
      return file === undefined ? undefined : answered(ctx, loc, e, file.bytes);
    },
    async handle(ctx) {
      if (files.mode() === undefined) await files.ready;
      const mode = files.mode();
      if (mode === undefined) return undefined;
      const loc = locate(ctx.subPath);
      if (loc === null) return undefined;
      const env: FsEnv = mode.env;
      const known = stemsOf(env, (loc.vfsDir ??= inFsDir(env, loc.dir)));
      const stems = known instanceof Promise ? await known : known;
      if (!stems.has(loc.stem)) return undefined;
      const entry = env.cache.lookupEntryNow(loc.key) ?? (await env.cache.lookupEntry(loc.key, { rel: loc.file, trailingSlash: false }, true));
      if (entry === null) return undefined;
      const entries = entriesOf(entry, loc);
      if (entries instanceof Error) return broken(ctx, entries);
      const e = await entryFor(entries, ctx, queryOf(ctx), bodyLimit);
      if (e === undefined) return noRecording(ctx, entries, RECORDED_LAYER, fallback);
      if (e.answer instanceof Uint8Array) return answered(ctx, loc, e, e.answer);
      const path = inFsDir(env, joinSafe(loc.dir, e.answer.file));
      const file = await env.cache.entry(path);
      if (file === null) {
        logger.warn(`recorded: ${loc.file} names ${e.answer.file}, which is not there`);
        return broken(ctx, new Error(`${loc.file}: its file ${e.answer.file} is missing`));
      }
      return answered(ctx, loc, e, file.bytes);
    },
  };
}
