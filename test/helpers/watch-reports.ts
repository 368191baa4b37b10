/**
 * Waiting for a Vfs's watch reports instead of guessing when they come: `watchReports(vfs)` wraps
 * `watch`/`watchFolder` so a test can `await reports.next(path)` after an outside edit (the
 * kernel's report through fs.watch reaches the cache or driver first, then the promise
 * resolves). Install it before whatever registers the watches. `clockStopped(body)` runs `body`
 * with `performance.now()` standing still, so a re-check time bound cannot expire however slow
 * the machine is.
 */
import { vi } from 'vitest';
import type { Vfs } from '../../src/vfs/types.js';

/**
 * `next(path)` resolves after the next report for the watch of `path` (a file, or a folder: '' is
 * the root) has been handed on.
 */
export function watchReports(fs: Vfs): { next(path: string): Promise<void> } {
  const waiting: Array<{ path: string; resolve: () => void }> = [];
  for (const method of ['watch', 'watchFolder'] as const) {
    const original = fs[method]?.bind(fs);
    if (original === undefined) continue;
    fs[method] = (path, report: (ended: boolean, name?: string) => void) =>
      original(path, (ended: boolean, name?: string) => {
        report(ended, name);
        for (const w of waiting.filter((w) => w.path === path)) {
          waiting.splice(waiting.indexOf(w), 1);
          w.resolve();
        }
      });
  }
  return { next: (path) => new Promise<void>((resolve) => waiting.push({ path, resolve })) };
}

/**
 * Runs `body` with `performance.now()` standing still, so a time bound (WATCHED_RECHECK_MS)
 * cannot expire however slow the machine is: what the test sees then comes from watch reports
 * alone.
 */
export async function clockStopped<T>(body: () => Promise<T>): Promise<T> {
  const clock = vi.spyOn(performance, 'now').mockReturnValue(performance.now());
  try {
    return await body();
  } finally {
    clock.mockRestore();
  }
}
