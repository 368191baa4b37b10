/**
 * The filesystem used when the options give no `fs`. The engine has no default of its own (it
 * must not import node:*): the Node entry registers a disk factory (src/node/default-fs.ts); in
 * the browser `fs` is required.
 */
import type { Vfs } from '../vfs/types.js';

/** Builds the Vfs for `fsDir` (relative to `root`, or absolute). */
export type DefaultFsFactory = (fsDir: string, root: string | undefined) => Vfs;

let factory: DefaultFsFactory | undefined;

export function setDefaultFsFactory(next: DefaultFsFactory | undefined): void {
  factory = next;
}

export function getDefaultFsFactory(): DefaultFsFactory | undefined {
  return factory;
}
