/**
 * `delay: [min, max]` (uniform per request) globally and per handler; the gateway timeout applies
 * to the drawn value; delays run on the platform clock under fake timers.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { OptionsError } from '../../../src/core/options.js';
import { afterDelay, delayDraw, NO_DELAY } from '../../../src/engine/delay.js';
import { resolveMockApiOptions } from '../../../src/engine/options.js';
import { call, closeApis, mockApi } from './engine-helpers.js';

afterEach(async () => {
  vi.restoreAllMocks();
  vi.useRealTimers();
  await closeApis();
});

describe('delay option', () => {
  it('accepts ms or [min, max] and names the bad part', () => {
    const bad: Array<[unknown, string]> = [
      [[5, 1], 'mock.delay[1]'],
      [[-1, 3], 'mock.delay[0]'],
      [[1], 'mock.delay'],
      [[1, 2, 3], 'mock.delay'],
      [['1', 2], 'mock.delay[0]'],
      ['fast', 'mock.delay'],
    ];
    for (const [delay, option] of bad) {
      let err: unknown;
      try {
        resolveMockApiOptions({ endpointPrefix: '/api', delay: delay as never });
      } catch (e) {
        err = e;
      }
      expect(err, JSON.stringify(delay)).toBeInstanceOf(OptionsError);
      expect((err as OptionsError).option).toBe(option);
    }
    expect(() => resolveMockApiOptions({ endpointPrefix: '/api', handlers: [{ pattern: '/x', delay: [3, 2], handle: () => 1 }] })).toThrow(/mock\.handlers\[0\]\.delay\[1\]/);
    expect(resolveMockApiOptions({ endpointPrefix: '/api', delay: [0, 0] }).delay).toBe(NO_DELAY);
    expect(resolveMockApiOptions({ endpointPrefix: '/api' }).delay).toBe(NO_DELAY);
    expect(resolveMockApiOptions({ endpointPrefix: '/api', delay: 7 }).delay()).toBe(7);
  });

  it('draws uniformly between min and max', () => {
    const random = vi.spyOn(Math, 'random');
    const draw = delayDraw([100, 300]);
    random.mockReturnValueOnce(0);
    expect(draw()).toBe(100);
    random.mockReturnValueOnce(0.5);
    expect(draw()).toBe(200);
    random.mockReturnValueOnce(0.999);
    expect(draw()).toBeCloseTo(299.8);
  });

  it('gateway: a drawn value at or past the timeout is a 504 after the timeout; a fixed delay is waited in full', () => {
    const random = vi.spyOn(Math, 'random');
    const range = delayDraw([0, 200]);
    random.mockReturnValue(0.25);
    expect(afterDelay(range, 100)).toEqual({ wait: 50, timedOut: false });
    random.mockReturnValue(0.5);
    expect(afterDelay(range, 100)).toEqual({ wait: 100, timedOut: true });
    random.mockReturnValue(0.9);
    expect(afterDelay(range, 100)).toEqual({ wait: 100, timedOut: true });
    expect(afterDelay(range, 0)).toEqual({ wait: 180, timedOut: false });
    expect(afterDelay(delayDraw(5000), 100)).toEqual({ wait: 5000, timedOut: false });
  });
});

describe('delay ranges in the engine', () => {
  it('a handler range is drawn per request (a low draw answers without waiting for max)', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    const api = mockApi({ handlers: [{ pattern: '/slow', delay: [0, 600_000], handle: () => ({ ok: true }) }] });
    const res = await call(api, '/api/slow');
    expect(res.status).toBe(200);
  });

  it('a global range applies to file mode too', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    const api = mockApi({ delay: [0, 600_000] }, { 'users.json': [{ id: 1 }] });
    expect(await (await call(api, '/api/users')).json()).toEqual([{ id: 1 }]);
  });

  it('a draw past gatewayTimeout answers 504 through errorMiddlewares (handler never runs)', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0.9);
    let ran = false;
    const api = mockApi({
      gatewayTimeout: 20,
      errorMiddlewares: [(err, _req, res) => res.status(err.status).json({ seen: err.status })],
      handlers: [{ pattern: '/slow', delay: [1_000, 600_000], handle: () => ((ran = true), { ok: true }) }],
    });
    const res = await call(api, '/api/slow');
    expect(res.status).toBe(504);
    expect(await res.json()).toEqual({ seen: 504 });
    expect(ran).toBe(false);
  });

  it('a global draw past gatewayTimeout answers 504 in file mode', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0.5);
    const api = mockApi({ gatewayTimeout: 20, delay: [1_000, 600_000] }, { 'users.json': [] });
    const res = await call(api, '/api/users');
    expect(res.status).toBe(504);
    expect((await res.json()).message).toBe('Gateway Timeout');
  });

  it('does not deadlock under fake timers (delays run on the platform clock)', async () => {
    vi.useFakeTimers();
    const api = mockApi(
      { delay: 20, handlers: [{ pattern: '/h', delay: [10, 30], handle: () => ({ ok: 1 }) }] },
      { 'a.json': { a: 1 } },
    );
    expect((await call(api, '/api/h')).status).toBe(200);
    expect((await call(api, '/api/a')).status).toBe(200);
  });

  it('under fake timers a delay also ends when the test advances the clock', async () => {
    vi.useFakeTimers();
    const api = mockApi({ handlers: [{ pattern: '/h', delay: 600_000, handle: () => ({ ok: 1 }) }] });
    let done = false;
    const pending = call(api, '/api/h').then((r) => ((done = true), r));
    await vi.advanceTimersByTimeAsync(599_000);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1_000);
    expect((await pending).status).toBe(200);
  });

  it('advancing a fake clock past gatewayTimeout answers 504, as the real clock would', async () => {
    vi.useFakeTimers();
    const api = mockApi({ gatewayTimeout: 600_000, handlers: [{ pattern: '/h', handle: () => new Promise(() => {}) }] });
    const pending = call(api, '/api/h');
    await vi.advanceTimersByTimeAsync(600_000);
    expect((await pending).status).toBe(504);
  });
});
