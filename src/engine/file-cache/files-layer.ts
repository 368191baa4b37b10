/**
 * The files layer (engine/files/) as the services and the other layers see it: what they may ask of
 * a folder served in file mode (its readiness, its caches and write queue through `mode().env`,
 * whether a path names a file, serving with a handler's overrides), and what makes one
 * (`FilesFactory`: the assembly, layers.ts, hands `createFilesLayer` to whoever needs a folder of
 * its own, the OpenAPI backend's state folder). Declared here, on the services floor, so that the
 * store and the layers built on files import no layer.
 */
import type { BoundedSyncInflate } from '../../core/inflate-bounded.js';
import type { KeyedQueue } from '../../core/keyed-queue.js';
import type { Logger } from '../../core/logger.js';
import type { Vfs } from '../../vfs/types.js';
import type { RequestContext } from '../context.js';
import type { Layer, PASS } from '../pipeline/layer.js';
import type { FsServeOverrides } from '../services.js';
import type { FilterConfig, PaginationConfig, PerMethod } from '../types.js';
import type { SharedBelow } from './file-cache.js';
import type { FsEnv } from './fs-call.js';
import type { LookupTarget } from './lookup.js';

export interface FsModeOptions {
  /** The layer name answers are recorded under (`ctx.answered`; default `files`). */
  name?: string;
  vfs: Vfs;
  fsDir: string;
  bodyLimit: number;
  /** The runtime's native inflate for compressed request bodies (runtime.ts). */
  inflate?: BoundedSyncInflate;
  maxJsonDepth: number;
  logger: Logger;
  queue: KeyedQueue;
  pagination: PerMethod<PaginationConfig> | null;
  filters: PerMethod<FilterConfig> | null;
  /** A proxy answers after file mode: writes naming nothing the mocks hold pass (files/unmocked-write.ts). */
  passUnmockedWrites?: boolean;
  /** A cache below whose entries are shared (a session's files over the base's, file-cache.ts). */
  below?: SharedBelow;
  /** GET query parameters no option reads (preset-hints/layer.ts). */
  onUnreadQuery?: FsEnv['onUnreadQuery'];
  /** `X-Total-Count: 1` on a JSON object file (default true; off under json-server's preset, file-cache.ts). */
  countObjects?: boolean;
}

export interface FsMode {
  serve(ctx: RequestContext, overrides?: FsServeOverrides): Promise<Response | undefined>;
  /**
   * Synchronous answer of a GET/HEAD whose file is cached and fresh (the hot path); PASS when
   * the path is known to name no file (`serve` would answer undefined); `undefined` when `serve`
   * must run. Never throws.
   */
  serveCached(ctx: RequestContext): Response | typeof PASS | undefined;
  /** Filesystem, caches and write queue, shared with the collections layer. */
  readonly env: FsEnv;
  close(): void;
}

/** Limits, logging, queue and query configuration, as file mode takes them. */
type FsModeSettings = Pick<FsModeOptions, 'bodyLimit' | 'inflate' | 'maxJsonDepth' | 'logger' | 'queue' | 'pagination' | 'filters' | 'passUnmockedWrites' | 'below' | 'onUnreadQuery' | 'countObjects'>;

export interface FilesLayerOptions extends FsModeSettings {
  /** Layer name (observers see it): `files` by default. */
  name?: string;
  /** The filesystem, or null (file routing off). */
  vfs: Vfs | null;
  /** The mocks folder inside `vfs` (`''` = its root), or null (file routing off). */
  fsDir: string | null;
  /** How the folder is named in the warning when it is missing (the option as given). */
  fsDirLabel?: string;
}

export interface FilesLayer extends Layer {
  /** Resolves once the fsDir check is done: true when file routing is on. */
  readonly ready: Promise<boolean>;
  /**
   * Serves from file mode with per-call overrides (a handler with `handle: 'FS'`), WITHOUT the
   * global delay (the caller applies its own); the JSON 404 when file routing is off or nothing
   * matches.
   */
  serve(ctx: RequestContext, overrides?: FsServeOverrides): Promise<Response>;
  /** File mode once the fsDir check passed (its caches, for the collection store built on files). */
  mode(): FsMode | undefined;
  /**
   * Whether the request path `key` (raw, below the prefix) names a file, which this layer then
   * answers (a layer below it, such as collections, takes only the paths that name none):
   * undefined when that cannot be told at once (file routing not on yet, or not cached).
   */
  namesFileNow(key: string): boolean | undefined;
  /** As `namesFileNow`, looked up when needed (`target`: the path's safe form, when the caller has it). */
  namesFile(key: string, target?: LookupTarget): Promise<boolean>;
}

/** Makes a files layer over a folder (engine/files/layer.ts `createFilesLayer`). */
export type FilesFactory = (options: FilesLayerOptions) => FilesLayer;
