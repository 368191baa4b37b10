/**
 * Timers for the engines' delay and gateway timeout that work under a test runner's fake timers.
 *
 * A test that awaits a mocked `fetch` under `vi.useFakeTimers()` / `jest.useFakeTimers()` would
 * deadlock on a delay that only the test itself can move forward. So `startTimer` arms the
 * platform's own timer and, while fake timers are installed, the fake one too: whichever fires
 * first wins. Awaiting simply takes the real time; `vi.advanceTimersByTime(ms)` gets there at
 * once, as a test of a loading state expects.
 *
 * @sinonjs/fake-timers (behind vitest's and jest's modern fake timers) keeps the replaced
 * functions on the clock (`setTimeout.clock._setTimeout`); other mocks (jest's legacy timers,
 * `_isMockFunction`) are bypassed with the functions this module saw when it was loaded.
 */
type Timer = ReturnType<typeof setTimeout>;
type FakeAware = { clock?: { _setTimeout?: typeof setTimeout; _clearTimeout?: typeof clearTimeout }; _isMockFunction?: boolean };

const loadedSetTimeout = globalThis.setTimeout;
const loadedClearTimeout = globalThis.clearTimeout;

/** Calls `callback` once after `ms` on whichever clock gets there first; returns the cancel function. */
export function startTimer(callback: () => void, ms: number): () => void {
  const current = globalThis.setTimeout as unknown as FakeAware;
  const clock = current.clock;
  const realSet = clock?._setTimeout ?? (current._isMockFunction ? loadedSetTimeout : globalThis.setTimeout);
  const realClear = clock?._clearTimeout ?? (current._isMockFunction ? loadedClearTimeout : globalThis.clearTimeout);
  let fired = false;
  let fake: Timer | undefined;
  const fire = () => {
    if (fired) return;
    fired = true;
    realClear(real);
    if (fake !== undefined) globalThis.clearTimeout(fake);
    callback();
  };
  const real = realSet(fire, ms);
  if (realSet !== globalThis.setTimeout) fake = globalThis.setTimeout(fire, ms);
  return () => {
    if (fired) return;
    fired = true;
    realClear(real);
    if (fake !== undefined) globalThis.clearTimeout(fake);
  };
}

/** Resolves after `ms` on `start`'s clock (startTimer's by default), or at once when `signal` aborts. */
export function abortableSleep(ms: number, signal: AbortSignal, start: (callback: () => void, ms: number) => () => void = startTimer): Promise<void> {
  if (ms <= 0 || signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const cancel = start(done, ms);
    function done() {
      cancel();
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
