/**
 * The collector's loading (storage-state.ts, `StorageState`): its states and every move between
 * them, in one table. The status (ping, the devtools, the CLI) names them connecting | ready |
 * unavailable; unavailable is `waiting` or `retrying` here.
 *
 *   connecting  the first attempt (`load()`) is under way; requests wait for it
 *   ready       loaded and answering (a ping probes it, at most once a second)
 *   waiting     unavailable; the next attempt starts when the timer fires (250 ms, doubling to 2 s)
 *   retrying    unavailable; an attempt is under way
 *   closed      `close()` was called: whatever ends later changes nothing
 * Events: `loaded` / `loadFailed` (how an attempt ended), `due` (the timer fired), `failed` (a
 * store call or probe found the storage unreachable), `close`. A pair not in the table is refused:
 * `storageMove` throws (a bug in the collector). closed + `due` is accepted though leaving
 * `waiting` ends its timer: a timer that fires anyway changes nothing.
 *
 * Who drives them: `StorageState` (storage-state.ts) alone, through its `on(event)`: its attempts
 * (`load()` until the store first loaded, then `probe()`) end in `loaded` / `loadFailed`; its
 * timer is `due`; the collector hands it a store call that found the storage unreachable
 * (`failed()`: ingest, queries, a ping's probe in `check()`); the collector's `close()` is `close`.
 * Tested by state: test/tracker/loading-state.test.ts (every pair through a real StorageState over
 * a PostgreSQL server the test stops and starts, then the collector's ping on 127.0.0.1).
 */
export type LoadingStateName = 'connecting' | 'ready' | 'waiting' | 'retrying' | 'closed';
export type LoadingEvent = 'loaded' | 'loadFailed' | 'due' | 'failed' | 'close';

export const LOADING_MOVES: { readonly [S in LoadingStateName]: { readonly [E in LoadingEvent]?: LoadingStateName } } = {
  connecting: { loaded: 'ready', loadFailed: 'waiting', close: 'closed' },
  ready: { failed: 'waiting', close: 'closed' },
  waiting: { due: 'retrying', failed: 'waiting', close: 'closed' },
  retrying: { loaded: 'ready', loadFailed: 'waiting', failed: 'retrying', close: 'closed' },
  closed: { loaded: 'closed', loadFailed: 'closed', due: 'closed', failed: 'closed', close: 'closed' },
};

/** Where `event` takes the loading machine from `from`; throws when refused. */
export function storageMove(from: LoadingStateName, event: LoadingEvent): LoadingStateName {
  const to = LOADING_MOVES[from][event];
  if (to === undefined) throw new Error(`collector storage: '${event}' is refused in state '${from}'`);
  return to;
}
