/**
 * The file cache's vocabulary by state (src/engine/file-cache/cache-states.ts): every move of
 * both tables, driven through a real FileCache over a real folder on disk (diskFs, its real
 * watches) and over the memory driver wherever the move exists there (the memory driver's change
 * reports are complete: nothing is ever unconfirmed, misses are never watched). Each test brings
 * a key into the move's first state, checks it there, makes the event happen and checks where it
 * landed (`entryState`, `lookupState`). The clock (`performance.now()`) is the test's: a state
 * ages only when a test moves it on. Races are staged by holding the driver's calls (`hold`).
 * The last test checks that no pair of either table went untested.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ENTRY_MOVES, LOOKUP_MOVES, type EntryEvent, type EntryState, type LookupEvent, type LookupState } from '../../../src/engine/file-cache/cache-states.js';
import { FileCache, LOOKUP_TTL_MS, WATCHED_RECHECK_MS } from '../../../src/engine/file-cache/file-cache.js';
import { lookupTarget } from '../../../src/engine/file-cache/lookup.js';
import { diskFs } from '../../../src/vfs/disk.js';
import { memoryFs } from '../../../src/vfs/memory.js';
import type { Vfs, VfsStat } from '../../../src/vfs/types.js';
import { seedDir } from '../../helpers/mock-fs-drivers.js';
import { makeTempDir, removeTempDirs } from '../../helpers/temp-dir.js';

type Driver = 'disk' | 'memory';
const text = (s: string) => new TextEncoder().encode(s);
const turn = () => new Promise<void>((r) => setImmediate(r));
const cleanups: Array<() => unknown> = [];
let now = 0;

beforeEach(() => {
  now = performance.now();
  vi.spyOn(performance, 'now').mockImplementation(() => now);
});
afterEach(async () => {
  vi.restoreAllMocks();
  for (const c of cleanups.splice(0).reverse()) await c();
});
afterAll(removeTempDirs);

async function until(what: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !what(); i++) await new Promise((r) => setTimeout(r, 10));
}

/** Moves the test's clock on, past `ms`, and lets an event-loop turn end. */
async function age(ms: number): Promise<void> {
  now += ms + 1;
  await turn();
}

interface Hold {
  /** Resolves when the held call has come (and, `after`, the real call has ended). */
  readonly reached: Promise<void>;
  release(): void;
}

/**
 * A real driver whose calls a test can hold: `hold('stat')` holds the next `stat` before the
 * real one runs (it sees the folder as it is when released), `hold('write', 'after')` holds the
 * next `write` after the real one (its change already reported). `afterNext('stat', fn)` runs `fn`
 * once the next real `stat` has answered, before the cache sees the answer. Watch reports are
 * counted (`report(path)`), and folder reports can be kept back (`holdFolderReports`).
 */
