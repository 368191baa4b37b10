/**
 * The options of file mode (the files layer, layer.ts): which folder of which filesystem it serves.
 *   fsDir   the mocks folder: inside `fs` (default its root), else on disk relative to `root`;
 *           `null` turns file routing off; unset without `fs`: off (never the whole project)
 *   fs      a Vfs (memoryFs(), diskFs(dir), …); default: the runtime's disk factory
 *   root    the folder `fsDir`, `static` and the OpenAPI document are read relative to
 *   db      one JSON file as the whole folder (json-server's db.json); not with `fsDir`
 * `pagination` and `filters`, which the files layer reads too, are validated where the file
 * cache reads them (file-cache/query-options.ts), as a handler's `handle: 'FS'` carries its own.
 */
import { check, describe, OptionsError } from '../../core/options.js';
import { normalizeVfsPath } from '../../vfs/path.js';
import { isVfs, type Vfs } from '../../vfs/types.js';

export interface FilesFolder {
  /** Folder of the mocks inside `fs` (normalised Vfs path, `''` = its root), or null: file routing off. */
  fsDir: string | null;
  /** The fsDir as the user gave it (for messages; never shown to HTTP clients). */
  fsDirOption: string | null | undefined;
  /** The filesystem given by the user (`undefined`: the engine uses the default factory). */
  fs?: Vfs;
  root?: string;
}

/** Validates `fsDir`, `fs` and `root` (`at('fsDir')` names the option in errors). */
export function resolveFilesFolder(o: Record<string, unknown>, at: (key: string) => string): FilesFolder {
  const fsDirOption = o.fsDir;
  if (fsDirOption !== undefined && fsDirOption !== null && typeof fsDirOption !== 'string') {
    throw new OptionsError(at('fsDir'), `must be a string or null (got ${describe(fsDirOption)})`);
  }
  const out: FilesFolder = { fsDir: null, fsDirOption: fsDirOption as string | null | undefined };
  if (o.fs !== undefined) {
    if (!isVfs(o.fs)) throw new OptionsError(at('fs'), `must be a Vfs (memoryFs(), diskFs(dir), …) (got ${describe(o.fs)})`);
    out.fs = o.fs;
  }
  out.root = check.string(o.root, at('root'), undefined, { nonEmpty: true });
  if (fsDirOption === null) out.fsDir = null;
  else if (out.fs) {
    // Inside a given Vfs: a folder of it (default: its root).
    out.fsDir = insideFs((fsDirOption as string | undefined) ?? '', at('fsDir'), 'folder', fsDirOption);
  } else if (fsDirOption === undefined) {
    // No fs, no fsDir: nothing to serve files from (serving the whole project folder would expose it).
    out.fsDir = null;
  } else out.fsDir = ''; // the default factory roots the disk Vfs at resolve(root, fsDir)
  return out;
}

/** Validates `db` (a .json file, not with `fsDir`; inside `fs` when given). */
export function resolveDb(value: unknown, option: string, fsDirOption: string | null | undefined, fs: Vfs | undefined): string {
  const db = check.string(value, option, undefined, { nonEmpty: true })!;
  if (!db.toLowerCase().endsWith('.json')) throw new OptionsError(option, `must name a .json file (got ${describe(db)})`);
  if (fsDirOption !== undefined && fsDirOption !== null) throw new OptionsError(option, 'cannot be combined with fsDir: the db file is the folder');
  if (fs) insideFs(db, option, 'file');
  return db;
}

/** `path` as a Vfs path (normalised) of a folder or file inside `fs`; else the OptionsError naming `option`. */
export function insideFs(path: string, option: string, kind: 'folder' | 'file', given: unknown = path): string {
  try {
    return normalizeVfsPath(path);
  } catch {
    throw new OptionsError(option, `must be a ${kind} inside "fs" without "..", "\\" or NUL (got ${describe(given)})`);
  }
}
