/**
 * The json-db saver by state: every (state, event) pair of its table (json-db-saver-state.ts) is
 * driven through a real DocumentSaver rewriting a real file on disk, and lands where the table
 * says; every pair not in the table is refused.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { diskFs } from '../../src/vfs/disk.js';
import { DocumentSaver } from '../../src/vfs/json-db-saver.js';
import { SAVER_MOVES, saverMove, type SaverEvent, type SaverStateName } from '../../src/vfs/json-db-saver-state.js';
import { makeTempDir, removeTempDirs } from '../helpers/temp-dir.js';

afterEach(removeTempDirs);

const STATES = Object.keys(SAVER_MOVES) as SaverStateName[];
const EVENTS: SaverEvent[] = ['change', 'due', 'flush', 'discard', 'close', 'caughtUp', 'behind', 'writeFailed'];

async function until(what: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !what(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(what()).toBe(true);
}

/** A saver writing `{"n": <changes so far>}` into db.json of a temp folder; its writes can be held or made to fail. */
async function harness() {
  const dir = await makeTempDir('mockyard-saver-');
  const fs = diskFs(dir);
  let n = 0;
  let gate: Promise<void> = Promise.resolve();
  let open: (() => void) | undefined;
  let broken = false;
  const failures: unknown[] = [];
  const saver = new DocumentSaver({
    delayMs: 20,
    text: () => JSON.stringify({ n }),
    write: async (text) => {
      await gate;
      await fs.write('sub/db.json', text);
    },
    onFailure: (err) => failures.push(err),
  });
  const h = {
    saver,
    failures,
    change: () => {
      n++;
      saver.changed();
    },
    /** Writes wait until `release()`. */
    hold: () => {
      if (!open) gate = new Promise((r) => (open = r));
    },
    release: () => {
      open?.();
      open = undefined;
    },
    /** `sub` becomes a file: the next write fails with ENOTDIR. */
    breakDisk: async () => {
      broken = true;
      await writeFile(join(dir, 'sub'), 'not a folder');
    },
    repairDisk: async () => {
      if (broken) await rm(join(dir, 'sub'));
      broken = false;
    },
    file: async () => JSON.parse(await readFile(join(dir, 'sub', 'db.json'), 'utf8')) as { n: number },
    n: () => n,
  };
  return h;
}
type Harness = Awaited<ReturnType<typeof harness>>;

/** Brings a fresh saver into `state` (`closed`: after close()). */
async function reach(state: SaverStateName, closed: boolean): Promise<Harness> {
  const h = await harness();
  const { saver } = h;
  switch (state) {
    case 'saved':
      if (closed) saver.close();
      break;
    case 'waiting':
      h.change();
      break;
    case 'writing':
      h.hold();
      h.change();
      if (closed) saver.close();
      void saver.rewrite();
      break;
    case 'failed':
      await h.breakDisk();
      h.change();
      await saver.rewrite();
      break;
    case 'held':
      h.change();
      saver.close();
      break;
  }
  expect(saver.stateName).toBe(state);
  return h;
}

/** Fires `event` through the saver's own ways. */
async function fire(h: Harness, event: SaverEvent): Promise<void> {
  const { saver } = h;
  switch (event) {
    case 'change':
      return h.change();
    case 'due':
      h.hold(); // keep the rewrite the timer starts on its way
      return until(() => saver.stateName === 'writing');
    case 'flush':
      h.hold();
      void saver.rewrite();
      return;
    case 'discard':
      return saver.discard();
    case 'close':
      return saver.close();
    case 'caughtUp':
    case 'behind':
    case 'writeFailed': {
      if (event === 'behind') h.change();
      if (event === 'writeFailed') await h.breakDisk();
      const done = saver.rewrite();
      h.release();
      await done;
      return;
    }
  }
}

/** Whether a state is reached before close() (false), after it (true), or both. */
const REACHED: Record<SaverStateName, boolean[]> = { saved: [false, true], waiting: [false], writing: [false, true], failed: [false], held: [true] };

describe.each(STATES)('json-db saver in %s', (state) => {
  const accepted = EVENTS.filter((e) => SAVER_MOVES[state][e] !== undefined);
  for (const event of accepted) {
    for (const closed of REACHED[state]) {
      const to = saverMove(state, event, closed);
      it(`${event}${closed ? ' (closed)' : ''} → ${to}`, async () => {
        const h = await reach(state, closed);
        await fire(h, event);
        expect(h.saver.stateName).toBe(to);
        // What each state promises about the changes.
        if (to === 'saved') expect(h.saver.unsaved).toBe(0);
        if (to === 'waiting' || to === 'failed' || to === 'held') expect(h.saver.unsaved).toBeGreaterThan(0);
        if (event === 'caughtUp') expect(await h.file()).toEqual({ n: h.n() });
        if (to === 'failed') expect(h.failures.length).toBeGreaterThan(0);
        // Whatever the state, the saver ends with every change in the file (unless discarded).
        h.release();
        await h.repairDisk();
        await h.saver.saveAll(false);
        expect(h.saver.stateName).toBe('saved');
        if (event !== 'discard' && h.n() > 0) expect(await h.file()).toEqual({ n: h.n() });
      });
    }
  }
  const refused = EVENTS.filter((e) => SAVER_MOVES[state][e] === undefined);
  if (refused.length) {
    it(`refuses ${refused.join(', ')}`, () => {
      for (const e of refused) for (const closed of [false, true]) expect(() => saverMove(state, e, closed)).toThrow(`'${e}' is refused in state '${state}'`);
    });
  }
});

describe('json-db saver: what the states mean on disk', () => {
  it('a failed rewrite is tried again by its timer and then saves every change', async () => {
    const h = await reach('failed', false);
    h.change();
    await h.repairDisk();
    await until(() => h.saver.stateName === 'saved');
    expect(await h.file()).toEqual({ n: 2 });
  });

  it('closing with a disk that refuses: saveAll(true) gives up in held instead of retrying forever', async () => {
    const h = await harness();
    await h.breakDisk();
    h.change();
    h.saver.close();
    await h.saver.saveAll(true);
    expect(h.saver.stateName).toBe('held');
    expect(h.failures).toHaveLength(1);
  });

  it('no timer is started once closed: a change waits in held for saveAll', async () => {
    const h = await reach('saved', true);
    h.change();
    await new Promise((r) => setTimeout(r, 60));
    expect(h.saver.stateName).toBe('held');
    await h.saver.saveAll(true);
    expect(await h.file()).toEqual({ n: 1 });
  });
});
