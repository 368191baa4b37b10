/**
 * The filesystem factories a runtime provides (src/host/runtime.ts; Node's in src/node/runtime.ts):
 * the engines have no default of their own (they must not import node:*), so a runtime without
 * them (a page, a worker) needs `fs` in the options.
 */
import type { Vfs } from './types.js';

/** Builds the Vfs for `fsDir` (relative to `root`, or absolute). */
export type DefaultFsFactory = (fsDir: string, root: string | undefined) => Vfs;

/**
 * The scratch filesystem `req.app.fs` falls back to when the engine has none (`fsDir: null`
 * without `fs`). Node's is memoryFs; it is not imported by the engines so that browser bundles
 * never pull in memfs and its Node polyfills.
 */
export type ScratchFsFactory = () => Vfs;