function controlled(base: Vfs) {
  const v = Object.create(base) as Vfs;
  type Gate = { where: 'before' | 'after'; wait: () => Promise<void>; arrived: () => void };
  const gates: Record<'stat' | 'write', Gate[]> = { stat: [], write: [] };
  let stats = 0;
  for (const m of ['stat', 'write'] as const) {
    const real = (base[m] as (...a: unknown[]) => Promise<unknown>).bind(base);
    (v as unknown as Record<string, unknown>)[m] = async (...args: unknown[]) => {
      if (m === 'stat') stats++;
      const g = gates[m].shift();
      if (g === undefined) return real(...args);
      if (g.where === 'before') {
        g.arrived();
        await g.wait();
      }
      const r = await real(...args);
      if (g.where === 'after') {
        g.arrived();
        await g.wait();
      }
      return r;
    };
  }
  const waiting: Array<{ path: string; resolve: () => void }> = [];
  const kept: Array<() => void> = [];
  let keepFolderReports = false;
  const seen = (path: string) => {
    for (const w of waiting.filter((w) => w.path === path)) {
      waiting.splice(waiting.indexOf(w), 1);
      w.resolve();
    }
  };
  if (base.watch) {
    const real = base.watch.bind(base);
    v.watch = (path, report) => real(path, (ended) => (report(ended), seen(path)));
  }
  if (base.watchFolder) {
    const real = base.watchFolder.bind(base);
    v.watchFolder = (path, report) =>
      real(path, (ended, name) => {
        if (keepFolderReports) kept.push(() => report(ended, name));
        else report(ended, name);
        seen(path);
      });
  }
  function gate(m: 'stat' | 'write', where: 'before' | 'after', wait?: () => Promise<void>): Hold {
    let arrived!: () => void;
    let release!: () => void;
    const reached = new Promise<void>((r) => (arrived = r));
    const released = new Promise<void>((r) => (release = r));
    gates[m].push({ where, wait: wait ?? (() => released), arrived });
    return { reached, release };
  }
  return {
    vfs: v,
    /** How many `stat` calls the cache made so far. */
    stats: () => stats,
    hold: (m: 'stat' | 'write', where: 'before' | 'after' = 'before') => gate(m, where),
    afterNext: (m: 'stat', fn: () => Promise<void>) => gate(m, 'after', fn),
    /** Resolves after the next watch report for `path` (a file, or a folder: '' is the root) was handed on (or kept back). */
    report: (path: string) => new Promise<void>((resolve) => waiting.push({ path, resolve })),
    holdFolderReports() {
      keepFolderReports = true;
    },
    flushFolderReports() {
      keepFolderReports = false;
      for (const r of kept.splice(0)) r();
    },
  };
}

/** A FileCache over a real folder (disk) or the memory driver, with `a.json` (and what `extra` adds). */
async function setup(driver: Driver, extra: Record<string, unknown> = {}, options: { maxCachedBytes?: number } = {}) {
  const tree = { 'a.json': { v: 1 }, ...extra };
  let base: Vfs;
  let dir = '';
  if (driver === 'disk') {
    dir = await makeTempDir();
    await seedDir(dir, tree);
    base = diskFs(dir);
  } else {
    base = memoryFs(tree);
  }
  const c = controlled(base);
  const cache = new FileCache(c.vfs, '', options);
  cleanups.push(() => base.close?.());
  cleanups.push(() => cache.close());
  const look = (key: string, trustMisses = false) => cache.lookup(key, lookupTarget(key)!, trustMisses);
  return {
    ...c,
    cache,
    look,
    /** Changes made behind the cache's back (disk only). */
    outside: {
      write: (name: string, body: string) => writeFile(join(dir, name), body),
      rm: (name: string) => rm(join(dir, name), { recursive: true }),
      mkdir: (name: string) => mkdir(join(dir, name)),
    },
  };
}

const P = 'a.json';
const tested = new Set<string>();

/** One move of the entry table, on the drivers where it happens; `body` ends with the key in the move's target. */
function entryMoveTest(from: EntryState, event: EntryEvent, drivers: Driver[], body: (s: Awaited<ReturnType<typeof setup>>, to: EntryState, driver: Driver) => Promise<void>) {
  const to = ENTRY_MOVES[from][event]!;
  tested.add(`entry ${from} ${event}`);
  describe.each(drivers)('%s', (driver) => {
    it(`entry ${from} --${event}--> ${to}`, async () => {
      await body(await setup(driver), to, driver);
    });
  });
}

function lookupMoveTest(from: LookupState, event: LookupEvent, drivers: Driver[], body: (s: Awaited<ReturnType<typeof setup>>, to: LookupState, driver: Driver) => Promise<void>) {
  const to = LOOKUP_MOVES[from][event]!;
  tested.add(`lookup ${from} ${event}`);
  describe.each(drivers)('%s', (driver) => {
    it(`lookup ${from} --${event}--> ${to}`, async () => {
      await body(await setup(driver), to, driver);
    });
  });
}

/** `a.json` held and fresh. */
async function fresh(s: Awaited<ReturnType<typeof setup>>): Promise<void> {
  await s.cache.entry(P);
  expect(s.cache.entryState(P)).toBe('fresh');
}

