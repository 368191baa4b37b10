import { afterEach, describe, expect, it, vi } from 'vitest';
import { createCollector } from '../../src/tracker/collector.js';
import type { Collector } from '../../src/tracker/types.js';
import { memoryFs } from '../../src/vfs/memory.js';
import { batch, ev, ingest, read } from './collector-client.js';

let c: Collector | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await c?.close();
});

const WINDOW = { since: '2026-03-01T00:00:00Z', until: '2026-03-02T23:59:59Z' };

function dayOfEvents(tag: string) {
  const events = [];
  for (let h = 0; h < 30; h++) for (let i = 0; i < 40; i++) events.push(ev(new Date(Date.UTC(2026, 2, 1, h, i)).toISOString(), { tag, h, i }));
  return events;
}

describe('background deflate of settled hours', () => {
  it('reads after the warm-up passes give the same events as before, also after changes', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    c = createCollector({ appId: 'w', logLevel: 'silent' });
    await ingest(c, batch(dayOfEvents('a').slice(0, 1000)));
    const before = (await read(c, WINDOW)).json;
    await vi.advanceTimersByTimeAsync(3000); // passes: mark, then deflate hour by hour
    const warm = (await read(c, WINDOW)).json;
    expect(warm).toEqual(before);
    await ingest(c, batch(dayOfEvents('a').slice(1000)));
    await ingest(c, batch([ev('2026-03-01T05:30:30Z', { tag: 'late' })]));
    await vi.advanceTimersByTimeAsync(3000);
    const after = (await read(c, WINDOW)).json;
    expect(after.total).toBe(1201);
    expect(after.events.map((e: any) => e.h ?? 'late')).toEqual(
      [...dayOfEvents('a')].reverse().map((e) => e.h).toSpliced(1200 - (5 * 40 + 31), 0, 'late'),
    );
  });

  it('a restarted collector deflates its loaded hours and still reads identically', async () => {
    const fs = memoryFs();
    const first = createCollector({ appId: 'w', logLevel: 'silent', storage: { fs } });
    await ingest(first, batch(dayOfEvents('b')));
    const before = (await read(first, WINDOW)).json;
    await first.close();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    c = createCollector({ appId: 'w', logLevel: 'silent', storage: { fs } });
    await c.ready;
    await vi.advanceTimersByTimeAsync(2000);
    expect((await read(c, WINDOW)).json).toEqual(before);
  });
});
