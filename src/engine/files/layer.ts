/**
 * The files layer (engine/files/, a LAYER): answers GET/HEAD/POST/PUT/PATCH/DELETE under the
 * prefix from the mocks folder — file-system mode (fs-mode.ts → read.ts, create.ts, replace.ts,
 * update.ts, remove.ts) over the file cache and per-file queue (engine/file-cache/, a service).
 *
 * File-system mode over one Vfs folder, as a pipeline layer.
 * Instantiable any number of times (each instance has its own caches and its own fsDir check),
 * e.g. a scenario's files over an overlay Vfs (src/vfs/overlay.ts) next to the base files.
 *
 * Start-up: the fsDir folder is checked once (`ready` resolves true when it is a folder); until
 * then `peek` cannot tell and `handle` waits for the check. A missing folder turns file routing
 * off with one warning (handlers still work): `handle` passes, and asks again (dir-probe.ts) so a
 * folder that appears later is served from the next request on; `peek` says PASS while the
 * folder is certainly still missing (no change event on an exclusive Vfs), else leaves the
 * request to `handle`.
 * Order: after handlers, har/recorded, streams, graphql and collections; before openapi-mock,
 *   static, proxy and the preset hints: code, recordings and collections win; what the folder lacks
 *   goes on to the generated backend and the network.
 */
import { lookupTarget } from '../file-cache/lookup.js';
import { PASS } from '../pipeline/layer.js';
import { notFound } from '../pipeline/not-found.js';
import { createFsDirProbe, type FsDirProbe } from '../file-cache/dir-probe.js';
import { createFsMode } from './fs-mode.js';
import type { FilesLayer, FilesLayerOptions, FsMode } from '../file-cache/files-layer.js';

/** Made by the assembly (layers.ts), handed to those who need a files layer of their own (the OpenAPI backend's state folder). */
export function createFilesLayer(options: FilesLayerOptions): FilesLayer {
  const name = options.name ?? 'files';
  const { vfs, fsDir, logger } = options;
  let mode: FsMode | undefined;
  let checked = false;

  let closed = false;
  const probe: FsDirProbe | undefined = fsDir === null || !vfs ? undefined : createFsDirProbe(vfs, fsDir);
  const start = (): FsMode =>
    (mode ??= createFsMode({ name, vfs: vfs!, fsDir: fsDir!, bodyLimit: options.bodyLimit, inflate: options.inflate, maxJsonDepth: options.maxJsonDepth, logger, queue: options.queue, pagination: options.pagination, filters: options.filters, passUnmockedWrites: options.passUnmockedWrites, below: options.below, onUnreadQuery: options.onUnreadQuery, countObjects: options.countObjects }));

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
