/**
 * The files layer: file-system mode (fs-mode.ts) over one Vfs folder, as a pipeline layer.
 * Instantiable any number of times (each instance has its own caches and its own fsDir check),
 * e.g. a scenario's files over an overlay Vfs (src/vfs/overlay.ts) next to the base files.
 *
 * Start-up: the fsDir folder is checked once (`ready` resolves true when it is a folder); until
 * then `peek` cannot tell and `handle` waits for the check. A missing folder turns file routing
 * off with one warning (handlers still work): `handle` passes, and asks again (dir-probe.ts) so a
 * folder that appears later is served from the next request on; `peek` says PASS while the
 * folder is certainly still missing (no change event on an exclusive Vfs), else leaves the
 * request to `handle`.
 */
import { lookupTarget, type LookupTarget } from './lookup.js';
import type { Vfs } from '../../vfs/types.js';
import type { RequestContext } from '../context.js';
import { PASS, type Layer } from '../pipeline/layer.js';
import { notFound } from '../pipeline/not-found.js';
import type { FsServeOverrides } from '../services.js';
import { createFsDirProbe, type FsDirProbe } from './dir-probe.js';
import { createFsMode, type FsMode, type FsModeOptions } from './fs-mode.js';

/** Limits, logging, queue and query configuration, as file mode takes them. */
type FsModeSettings = Pick<FsModeOptions, 'bodyLimit' | 'inflate' | 'maxJsonDepth' | 'logger' | 'queue' | 'pagination' | 'filters' | 'passUnmockedWrites' | 'below' | 'onUnreadQuery'>;

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

export function createFilesLayer(options: FilesLayerOptions): FilesLayer {
  const name = options.name ?? 'files';
  const { vfs, fsDir, logger } = options;
  let mode: FsMode | undefined;
  let checked = false;

  let closed = false;
  const probe: FsDirProbe | undefined = fsDir === null || !vfs ? undefined : createFsDirProbe(vfs, fsDir);
  const start = (): FsMode =>
    (mode ??= createFsMode({ name, vfs: vfs!, fsDir: fsDir!, bodyLimit: options.bodyLimit, inflate: options.inflate, maxJsonDepth: options.maxJsonDepth, logger, queue: options.queue, pagination: options.pagination, filters: options.filters, passUnmockedWrites: options.passUnmockedWrites, below: options.below, onUnreadQuery: options.onUnreadQuery }));

  const ready: Promise<boolean> = (async () => {
    if (!probe) return false;
    if (!(await probe.exists())) {
      const problem = probe.problem() ?? 'does not exist';
      logger.warn(`fsDir "${options.fsDirLabel ?? fsDir}" ${problem} (${vfs!.driver}); file routing is off until ${problem === 'does not exist' ? 'it appears' : 'that changes'}, handlers still work`);
      return false;
    }
    start();
    return true;
  })().finally(() => {
    checked = true;
  });

  /** The file mode once fsDir exists; while it is missing, asks again (dir-probe.ts). */
  const current = async (): Promise<FsMode | undefined> => {
    if (!checked) await ready;
    if (mode === undefined && probe !== undefined && !closed && (await probe.exists()) && mode === undefined) {
      logger.info(`fsDir "${options.fsDirLabel ?? fsDir}" now exists; file routing is on`);
      start();
    }
    return mode;
  };

  return {
    name,
    ready,
    mode: () => mode,
    namesFileNow(key) {
      if (mode === undefined) return undefined;
      const path = mode.env.cache.lookupNow(key);
      return path === undefined ? undefined : path !== null;
    },
    async namesFile(key, target) {
      const files = await current();
      if (files === undefined) return false;
      target ??= lookupTarget(key);
      if (target === undefined) return false;
      return (await files.env.cache.lookup(key, target)) !== null;
    },
    peek(ctx) {
      if (mode !== undefined) return mode.serveCached(ctx);
      return checked && (probe === undefined || probe.knownMissing()) ? PASS : undefined;
    },
    async handle(ctx) {
      const files = await current();
      return files === undefined ? undefined : files.serve(ctx);
    },
    async serve(ctx, overrides) {
      const files = await current();
      if (files === undefined) return notFound(ctx);
      return (await files.serve(ctx, overrides)) ?? notFound(ctx);
    },
    async close() {
      closed = true;
      await ready.catch(() => false);
      probe?.close();
      mode?.close();
    },
  };
}
