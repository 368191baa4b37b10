/**
 * The file cache's vocabulary (file-cache.ts): the states a request path's *lookup* and a file's
 * *entry* can be in, and every move between them, in two tables. A lookup (which file a request
 * path names) is keyed by the request path, an entry (a file's content) by the Vfs path: two
 * machines, one per key.
 *
 * A lookup (`lookups`, per request path):
 *   unknown      nothing remembered: the next request looks (lookup.ts)
 *   found        the path names this file; believed for ever on drivers whose change reports
 *                are complete (memory, json-db, IndexedDB), else for LOOKUP_TTL_MS
 *   missing      the path names no file; believed for ever on those drivers, elsewhere only by
 *                callers that accept a miss for LOOKUP_TTL_MS (query variants: `trustMisses`)
 *   watchedMiss  the path names no file, and a watch of the folder its file would be in
 *                vouches for it (miss-watch.ts): believed until that folder reports, at most
 *                WATCHED_RECHECK_MS (disk)
 * Events: how a lookup ended, remembered — `resolved` (a file), `missed`, `missedWatched`; a
 * lookup whose result may not be remembered (something changed or reported while it ran, the
 * path is a folder, no folder watch) makes no move. `cleared`: every lookup is forgotten at once,
 * on a change under the mocks folder that may move a lookup (anything but a file overwritten in
 * place: `write(…, existing)`) or when MAX_LOOKUPS are remembered. `folderReported`: the folder
 * watch vouching for the miss reported (a key whose miss was replaced meanwhile is left alone).
 * `fileGone`: the file a lookup found was not there when read (looked up again at once). A state
 * past the time it is believed is looked up again, and the lookup's end is the move; every end
 * is accepted in every state, since two lookups of one path may race.
 *
 * An entry (`files` and `loading`, per Vfs path this cache answers for; a path a shared cache
 * below answers for is in that cache's state):
 *   unknown      nothing held: the next read loads it
 *   loading      a load (stat, read, parse) is under way; reads meanwhile share it
 *   fresh        held and used without a `stat`: always on drivers whose change reports are
 *                complete and in the memory layer above a shared cache; on disk in the event-loop
 *                turn it was checked in (one `stat` per file per turn), and for WATCHED_RECHECK_MS
 *                when the driver watches the file and nothing was reported since the check
 *   unconfirmed  held, but the next read takes a `stat` first (disk): its turn is over, its watch
 *                window passed, or its watch reported
 * Events: `read` (asked for while nothing is held), `loaded` (the load is still this path's and
 * its entry is kept), `loadEnded` (the load ended keeping nothing: not a file, over
 * MAX_CACHED_FILE, failed), `confirmed` / `stale` (the `stat` of a held entry found it the same /
 * changed or gone; a read racing another may find its entry already replaced, dropped or being
 * loaded again: `stale` then drops whatever is there, since that may predate the change too),
 * `reported` (the driver's watch of the file reported), `aged` (the clock: the turn ended or the
 * watch window passed — no call makes it, the state is read off the entry),
 * `changed` (the Vfs reported a change at the path or a folder above it: `onChange`), `written`
 * (the cache's own write is kept as the content), `evicted` (over the byte budget, oldest first).
 *
 * Who drives them: requests through the cache's reads (`lookup`, `lookupEntry`, `entry`), its
 * writes (`write`, `writeValue`, `remove` — whose change the Vfs reports back), the Vfs's change
 * reports and the driver's watches (disk). A pair not in a table is refused: `lookupMove` /
 * `entryMove` throw (a bug in the cache). `FileCache.lookupState` / `entryState` name a key's
 * state (test/engine/file-cache/cache-states.test.ts walks every move).
 *
 * Not states of a key: a file being written in place (`overwriting`) only makes its change no
 * `cleared` for the lookups (the path still names the same file); whether a file is watched
 * (`watches`) only sets how long `fresh` lasts; a removed file is simply `changed` (unknown, its
 * watch stopped). The per-folder memos keep their own rules in their opening comments
 * (miss-watch.ts, folder-listings.ts, variant-listings.ts). `close()` ends the cache.
 */
export type LookupState = 'unknown' | 'found' | 'missing' | 'watchedMiss';
export type LookupEvent = 'resolved' | 'missed' | 'missedWatched' | 'cleared' | 'folderReported' | 'fileGone';

export type EntryState = 'unknown' | 'loading' | 'fresh' | 'unconfirmed';
export type EntryEvent = 'read' | 'loaded' | 'loadEnded' | 'confirmed' | 'stale' | 'reported' | 'aged' | 'changed' | 'written' | 'evicted';

/** How a lookup ended, remembered: the same from every state (a state past its time is looked up again; two lookups may race). */
const ENDED = { resolved: 'found', missed: 'missing', missedWatched: 'watchedMiss', cleared: 'unknown', fileGone: 'unknown' } as const;

export const LOOKUP_MOVES: { readonly [S in LookupState]: { readonly [E in LookupEvent]?: LookupState } } = {
  unknown: ENDED,
  found: ENDED,
  missing: ENDED,
  watchedMiss: { ...ENDED, folderReported: 'unknown' },
};

export const ENTRY_MOVES: { readonly [S in EntryState]: { readonly [E in EntryEvent]?: EntryState } } = {
  unknown: { read: 'loading', stale: 'unknown', reported: 'unknown', changed: 'unknown', written: 'fresh' },
  loading: { loaded: 'fresh', loadEnded: 'unknown', stale: 'unknown', reported: 'loading', changed: 'unknown', written: 'fresh' },
  fresh: { confirmed: 'fresh', stale: 'unknown', reported: 'unconfirmed', aged: 'unconfirmed', changed: 'unknown', written: 'fresh', evicted: 'unknown' },
  unconfirmed: { confirmed: 'fresh', stale: 'unknown', reported: 'unconfirmed', changed: 'unknown', written: 'fresh', evicted: 'unknown' },
};

/** Where `event` takes a lookup from `from`; throws when refused. */
export function lookupMove(from: LookupState, event: LookupEvent): LookupState {
  const to = LOOKUP_MOVES[from][event];
  if (to === undefined) throw new Error(`file cache: lookup '${event}' is refused in state '${from}'`);
  return to;
}

/** Where `event` takes an entry from `from`; throws when refused. */
export function entryMove(from: EntryState, event: EntryEvent): EntryState {
  const to = ENTRY_MOVES[from][event];
  if (to === undefined) throw new Error(`file cache: entry '${event}' is refused in state '${from}'`);
  return to;
}