/** `a.json` held and unconfirmed (its watch window passed): the next read takes a `stat`. */
async function unconfirmed(s: Awaited<ReturnType<typeof setup>>): Promise<void> {
  await fresh(s);
  await age(WATCHED_RECHECK_MS);
  expect(s.cache.entryState(P)).toBe('unconfirmed');
}

describe('entry: unknown', () => {
  entryMoveTest('unknown', 'read', ['disk', 'memory'], async (s, to) => {
    expect(s.cache.entryState(P)).toBe('unknown');
    const read = s.cache.entry(P);
    expect(s.cache.entryState(P)).toBe(to);
    await read;
  });
  entryMoveTest('unknown', 'stale', ['disk'], async (s, to) => {
    // Two reads of an unconfirmed entry whose file went: the first drops it; the second's stat
    // then finds nothing held.
    await unconfirmed(s);
    await s.outside.rm(P);
    const a = s.hold('stat');
    const b = s.hold('stat');
    const first = s.cache.entry(P);
    const second = s.cache.entry(P);
    await Promise.all([a.reached, b.reached]);
    a.release();
    expect(await first).toBe(null);
    expect(s.cache.entryState(P)).toBe('unknown');
    b.release();
    expect(await second).toBe(null);
    expect(s.cache.entryState(P)).toBe(to);
  });
  entryMoveTest('unknown', 'reported', ['disk'], async (s, to) => {
    await fresh(s); // watched from now on
    await s.vfs.write(P, text('{"v":2}'));
    expect(s.cache.entryState(P)).toBe('unknown');
    const report = s.report(P);
    await s.outside.write(P, '{"v":3}');
    await report;
    expect(s.cache.entryState(P)).toBe(to);
  });
  entryMoveTest('unknown', 'changed', ['disk', 'memory'], async (s, to) => {
    await s.vfs.write(P, text('{"v":2}'));
    expect(s.cache.entryState(P)).toBe(to);
  });
  entryMoveTest('unknown', 'written', ['disk', 'memory'], async (s, to) => {
    await s.cache.write(P, text('{"v":2}'), true);
    expect(s.cache.entryState(P)).toBe(to);
    expect(s.cache.entryNow(P)!.bytes).toEqual(text('{"v":2}'));
  });
});

describe('entry: loading', () => {
  entryMoveTest('loading', 'loaded', ['disk', 'memory'], async (s, to) => {
    const read = s.cache.entry(P);
    expect(s.cache.entryState(P)).toBe('loading');
    await read;
    expect(s.cache.entryState(P)).toBe(to);
  });
  entryMoveTest('loading', 'loadEnded', ['disk', 'memory'], async (s, to) => {
    await s.vfs.mkdir('folder');
    const read = s.cache.entry('folder');
    expect(s.cache.entryState('folder')).toBe('loading');
    expect(await read).toBe(null);
    expect(s.cache.entryState('folder')).toBe(to);
  });
  entryMoveTest('loading', 'stale', ['disk'], async (s, to) => {
    // Two reads find the file gone; between them a third starts loading it: the second's stat
    // drops that load too.
    await unconfirmed(s);
    await s.outside.rm(P);
    const a = s.hold('stat');
    const b = s.hold('stat');
    const first = s.cache.entry(P);
    const second = s.cache.entry(P);
    await Promise.all([a.reached, b.reached]);
    a.release();
    expect(await first).toBe(null);
    const c = s.hold('stat');
    const third = s.cache.entry(P);
    await c.reached;
    expect(s.cache.entryState(P)).toBe('loading');
    b.release();
    expect(await second).toBe(null);
    expect(s.cache.entryState(P)).toBe(to);
    c.release();
    expect(await third).toBe(null);
    expect(s.cache.entryState(P)).toBe('unknown');
  });
  entryMoveTest('loading', 'reported', ['disk'], async (s, to) => {
    await fresh(s); // watched from now on
    await s.vfs.write(P, text('{"v":2}'));
    const held = s.hold('stat');
    const read = s.cache.entry(P);
    await held.reached;
    expect(s.cache.entryState(P)).toBe('loading');
    const stats = s.stats();
    const report = s.report(P);
    await s.outside.write(P, '{"v":3}');
    await report;
    expect(s.cache.entryState(P)).toBe(to);
    held.release();
    expect((await read)!.bytes).toEqual(text('{"v":3}'));
    expect(s.stats()).toBe(stats); // the one load went on: no second one started
  });
  entryMoveTest('loading', 'changed', ['disk', 'memory'], async (s, to) => {
    const held = s.hold('stat');
    const read = s.cache.entry(P);
    await held.reached;
    expect(s.cache.entryState(P)).toBe('loading');
    await s.vfs.write(P, text('{"v":2}'));
    expect(s.cache.entryState(P)).toBe(to);
    held.release();
    await read;
    expect(s.cache.entryState(P)).toBe('unknown'); // the load was not this path's any more: not kept
  });
  entryMoveTest('loading', 'written', ['disk', 'memory'], async (s, to) => {
    const w = s.hold('write', 'after');
    const writing = s.cache.write(P, text('{"v":2}'), true);
    await w.reached; // written, its change reported: nothing held
    expect(s.cache.entryState(P)).toBe('unknown');
    const l = s.hold('stat');
    const read = s.cache.entry(P);
    await l.reached;
    expect(s.cache.entryState(P)).toBe('loading');
    w.release();
    await writing;
    expect(s.cache.entryState(P)).toBe(to);
    l.release();
    await read;
    expect(s.cache.entryState(P)).toBe('fresh');
    expect(s.cache.entryNow(P)!.bytes).toEqual(text('{"v":2}'));
  });
});

