/**
 * The filesystem used when the options give no `fs`. The engine has no default of its own (it
 * must not import node:*): the Node entry registers a disk factory (src/node/register-runtime.ts); in
 * the browser `fs` is required.
 */
import type { Vfs } from './types.js';

/** Builds the Vfs for `fsDir` (relative to `root`, or absolute). */
export type DefaultFsFactory = (fsDir: string, root: string | undefined) => Vfs;

let factory: DefaultFsFactory | undefined;

export function setDefaultFsFactory(next: DefaultFsFactory | undefined): void {
  factory = next;
}

export function getDefaultFsFactory(): DefaultFsFactory | undefined {
  return factory;
}

/**
 * The scratch filesystem `req.app.fs` falls back to when the engine has none (`fsDir: null`
 * without `fs`). The Node entry registers memoryFs; it is not imported here so that browser
 * bundles never pull in memfs and its Node polyfills.
 */
export type ScratchFsFactory = () => Vfs;

let scratchFactory: ScratchFsFactory | undefined;

export function setScratchFsFactory(next: ScratchFsFactory | undefined): void {
  scratchFactory = next;
}

export function getScratchFsFactory(): ScratchFsFactory | undefined {
  return scratchFactory;
}
