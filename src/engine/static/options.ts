/**
 * The `static` option (`mock.static`, json-server's `--static`): folders (Node) or Vfs whose files
 * the static layer (layer.ts) serves; a string or a Vfs, or an array of them. Default: none.
 */
import { describe, OptionsError } from '../../core/options.js';
import type { Vfs } from '../../vfs/types.js';

/** What users write (`mock.static`). */
export type StaticOption = string | Vfs | Array<string | Vfs>;

/** Validates `static` (folders or Vfs) into a list, possibly empty. */
export function resolveStatic(value: unknown, option: string): Array<string | Vfs> {
  if (value === undefined || value === null) return [];
  const list = Array.isArray(value) ? value : [value];
  return list.map((v, i) => {
    const at = Array.isArray(value) ? `${option}[${i}]` : option;
    if (typeof v === 'string' && v.trim() !== '') return v;
    if (v && typeof v === 'object' && typeof (v as Vfs).stat === 'function' && typeof (v as Vfs).read === 'function') return v as Vfs;
    throw new OptionsError(at, `must be a folder or a Vfs (got ${describe(v)})`);
  });
}