describe('entry: fresh', () => {
  entryMoveTest('fresh', 'confirmed', ['disk'], async (s, to) => {
    // Two reads of an unconfirmed entry each take a stat: the second confirms a fresh one.
    await unconfirmed(s);
    const a = s.hold('stat');
    const b = s.hold('stat');
    const first = s.cache.entry(P);
    const second = s.cache.entry(P);
    await Promise.all([a.reached, b.reached]);
    a.release();
    await first;
    expect(s.cache.entryState(P)).toBe('fresh');
    b.release();
    await second;
    expect(s.cache.entryState(P)).toBe(to);
  });
  entryMoveTest('fresh', 'stale', ['disk'], async (s, to) => {
    // The first read's stat saw the file, the second's sees it gone; the first confirms just
    // before the second's answer comes in (the same event-loop turn).
    await unconfirmed(s);
    const a = s.hold('stat', 'after');
    const first = s.cache.entry(P);
    await a.reached;
    await s.outside.rm(P);
    let between: EntryState | undefined;
    s.afterNext('stat', async () => {
      a.release();
      await first;
      between = s.cache.entryState(P);
    });
    expect(await s.cache.entry(P)).toBe(null);
    expect(between).toBe('fresh');
    expect(s.cache.entryState(P)).toBe(to);
  });
  entryMoveTest('fresh', 'reported', ['disk'], async (s, to) => {
    await fresh(s);
    const report = s.report(P);
    await s.outside.write(P, '{"v":2}');
    await report;
    expect(s.cache.entryState(P)).toBe(to);
  });
  entryMoveTest('fresh', 'aged', ['disk'], async (s, to) => {
    await fresh(s);
    await age(WATCHED_RECHECK_MS / 2);
    expect(s.cache.entryState(P)).toBe('fresh'); // a watched file: within its window
    await age(WATCHED_RECHECK_MS / 2);
    expect(s.cache.entryState(P)).toBe(to);
  });
  entryMoveTest('fresh', 'changed', ['disk', 'memory'], async (s, to) => {
    await fresh(s);
    await s.vfs.write(P, text('{"v":2}'));
    expect(s.cache.entryState(P)).toBe(to);
  });
  entryMoveTest('fresh', 'written', ['disk', 'memory'], async (s, to) => {
    await fresh(s);
    const stats = s.stats();
    await s.cache.write(P, text('{"v":2}'), true);
    expect(s.cache.entryState(P)).toBe(to);
    expect((await s.cache.entry(P))!.bytes).toEqual(text('{"v":2}'));
    expect(s.stats() - stats).toBe(s.vfs.exclusive ? 0 : 1); // the write's own stat: the read took none
  });
  entryMoveTest('fresh', 'evicted', ['disk', 'memory'], async (_, to, driver) => {
    // A budget of 100 bytes: b.txt (90) then c.txt (20) goes over; the oldest goes until half is left.
    const s = await setup(driver, { 'b.txt': 'x'.repeat(90), 'c.txt': 'y'.repeat(20) }, { maxCachedBytes: 100 });
    await s.cache.entry('b.txt');
    expect(s.cache.entryState('b.txt')).toBe('fresh');
    await s.cache.entry('c.txt');
    expect(s.cache.entryState('b.txt')).toBe(to);
    expect(s.cache.entryState('c.txt')).toBe('fresh');
  });
});

