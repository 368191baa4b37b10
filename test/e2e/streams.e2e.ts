/**
 * Streams in Chromium through the worker host (test/e2e/site/streams.ts): `EventSource` and
 * `fetch` streaming read each event as it comes. Live delivery is proven with gates: the page's
 * handler yields event 2 only after the test saw event 1 in the page and opened the gate, so a
 * stream batched to its end would deadlock and fail by the test's timeout (no timing assertion).
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { launchChromium, type Browser } from './helpers/chromium.js';

const site = inject('siteUrl');
let browser: Browser;
let page: Page;

beforeAll(async () => {
  browser = await launchChromium();
  page = await browser.context.newPage();
  await page.goto(`${site}/streams.html`);
  expect(await page.evaluate(() => (window as any).mockyard.started)).toBe('ok');
});
afterAll(async () => {
  await browser?.close();
});

describe('streams in the page (worker host)', () => {
  it('EventSource gets event 1 before event 2 is produced (gated), with its type and id', async () => {
    const got = await page.evaluate(() => new Promise<string[]>((resolve, reject) => {
      const seen: string[] = [];
      const es = new EventSource('/api/gated/es');
      es.onmessage = (e) => {
        seen.push(`message ${e.lastEventId} ${e.data}`);
        (window as any).mockyard.release('es'); // only now is event 2 produced
      };
      es.addEventListener('last', (e) => {
        seen.push(`last ${(e as MessageEvent).lastEventId} ${(e as MessageEvent).data}`);
        es.close();
        resolve(seen);
      });
      es.onerror = () => {
        if (seen.length === 0) reject(new Error('EventSource failed before any event'));
      };
    }));
    expect(got).toEqual(['message 1 one', 'last 2 {"n":2}']);
  });

  it('fetch streaming reads chunks as they come (gated): SSE, NDJSON, Express-style res.write', async () => {
    const got = await page.evaluate(async () => {
      const read = async (path: string, gateName: string, until: (text: string) => boolean) => {
        const response = await fetch(path);
        const reader = response.body!.getReader();
        const decoder = new TextDecoder();
        let text = '';
        while (!until(text)) {
          const { done, value } = await reader.read();
          if (done) return { type: response.headers.get('content-type'), first: text, rest: 'ended early' };
          text += decoder.decode(value, { stream: true });
        }
        const first = text;
        (window as any).mockyard.release(gateName);
        let rest = '';
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          rest += decoder.decode(value, { stream: true });
        }
        return { type: response.headers.get('content-type'), first, rest };
      };
      return {
        sse: await read('/api/gated/fetch', 'fetch', (t) => t.includes('\n\n')),
        rows: await read('/api/rows', 'rows', (t) => t.includes('\n')),
        written: await read('/api/written', 'written', (t) => t.includes('\n\n')),
      };
    });
    expect(got.sse).toEqual({ type: 'text/event-stream; charset=utf-8', first: 'id: 1\ndata: one\n\n', rest: 'id: 2\nevent: last\ndata: {"n":2}\n\n' });
    expect(got.rows).toEqual({ type: 'application/x-ndjson; charset=utf-8', first: '{"n":1}\n', rest: '{"n":2}\n' });
    expect(got.written).toEqual({ type: 'text/event-stream', first: 'data: one\n\n', rest: 'data: two\n\n' });
  });

  it('EventSource replays a recorded .sse file in order (speed 0 per request)', async () => {
    const got = await page.evaluate(() => new Promise<string[]>((resolve) => {
      const seen: string[] = [];
      const es = new EventSource('/api/chat?__speed=0');
      es.onmessage = (e) => {
        seen.push(e.data);
        if (e.data === '[DONE]') {
          es.close();
          resolve(seen);
        }
      };
    }));
    expect(got).toEqual(['{"choices":[{"delta":{"content":"Hel"}}]}', '{"choices":[{"delta":{"content":"lo"}}]}', '[DONE]']);
  });

  it('the page aborting a fetch stream ends the handler\'s generator (its finally runs)', async () => {
    await page.evaluate(async () => {
      const abort = new AbortController();
      const response = await fetch('/api/endless', { signal: abort.signal });
      const reader = response.body!.getReader();
      const decoder = new TextDecoder();
      let text = '';
      while (text.split('\n\n').length < 3) text += decoder.decode((await reader.read()).value, { stream: true });
      abort.abort();
    });
    await page.waitForFunction(() => (window as any).mockyard.endedWith() !== undefined);
    expect(await page.evaluate(() => (window as any).mockyard.endedWith())).toBe('aborted');
  });
});
