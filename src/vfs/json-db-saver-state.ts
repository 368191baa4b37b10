/**
 * The states of the json-db saver (json-db-saver.ts) and every move between them, in one table.
 *
 *   saved    the file holds every change                                  (no change waits)
 *   waiting  changes wait; the rewrite starts when the timer fires        (a timer, changes wait)
 *   writing  a rewrite of the whole document is on its way; changes made meanwhile wait for the
 *            next one, and watch reports meanwhile are its own            (the rewrite's promise)
 *   failed   the last rewrite failed; it is tried again when the timer fires (changes wait)
 *   held     closed with changes waiting: no timer any more, `saveAll` writes them
 *
 * Events: `change` (a write of the document), `due` (the timer fired), `flush` (a rewrite asked
 * for now), `discard` (an outside edit of the file won over the changes waiting), `close`, and
 * how a rewrite ends: `caughtUp` (nothing waits any more), `behind` (written; changes made
 * meanwhile wait), `writeFailed` (changes still wait). Where the move differs once closed (no
 * timer is started then), the entry is `{ open, closed }`. A pair not in the table is refused:
 * `saverMove` throws (a bug in the saver, never a user's mistake).
 *
 * Who drives them: the db.json driver (`jsonDbFs`, json-db.ts) — every write of the document is a
 * `change`; its `flush()` and a page being hidden or left (with changes waiting) are a `flush`;
 * the file read back after an outside edit (its content wins over any changes waiting) is a
 * `discard`; its `close()` is a `close` (then `saveAll` writes what is held). The saver itself
 * (`on` in json-db-saver.ts) drives `due` (its timer) and how each rewrite ends. Tested by state:
 * test/vfs/json-db-saver-state.test.ts (every pair through a real saver rewriting a file on disk).
 */
export type SaverStateName = 'saved' | 'waiting' | 'writing' | 'failed' | 'held';
export type SaverEvent = 'change' | 'due' | 'flush' | 'discard' | 'close' | 'caughtUp' | 'behind' | 'writeFailed';

type Target = SaverStateName | { open: SaverStateName; closed: SaverStateName };

export const SAVER_MOVES: { readonly [S in SaverStateName]: { readonly [E in SaverEvent]?: Target } } = {
  saved: { change: { open: 'waiting', closed: 'held' }, flush: 'saved', discard: 'saved', close: 'saved' },
  waiting: { change: 'waiting', due: 'writing', flush: 'writing', discard: 'saved', close: 'held' },
  writing: { change: 'writing', flush: 'writing', discard: 'writing', close: 'writing', caughtUp: 'saved', behind: { open: 'waiting', closed: 'held' }, writeFailed: { open: 'failed', closed: 'held' } },
  failed: { change: 'failed', due: 'writing', flush: 'writing', discard: 'saved', close: 'held' },
  held: { change: 'held', flush: 'writing', discard: 'saved', close: 'held' },
};

/** Where `event` takes the saver from `from` (`closed`: after `close()`); throws when refused. */
export function saverMove(from: SaverStateName, event: SaverEvent, closed: boolean): SaverStateName {
  const to = SAVER_MOVES[from][event];
  if (to === undefined) throw new Error(`json-db saver: '${event}' is refused in state '${from}'`);
  return typeof to === 'string' ? to : closed ? to.closed : to.open;
}