describe('entry: unconfirmed', () => {
  entryMoveTest('unconfirmed', 'confirmed', ['disk'], async (s, to) => {
    await unconfirmed(s);
    const stats = s.stats();
    await s.cache.entry(P);
    expect(s.stats() - stats).toBe(1);
    expect(s.cache.entryState(P)).toBe(to);
  });
  entryMoveTest('unconfirmed', 'stale', ['disk'], async (s, to) => {
    await unconfirmed(s);
    await s.outside.rm(P);
    expect(await s.cache.entry(P)).toBe(null);
    expect(s.cache.entryState(P)).toBe(to);
  });
  entryMoveTest('unconfirmed', 'reported', ['disk'], async (s, to) => {
    await unconfirmed(s);
    const report = s.report(P);
    await s.outside.write(P, '{"v":2}');
    await report;
    expect(s.cache.entryState(P)).toBe(to);
    expect((await s.cache.entry(P))!.bytes).toEqual(text('{"v":2}'));
  });
  entryMoveTest('unconfirmed', 'changed', ['disk'], async (s, to) => {
    await unconfirmed(s);
    await s.vfs.write(P, text('{"v":2}'));
    expect(s.cache.entryState(P)).toBe(to);
  });
  entryMoveTest('unconfirmed', 'written', ['disk'], async (s, to) => {
    await unconfirmed(s);
    await s.cache.write(P, text('{"v":2}'), true);
    expect(s.cache.entryState(P)).toBe(to);
  });
  entryMoveTest('unconfirmed', 'evicted', ['disk'], async (_, to) => {
    const s = await setup('disk', { 'b.txt': 'x'.repeat(90), 'c.txt': 'y'.repeat(20) }, { maxCachedBytes: 100 });
    await s.cache.entry('b.txt');
    await age(WATCHED_RECHECK_MS);
    expect(s.cache.entryState('b.txt')).toBe('unconfirmed');
    await s.cache.entry('c.txt');
    expect(s.cache.entryState('b.txt')).toBe(to);
  });
});

/**
 * Stages `fileGone` from `from`: the lookup of `a` finds a.json, whose load is held while the
 * file goes (through the Vfs: every lookup is forgotten) and `then` brings the key into `from`;
 * the load then finds nothing, and the lookup made again at once is held to see the state.
 */
async function fileGone(s: Awaited<ReturnType<typeof setup>>, from: LookupState, to: LookupState, then: () => Promise<unknown>) {
  await s.look('a');
  const load = s.hold('stat');
  const reading = s.cache.lookupEntry('a', lookupTarget('a')!);
  await load.reached;
  await s.vfs.remove(P);
  await then();
  expect(s.cache.lookupState('a')).toBe(from);
  const again = s.hold('stat');
  load.release();
  await again.reached;
  expect(s.cache.lookupState('a')).toBe(to);
  again.release();
  expect(await reading).toBe(null);
}

