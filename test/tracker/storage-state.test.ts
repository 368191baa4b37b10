/**
 * The collector's store availability (src/tracker/storage-state.ts): after a failed load, the
 * store is tried again in the background with a capped, doubling backoff until it answers, with
 * no request needed. Measured on a fake clock: the attempts' times are exact.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RETRY_MAX_MS, RETRY_MIN_MS, StorageState, storageUnavailable } from '../../src/tracker/storage-state.js';
import type { EventStore } from '../../src/tracker/store.js';

afterEach(() => vi.useRealTimers());

const silent = { debug() {}, info() {}, warn() {}, error() {} };

/** A store whose first `failures` loads throw "unreachable"; records the (fake) time of each load. */
function flakyStore(failures: number): { store: EventStore; loads: number[] } {
  const loads: number[] = [];
  const store = {
    async load() {
      loads.push(Date.now());
      if (loads.length <= failures) throw storageUnavailable('unreachable (ECONNREFUSED)');
    },
  } as unknown as EventStore;
  return { store, loads };
}

describe('StorageState: background retries', () => {
  it('retry after 250 ms, doubling up to the 2 s cap, until the store loads; then ready', async () => {
    vi.useFakeTimers({ now: 0 });
    const { store, loads } = flakyStore(6);
    const state = new StorageState(store, silent as never, 'the test store', async () => {});
    await state.firstAttempt;
    expect(state.state).toBe('unavailable');
    while (state.state !== 'ready') await vi.advanceTimersToNextTimerAsync();
    const gaps = loads.slice(1).map((t, i) => t - loads[i]!);
    expect(gaps).toEqual([RETRY_MIN_MS, 500, 1000, RETRY_MAX_MS, RETRY_MAX_MS, RETRY_MAX_MS]);
    expect([RETRY_MIN_MS, RETRY_MAX_MS]).toEqual([250, 2000]);
    expect(vi.getTimerCount()).toBe(0); // nothing left waiting once ready
    state.close();
  });

  it('close() ends the retries', async () => {
    vi.useFakeTimers({ now: 0 });
    const { store, loads } = flakyStore(Infinity);
    const state = new StorageState(store, silent as never, 'the test store', async () => {});
    await state.firstAttempt;
    await vi.advanceTimersToNextTimerAsync();
    const tried = loads.length;
    state.close();
    await vi.advanceTimersByTimeAsync(10 * RETRY_MAX_MS);
    expect(loads.length).toBe(tried);
  });
});
