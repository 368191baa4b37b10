/**
 * The mock API's filesystem, opened once from the options: the given `fs`; else, for `db`
 * (json-server's db.json), that one file seen as a folder of `<key>.json` files (src/vfs/json-db.ts,
 * loaded on demand: pages without `db` never fetch it); else the runtime's default (disk in
 * Node, src/engine/runtime.ts) rooted at `fsDir`. Filesystems opened here are the engine's (closed with it).
 */
import type { Logger } from '../core/logger.js';
import { OptionsError } from '../core/options.js';
import { deferredVfs } from '../vfs/deferred.js';
import type { Vfs } from '../vfs/types.js';
import type { DefaultFsFactory } from '../vfs/default-fs.js';
import type { ResolvedMockApiOptions } from './options.js';

export interface MockFs {
  /** What the files layer serves (null: file routing off). */
  vfs: Vfs | null;
  /** The default filesystem factory (undefined with a given `fs`), for scenario folders. */
  factory: DefaultFsFactory | undefined;
  /** Closes what was opened here (a given `fs` stays the caller's). */
  close(): Promise<void>;
}

const NO_DEFAULT = 'this runtime has no default filesystem (outside Node, pass fs: memoryFs() or indexedDbFs())';

export function openMockFs(options: ResolvedMockApiOptions, logger: Logger, defaultFs: DefaultFsFactory | undefined): MockFs {
  const factory = options.fs ? undefined : defaultFs;
  const owned: Vfs[] = [];
  let vfs: Vfs | null = options.fs ?? null;
  if (!options.disabled && options.db !== null) {
    let inner = vfs;
    let file = options.db;
    if (!inner) {
      if (!factory) throw new OptionsError('mock.fs', `is required with mock.db here: ${NO_DEFAULT}`);
      const cut = Math.max(file.lastIndexOf('/'), file.lastIndexOf('\\'));
      inner = factory(cut === -1 ? '.' : file.slice(0, cut) || '/', options.root);
      owned.push(inner);
      file = file.slice(cut + 1);
    }
    const base = inner;
    const db = import('../vfs/json-db.js').then((m) => m.jsonDbFs(base, file, { onWarning: (msg) => logger.warn(msg) }));
    db.then((d) => d.ready()).catch((err: unknown) => logger.error(`${options.db}: ${(err as Error)?.message ?? String(err)}`));
    vfs = deferredVfs(db, { driver: 'json-db', exclusive: true, root: `${base.root.replace(/\/+$/, '')}/${file}`, writeJson: true });
    owned.unshift(vfs); // the db view first: it saves pending writes into the file it wraps
  } else if (!options.disabled && !vfs && options.fsDir !== null) {
    if (!factory) throw new OptionsError('mock.fs', `is required here: ${NO_DEFAULT}`);
    vfs = factory(options.fsDirOption!, options.root);
    owned.push(vfs);
  }
  return {
    vfs,
    factory,
    async close() {
      for (const f of owned) await f.close?.();
    },
  };
}
