/**
 * The collector's loading by state (src/tracker/loading-state.ts): for each
 * state, each event it accepts is driven through a real StorageState over a real PostgreSQL
 * store on a throwaway server that the tests stop (immediate shutdown) and start again, and
 * lands where the table says; what a state refuses throws. Then the same machine as the outside
 * sees it: a collector on 127.0.0.1 whose ping turns 503 and back to 200, over PostgreSQL and over
 * an events folder on disk that cannot be read at first.
 *
 * Skipped without the server binaries (store-contract.test.ts fails under CI without them).
 */
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { postgresStore } from '../../src/node/postgres/index.js';
import { serve, type RunningServer } from '../../src/node/serve.js';
import { LOADING_MOVES, storageMove, type LoadingEvent, type LoadingStateName } from '../../src/tracker/loading-state.js';
import { StorageState } from '../../src/tracker/storage-state.js';
import type { EventStore } from '../../src/tracker/store.js';
import { diskFs } from '../../src/vfs/disk.js';
import { postgresBinaries, startPostgres, type PostgresServer } from '../helpers/postgres-server.js';
import { makeTempDir, removeTempDirs } from '../helpers/temp-dir.js';

const hasServer = postgresBinaries() !== undefined;
const silent = { debug() {}, info() {}, warn() {}, error() {} };
const EVENTS: LoadingEvent[] = ['loaded', 'loadFailed', 'due', 'failed', 'close'];
let pg: PostgresServer | undefined;
let tables = 0;
const cleanups: Array<() => Promise<unknown> | unknown> = [];

beforeAll(async () => {
  if (hasServer) pg = await startPostgres();
}, 180_000);
afterEach(async () => {
  pg?.up();
  for (const c of cleanups.splice(0).reverse()) await c();
  await removeTempDirs();
}, 30_000);
afterAll(() => pg?.stop(), 60_000);

async function until(what: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await what()) && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
  expect(await what()).toBe(true);
}

/**
 * A StorageState over a real PostgreSQL store. `attempts` records the machine's state as each
 * attempt (load or probe) starts; `during` runs inside the next attempt, before it reaches the
 * database.
 */
function machine() {
  const store: EventStore = postgresStore({ url: pg!.url, table: `states_${process.pid}_${++tables}` })({ appId: 'states', logger: silent as never, maxAgeMs: undefined, retainEvents: undefined });
  const attempts: LoadingStateName[] = [];
  let during: (() => void) | undefined;
  for (const k of ['load', 'probe'] as const) {
    const real = store[k]!.bind(store);
    store[k] = async () => {
      attempts.push(state?.loadingState ?? 'connecting'); // the first one starts in the constructor
      const d = during;
      during = undefined;
      d?.();
      await real();
    };
  }
  let state: StorageState | undefined;
  state = new StorageState(store, silent as never, 'PostgreSQL under test', async () => {});
  const made = state;
  cleanups.push(async () => {
    made.close();
    await made.firstAttempt;
    await store.close();
  });
  return {
    state: made,
    store,
    attempts,
    set during(f: () => void) {
      during = f;
    },
    /** A store call that fails because the database is down: what the collector hands to `failed()`. */
    async failingCall(): Promise<unknown> {
      return store.append({ events: ['{"id":"x","timestamp":"2026-01-01T00:00:00.000Z"}'], times: [Date.parse('2026-01-01T00:00:00Z')] } as never).then(
        () => undefined,
        (err: unknown) => err,
      );
    },
  };
}
type Machine = ReturnType<typeof machine>;

/** Brings a machine into `state` (the database down for waiting). */
async function reach(name: LoadingStateName): Promise<Machine> {
  if (name === 'waiting') pg!.down();
  const m = machine();
  if (name === 'connecting') return m;
  await m.state.firstAttempt;
  if (name === 'closed') m.state.close();
  expect(m.state.loadingState).toBe(name);
  return m;
}

