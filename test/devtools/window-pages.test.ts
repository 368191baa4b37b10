/**
 * The Events tab's window read (src/devtools/page/window-pages.ts) against a real collector
 * engine, called in-process as the page host calls it: the newest page first with the window's
 * exact total, then the older pages by cursor; events stored between pages neither repeat nor
 * shift a page (they are the push socket's), and every event of the window arrives once, in order.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createCollector } from '../../src/tracker/collector.js';
import { FIRST_PAGE, PAGE, readWindowInPages, type WindowPage } from '../../src/devtools/page/window-pages.js';

const T0 = Date.parse('2026-03-01T10:00:00Z');
const N = FIRST_PAGE + PAGE + 321;

describe('the Events tab reads its window in pages', () => {
  const c = createCollector({ appId: 'pages', logLevel: 'silent', readCompression: 'none' });
  afterEach(() => c.close());

  const ingest = async (events: object[]) => {
    const res = await c.handle(new Request('http://127.0.0.1/_tracker/events', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ type: 'ingest', events }) }));
    expect([res?.status, await res?.text()]).toEqual([200, expect.any(String)]);
  };

  it('newest page first with the exact total, the rest by cursor, each event once', async () => {
    for (let done = 0; done < N; ) {
      const batch = [];
      for (let i = 0; i < 500 && done < N; i++, done++) batch.push({ id: '', timestamp: new Date(T0 - done * 1000).toISOString(), type: 'view', n: done });
      await ingest(batch);
    }
    const transport = async (path: string, init?: RequestInit) => {
      const res = (await c.handle(new Request(`http://127.0.0.1${path}`, init)))!;
      // Stored right after the first read: one newer event and one in the middle of the unread part.
      if (!path.includes('cursor=')) await ingest([{ id: '', timestamp: new Date(T0 + 1000).toISOString(), type: 'late-new' }, { id: '', timestamp: new Date(T0 - 5000 * 1000 - 500).toISOString(), type: 'late-old' }]);
      return res;
    };
    const pages: WindowPage[] = [];
    await readWindowInPages(transport, '/_tracker', { since: T0 - 86_400_000, until: T0 + 60_000 }, '', new AbortController().signal, (page) => pages.push(page));
    expect(pages.map((p) => [p.events.length, p.total, p.loaded, p.first, p.last])).toEqual([
      [FIRST_PAGE, N, FIRST_PAGE, true, false],
      [PAGE, N, FIRST_PAGE + PAGE, false, false],
      [322, N, N + 1, false, true],
    ]);
    const all = pages.flatMap((p) => p.events);
    expect(all[0]!.n).toBe(0); // the newest stored before the read; `late-new` comes by push
    expect(new Set(all.map((e) => e.id)).size).toBe(all.length);
    expect(all.filter((e) => e.type === 'late-old')).toHaveLength(1);
    const times = all.map((e) => Date.parse(e.timestamp));
    expect(times.every((t, i) => i === 0 || times[i - 1]! >= t)).toBe(true);
  });

  it('a read refused names the reason (the collector wants its key)', async () => {
    const keyed = createCollector({ appId: 'pages', logLevel: 'silent', readCompression: 'none', apiKey: 'k' });
    const transport = async (path: string, init?: RequestInit) => (await keyed.handle(new Request(`http://127.0.0.1${path}`, init)))!;
    await expect(readWindowInPages(transport, '/_tracker', { since: T0 - 1000, until: T0 }, '', new AbortController().signal, () => {})).rejects.toThrow('401: the collector needs its API key');
    let seen = 0;
    await readWindowInPages(transport, '/_tracker', { since: T0 - 1000, until: T0 }, 'k', new AbortController().signal, (p) => (seen += p.last ? 1 : 0));
    expect(seen).toBe(1);
    await keyed.close();
  });
});
