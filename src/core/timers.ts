/**
 * The platform's own timers, for the engines' delay and gateway timeout, even while a test runner
 * has installed fake timers. A test that awaits a mocked `fetch` under `vi.useFakeTimers()` /
 * `jest.useFakeTimers()` would otherwise wait for a timer that only moves when the test itself
 * advances the clock: a deadlock. @sinonjs/fake-timers (behind vitest's and jest's modern fake
 * timers) keeps the replaced functions on the clock (`setTimeout.clock._setTimeout`); other
 * mocks (jest's legacy timers) get the functions this module saw when it was loaded.
 * Without fake timers these are simply `setTimeout` / `clearTimeout`.
 */
type Timer = ReturnType<typeof setTimeout>;
type FakeAware = { clock?: { _setTimeout?: typeof setTimeout; _clearTimeout?: typeof clearTimeout }; _isMockFunction?: boolean };

const loadedSetTimeout = globalThis.setTimeout;
const loadedClearTimeout = globalThis.clearTimeout;

function current<T extends typeof setTimeout | typeof clearTimeout>(fn: T, key: '_setTimeout' | '_clearTimeout', loaded: T): T {
  const fake = fn as unknown as FakeAware;
  const original = fake.clock?.[key] as T | undefined;
  if (original) return original;
  return fake._isMockFunction ? loaded : fn;
}

export function realSetTimeout(callback: () => void, ms: number): Timer {
  return current(globalThis.setTimeout, '_setTimeout', loadedSetTimeout)(callback, ms);
}

export function realClearTimeout(timer: Timer): void {
  current(globalThis.clearTimeout, '_clearTimeout', loadedClearTimeout)(timer);
}