describe('lookup: unknown', () => {
  lookupMoveTest('unknown', 'resolved', ['disk', 'memory'], async (s, to) => {
    expect(s.cache.lookupState('a')).toBe('unknown');
    expect(await s.look('a')).toBe(P);
    expect(s.cache.lookupState('a')).toBe(to);
  });
  lookupMoveTest('unknown', 'missed', ['disk', 'memory'], async (s, to, driver) => {
    expect(await s.look('none', driver === 'disk')).toBe(null); // disk: only a caller that accepts a plain miss
    expect(s.cache.lookupState('none')).toBe(to);
  });
  lookupMoveTest('unknown', 'missedWatched', ['disk'], async (s, to) => {
    expect(await s.look('none')).toBe(null);
    expect(s.cache.lookupState('none')).toBe(to);
  });
  lookupMoveTest('unknown', 'cleared', ['disk', 'memory'], async (s, to) => {
    await s.vfs.write('b.json', text('1'));
    expect(s.cache.lookupState('a')).toBe(to);
  });
  lookupMoveTest('unknown', 'fileGone', ['disk', 'memory'], async (s, to) => {
    await fileGone(s, 'unknown', to, async () => {});
  });
});

describe('lookup: found', () => {
  lookupMoveTest('found', 'resolved', ['disk'], async (s, to) => {
    await s.look('a');
    await age(LOOKUP_TTL_MS);
    const stats = s.stats();
    expect(await s.look('a')).toBe(P);
    expect(s.stats()).toBeGreaterThan(stats); // looked again
    expect(s.cache.lookupState('a')).toBe(to);
  });
  lookupMoveTest('found', 'missed', ['disk'], async (s, to) => {
    await s.look('a');
    await s.outside.rm(P);
    await age(LOOKUP_TTL_MS);
    expect(await s.look('a', true)).toBe(null);
    expect(s.cache.lookupState('a')).toBe(to);
  });
  lookupMoveTest('found', 'missedWatched', ['disk'], async (s, to) => {
    await s.look('a');
    await s.outside.rm(P);
    await age(LOOKUP_TTL_MS);
    expect(await s.look('a')).toBe(null);
    expect(s.cache.lookupState('a')).toBe(to);
  });
  lookupMoveTest('found', 'cleared', ['disk', 'memory'], async (s, to) => {
    await s.look('a');
    await s.cache.write(P, text('{"v":2}'), true); // a file overwritten in place moves no lookup
    expect(s.cache.lookupState('a')).toBe('found');
    await s.vfs.write('b.json', text('1'));
    expect(s.cache.lookupState('a')).toBe(to);
  });
  lookupMoveTest('found', 'fileGone', ['disk'], async (s, to) => {
    // The file went behind the cache's back: the found lookup is dropped and made again at once.
    await s.look('a');
    await s.outside.rm(P);
    const again = s.hold('stat', 'after'); // the load's stat
    const next = s.hold('stat');
    const reading = s.cache.lookupEntry('a', lookupTarget('a')!);
    await again.reached;
    expect(s.cache.lookupState('a')).toBe('found');
    again.release();
    await next.reached;
    expect(s.cache.lookupState('a')).toBe(to);
    next.release();
    expect(await reading).toBe(null);
  });
});

describe('lookup: missing', () => {
  lookupMoveTest('missing', 'resolved', ['disk'], async (s, to) => {
    await s.look('n', true);
    expect(s.cache.lookupState('n')).toBe('missing');
    await s.outside.write('n.json', '1');
    expect(await s.look('n')).toBe('n.json'); // a caller that does not take a plain miss looks again
    expect(s.cache.lookupState('n')).toBe(to);
  });
  lookupMoveTest('missing', 'missed', ['disk'], async (s, to) => {
    await s.look('n', true);
    await age(LOOKUP_TTL_MS);
    const stats = s.stats();
    expect(await s.look('n', true)).toBe(null);
    expect(s.stats()).toBeGreaterThan(stats);
    expect(s.cache.lookupState('n')).toBe(to);
  });
  lookupMoveTest('missing', 'missedWatched', ['disk'], async (s, to) => {
    await s.look('n', true);
    expect(await s.look('n')).toBe(null);
    expect(s.cache.lookupState('n')).toBe(to);
  });
  lookupMoveTest('missing', 'cleared', ['disk', 'memory'], async (s, to, driver) => {
    await s.look('n', driver === 'disk');
    expect(s.cache.lookupState('n')).toBe('missing');
    await s.vfs.write('b.json', text('1'));
    expect(s.cache.lookupState('n')).toBe(to);
  });
  lookupMoveTest('missing', 'fileGone', ['disk', 'memory'], async (s, to) => {
    await fileGone(s, 'missing', to, () => s.look('a', true));
  });
});