/** Each accepted pair, through the real machine; `retrying` is observed from inside an attempt. */
const CASES: { [S in LoadingStateName]: { [E in LoadingEvent]?: () => Promise<void> } } = {
  connecting: {
    async loaded() {
      const m = await reach('connecting');
      expect(m.state.loadingState).toBe('connecting');
      await m.state.firstAttempt;
      expect(m.state.loadingState).toBe('ready');
      expect(m.state.status()).toEqual({ state: 'ready' });
    },
    async loadFailed() {
      pg!.down();
      const m = await reach('connecting');
      await m.state.firstAttempt;
      expect(m.state.loadingState).toBe('waiting');
      expect(m.state.status()).toMatchObject({ state: 'unavailable', reason: expect.stringMatching(/unreachable|not accepting/) });
    },
    async close() {
      const m = await reach('connecting');
      m.state.close();
      expect(m.state.loadingState).toBe('closed');
      await m.state.firstAttempt; // its load ends later: still closed
      expect(m.state.loadingState).toBe('closed');
    },
  },
  ready: {
    async failed() {
      const m = await reach('ready');
      pg!.down();
      expect(m.state.failed(await m.failingCall())).toBe(true);
      expect(m.state.loadingState).toBe('waiting');
      expect(m.state.status().state).toBe('unavailable');
    },
    async close() {
      const m = await reach('ready');
      m.state.close();
      expect(m.state.loadingState).toBe('closed');
    },
  },
  waiting: {
    async due() {
      const m = await reach('waiting');
      await until(() => m.attempts.length >= 2); // the timer fired: an attempt (while retrying)
      expect(m.attempts.slice(1).every((s) => s === 'retrying')).toBe(true);
      expect(m.state.loadingState).not.toBe('ready');
    },
    async failed() {
      pg!.down();
      const m = machine();
      const err = await m.failingCall();
      await m.state.firstAttempt;
      expect(m.state.loadingState).toBe('waiting');
      expect(m.state.failed(err)).toBe(true);
      expect(m.state.loadingState).toBe('waiting');
    },
    async close() {
      const m = await reach('waiting');
      m.state.close();
      const tried = m.attempts.length;
      pg!.up();
      await new Promise((r) => setTimeout(r, 600)); // past the first retry's 250 ms
      expect(m.attempts.length).toBe(tried);
      expect(m.state.loadingState).toBe('closed');
    },
  },
  retrying: {
    async loaded() {
      const m = await reach('waiting');
      m.during = () => expect(m.state.loadingState).toBe('retrying');
      pg!.up();
      await until(() => m.state.loadingState === 'ready');
      expect(m.state.status()).toEqual({ state: 'ready' });
    },
    async loadFailed() {
      const m = await reach('waiting');
      const before = m.attempts.length;
      await until(() => m.attempts.length > before && m.state.loadingState === 'waiting');
      expect(m.attempts.at(-1)).toBe('retrying');
    },
    async failed() {
      const m = await reach('waiting');
      const err = await m.failingCall();
      let inside: LoadingStateName | undefined;
      m.during = () => {
        m.state.failed(err); // a request's store call fails while the retry is under way
        inside = m.state.loadingState;
      };
      await until(() => inside !== undefined);
      expect(inside).toBe('retrying');
    },
    async close() {
      const m = await reach('waiting');
      m.during = () => m.state.close();
      pg!.up(); // the attempt closed under way would succeed: still closed
      await until(() => m.state.loadingState === 'closed');
      await new Promise((r) => setTimeout(r, 300));
      expect(m.state.loadingState).toBe('closed');
    },
  },
  closed: {},
};

describe.skipIf(!hasServer)('the collector loading machine by state, over a real PostgreSQL server', () => {
  describe.each(Object.keys(LOADING_MOVES) as LoadingStateName[])('in %s', (from) => {
    if (from === 'closed') {
      it('every event → closed: an attempt or a store call ending after close() changes nothing', async () => {
        for (const e of EVENTS) expect(storageMove('closed', e)).toBe('closed');
        const m = await reach('closed');
        pg!.down();
        expect(m.state.failed(await m.failingCall())).toBe(false);
        m.state.close();
        expect(m.state.loadingState).toBe('closed');
        // A first load that fails after close(): loadFailed in closed.
        const late = machine();
        late.state.close();
        await late.state.firstAttempt;
        expect(late.attempts).toEqual(['connecting']);
        expect(late.state.loadingState).toBe('closed');
        expect(late.state.status().state).toBe('connecting'); // the status never told unavailable
      });
      return;
    }
    for (const event of EVENTS.filter((e) => LOADING_MOVES[from][e] !== undefined)) {
      it(`${event} → ${LOADING_MOVES[from][event]}`, async () => {
        const run = CASES[from][event];
        expect(run, `no case for ${from} + ${event}`).toBeDefined();
        await run!();
      }, 30_000);
    }
    const refused = EVENTS.filter((e) => LOADING_MOVES[from][e] === undefined);
    it(`refuses ${refused.join(', ')}`, () => {
      for (const e of refused) expect(() => storageMove(from, e)).toThrow(`'${e}' is refused in state '${from}'`);
    });
  });
});

describe('the collector loading machine as the outside sees it (ping on 127.0.0.1)', () => {
  const ping = async (s: RunningServer) => (await fetch(`${s.url}/_tracker/ping`)).status;
  async function collectorOn(storage: Record<string, unknown>): Promise<RunningServer> {
    const s = await serve({ port: 0, host: '127.0.0.1', logLevel: 'silent', tracker: { appId: 'states', logLevel: 'silent', storage } });
    cleanups.push(() => s.close());
    return s;
  }

  it.skipIf(!hasServer)('PostgreSQL: ready 200 → database gone: 503 → back: 200, without a restart', async () => {
    const s = await collectorOn({ postgres: { url: pg!.url, table: `states_${process.pid}_${++tables}` } });
    expect(await ping(s)).toBe(200);
    pg!.down();
    await until(async () => (await ping(s)) === 503);
    pg!.up();
    await until(async () => (await ping(s)) === 200);
  }, 60_000);

  it('an events folder that cannot be read at start-up: 503 while it retries, 200 once it loads', async () => {
    const dir = await makeTempDir('mockyard-loading-');
    await writeFile(join(dir, 'events'), 'a file where the folder should be');
    const s = await collectorOn({ fs: diskFs(dir), dir: 'events' });
    expect(await ping(s)).toBe(503);
    await rm(join(dir, 'events'));
    await until(async () => (await ping(s)) === 200);
  });
});
