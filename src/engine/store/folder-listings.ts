/**
 * The names of the JSON files in a folder of the mocks (`posts`, `comments`, … for the
 * collections next to one: the json-server delete cascade), kept between asks: until the Vfs
 * reports a file there that the list lacks (rewriting a listed file changes no name; a name that
 * went is found missing when its collection is read), and on drivers whose files change behind
 * our back (disk) for at most the lookup TTL, as file lookups are.
 *
 * It follows changes through the file cache (`cache.onChange`), so its listener goes when the
 * engine closes the cache.
 */
import { LOOKUP_TTL_MS } from '../file-cache/file-cache.js';
import type { FsEnv } from '../file-cache/fs-call.js';

export interface FolderListings {
  /** The JSON file names (without `.json`) in the Vfs folder `dir`. */
  jsonNamesIn(env: FsEnv, dir: string): Promise<string[]>;
}

const MAX_FOLDERS = 256;

export function createFolderListings(): FolderListings {
  const listings = new WeakMap<FsEnv, { byDir: Map<string, { names: string[]; at: number }>; changes: number }>();
  return {
    async jsonNamesIn(env, dir) {
      let kept = listings.get(env);
      if (kept === undefined) {
        const own = (kept = { byDir: new Map(), changes: 0 });
        listings.set(env, own);
        env.cache.onChange((path) => {
          const cut = path.lastIndexOf('/');
          const at = cut === -1 ? '' : path.slice(0, cut);
          const name = path.slice(cut + 1);
          if (own.byDir.get(at)?.names.includes(name.toLowerCase().endsWith('.json') ? name.slice(0, -5) : '\u0000') === true) return;
          own.byDir.delete(at);
          own.changes++; // a listing read meanwhile may lack it
        });
      }
      const known = kept.byDir.get(dir);
      if (known !== undefined && (env.vfs.exclusive || performance.now() - known.at < LOOKUP_TTL_MS)) return known.names;
      const before = kept.changes;
      const names: string[] = [];
      for (const e of await env.vfs.readdir(dir)) {
        if (e.kind === 'file' && e.name.toLowerCase().endsWith('.json')) names.push(e.name.slice(0, -5));
      }
      if (kept.changes === before) {
        if (kept.byDir.size >= MAX_FOLDERS) kept.byDir.clear();
        kept.byDir.set(dir, { names, at: performance.now() });
      }
      return names;
    },
  };
}