describe('lookup: watchedMiss', () => {
  lookupMoveTest('watchedMiss', 'resolved', ['disk'], async (s, to) => {
    await s.look('n');
    expect(s.cache.lookupState('n')).toBe('watchedMiss');
    s.holdFolderReports();
    const report = s.report('');
    await s.outside.write('n.json', '1');
    await report;
    await age(WATCHED_RECHECK_MS);
    expect(await s.look('n')).toBe('n.json');
    expect(s.cache.lookupState('n')).toBe(to);
    s.flushFolderReports(); // the folder's report now leaves the found lookup alone
    expect(s.cache.lookupState('n')).toBe('found');
  });
  lookupMoveTest('watchedMiss', 'missed', ['disk'], async (s, to) => {
    await s.look('n');
    await age(WATCHED_RECHECK_MS);
    expect(await s.look('n', true)).toBe(null);
    expect(s.cache.lookupState('n')).toBe(to);
  });
  lookupMoveTest('watchedMiss', 'missedWatched', ['disk'], async (s, to) => {
    await s.look('n');
    await age(WATCHED_RECHECK_MS);
    const stats = s.stats();
    expect(await s.look('n')).toBe(null);
    expect(s.stats()).toBeGreaterThan(stats);
    expect(s.cache.lookupState('n')).toBe(to);
  });
  lookupMoveTest('watchedMiss', 'cleared', ['disk'], async (s, to) => {
    await s.look('n');
    await s.vfs.write('b.json', text('1'));
    expect(s.cache.lookupState('n')).toBe(to);
  });
  lookupMoveTest('watchedMiss', 'folderReported', ['disk'], async (s, to) => {
    await s.look('n');
    expect(s.cache.lookupState('n')).toBe('watchedMiss');
    const report = s.report('');
    await s.outside.write('n.json', '1');
    await report;
    await until(() => s.cache.lookupState('n') !== 'watchedMiss');
    expect(s.cache.lookupState('n')).toBe(to);
    expect(await s.look('n')).toBe('n.json');
  });
  lookupMoveTest('watchedMiss', 'fileGone', ['disk'], async (s, to) => {
    await fileGone(s, 'watchedMiss', to, () => s.look('a'));
  });
});

describe('lookup: cleared when MAX_LOOKUPS are remembered', () => {
  it('memory: the 10 001st remembered lookup forgets the others first', async () => {
    const s = await setup('memory');
    await s.look('a');
    for (let i = 1; i < 10_000; i++) await s.look(`n${i}`);
    expect(s.cache.lookupState('a')).toBe('found');
    await s.look('n10000');
    expect(s.cache.lookupState('a')).toBe('unknown');
    expect(s.cache.lookupState('n10000')).toBe('missing');
  });
});

it('every move of both tables has its test above', () => {
  const all = [
    ...Object.entries(ENTRY_MOVES).flatMap(([from, moves]) => Object.keys(moves).map((e) => `entry ${from} ${e}`)),
    ...Object.entries(LOOKUP_MOVES).flatMap(([from, moves]) => Object.keys(moves).map((e) => `lookup ${from} ${e}`)),
  ];
  expect(all.filter((m) => !tested.has(m))).toEqual([]);
  expect([...tested].filter((m) => !all.includes(m))).toEqual([]);
});
