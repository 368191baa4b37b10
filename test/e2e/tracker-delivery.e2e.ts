/**
 * The tracker client's delivery in real Chromium, each delivery situation repeated
 * RUNS times with the stored count asserted exact (no loss, no duplicate):
 *   - against the real node host (serve() with a collector and an apiKey) on another origin, through a proxy
 *     that adds latency, goes down, or loses the collector's WebSocket acks;
 *   - in browser mode: the collector in the page behind the service worker, events on IndexedDB.
 * One browser; every run is a new tab with its own run id (events carry it; counts are per run),
 * its own persist key and (browser mode) its own IndexedDB. "Exact" is judged once nothing is left
 * to arrive: the client's queue is empty and (node host) no request is open at the proxy.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { serve } from '../../src/node/index.js';
import { launchChromium, type Browser } from './helpers/chromium.js';
import { startCollectorProxy, type CollectorProxy } from './helpers/collector-proxy.js';

const RUNS = Number(process.env.TRACKER_E2E_RUNS ?? 10);
const KEY = 'e2e-key';
const site = inject('siteUrl');
let browser: Browser;
let collector: Awaited<ReturnType<typeof serve>>;
let proxy: CollectorProxy;
let seq = 0;
/** Uncaught errors of the test pages. */
const errors: string[] = [];

type Host = 'node' | 'sw';
interface Stats {
  queued: number;
  inFlight: number;
  sent: number;
  dropped: number;
  droppedBy: Record<string, number>;
  truncated: number;
  state: string;
}
type Stored = Array<Record<string, unknown>>;

beforeAll(async () => {
  browser = await launchChromium();
  // With a key, as a real deployment: every fetch carries X-Tracker-Key (a CORS preflight before
  // each keepalive request), beacons carry ?key=, the WebSocket sends auth first.
  collector = await serve({ tracker: { appId: 'e2e-tracker', apiKey: KEY, logLevel: 'silent' }, port: 0, host: '127.0.0.1', logLevel: 'silent' });
  proxy = await startCollectorProxy(collector.url);
});
afterAll(async () => {
  await browser?.close();
  await proxy?.close();
  await collector?.close();
});

const window24h = () => `since=${new Date(Date.now() - 86400_000).toISOString()}&until=${new Date(Date.now() + 86400_000).toISOString()}`;

class Run {
  readonly id = `r${Date.now().toString(36)}${(seq++).toString(36)}`;
  page!: Page;
  constructor(readonly host: Host, readonly extra = '') {}

  url(more = ''): string {
    const q = this.host === 'node' ? `host=node&collector=${encodeURIComponent(proxy.url)}&key=${KEY}` : 'host=sw';
    return `${site}/tracker.html?${q}&run=${this.id}${this.extra}${more}`;
  }

  async open(more = ''): Promise<void> {
    this.page = await browser.context.newPage();
    this.page.on('pageerror', (err) => errors.push(`${this.id}: ${err.message}`));
    await this.load(this.url(more));
  }

  async load(url: string): Promise<void> {
    if (this.page.url() !== url) await this.page.goto(url);
    await this.page.waitForFunction(() => (window as any).tracker !== undefined).catch(() => {});
    expect(errors).toEqual([]);
    expect(await this.page.evaluate(() => (window as any).tracker.ready)).toBe('ready');
  }

  /** Tracks n events; with `navigate`, the page leaves in the same task and the test waits for the next page. */
  async track(n: number, opts: { pad?: number; bad?: number[]; big?: number; navigate?: string } = {}): Promise<void> {
    const leaving = opts.navigate ? this.page.waitForURL(opts.navigate) : undefined;
    await this.page.evaluate(([count, o]) => (window as any).tracker.track(count, o), [n, opts] as const).catch((err: Error) => {
      if (!opts.navigate) throw err; // the page may go before evaluate answers
    });
    await leaving;
  }

  stats(): Promise<Stats> {
    return this.page.evaluate(() => (window as any).tracker.stats());
  }

  async stored(): Promise<Stored> {
    if (this.host === 'sw') return this.page.evaluate(() => (window as any).tracker.events());
    const res = await fetch(`${collector.url}/_tracker?${window24h()}`, { headers: { 'accept-encoding': 'identity', 'x-tracker-key': KEY } });
    const body = (await res.json()) as { events: Stored };
    return body.events.filter((e) => e.run === this.id);
  }

  /** Waits until nothing is left to arrive, then asserts the stored events are exactly 0..n-1 but `missing`. */
  async expectExactly(n: number, missing: number[] = []): Promise<Stored> {
    await expect
      .poll(async () => {
        const s = await this.stats();
        return s.queued === 0 && (this.host === 'sw' || proxy.inFlight === 0) && (await this.stored()).length >= n - missing.length;
      }, { timeout: 30_000, interval: 100 })
      .toBe(true);
    const events = await this.stored();
    const seen = events.map((e) => e.i as number).sort((a, b) => a - b);
    const want = Array.from({ length: n }, (_, i) => i).filter((i) => !missing.includes(i));
    expect(seen).toEqual(want);
    return events;
  }

  async close(): Promise<void> {
    await this.page.close();
  }
}

async function repeat(host: Host, scenario: (run: Run) => Promise<void>, extra = ''): Promise<void> {
  for (let i = 0; i < RUNS; i++) {
    const run = new Run(host, extra);
    try {
      await scenario(run);
    } finally {
      await run.page?.close().catch(() => {});
    }
  }
}

for (const host of ['node', 'sw'] as const) {
  describe(`tracker client delivery, ${host === 'node' ? 'node host on another origin' : 'browser mode (service worker)'}`, () => {
    it(`60 events, then a link followed in the same task: 60 stored (${RUNS} runs)`, async () => {
      await repeat(host, async (run) => {
        await run.open();
        await run.track(60, { navigate: run.url('&phase=2') });
        await run.load(run.url('&phase=2'));
        await run.expectExactly(60);
      });
    });

    it(`the same with 100 ms latency: 60 stored (${RUNS} runs)`, async () => {
      if (host === 'node') proxy.latency = 100;
      try {
        await repeat(host, async (run) => {
          await run.open();
          await run.track(60, { navigate: run.url('&phase=2') });
          await run.load(run.url('&phase=2'));
          await run.expectExactly(60);
        }, host === 'sw' ? '&latency=100' : '');
      } finally {
        proxy.latency = 0;
      }
    });

    it(`300 rich events (~500 B) queued, then navigation: 300 stored (${RUNS} runs)`, async () => {
      await repeat(host, async (run) => {
        await run.open();
        await run.track(300, { pad: 400, navigate: run.url('&phase=2') });
        await run.load(run.url('&phase=2'));
        await run.expectExactly(300);
      });
    });

    it(`a 70,000-character event with five behind it, then navigation: 6 stored, the big one truncated (${RUNS} runs)`, async () => {
      await repeat(host, async (run) => {
        await run.open();
        await run.track(6, { big: 0, navigate: run.url('&phase=2') });
        await run.load(run.url('&phase=2'));
        const events = await run.expectExactly(6);
        const big = events.find((e) => e.i === 0)!;
        expect(big._truncated).toBeGreaterThan(70_000);
        expect(String(big.message).length).toBeLessThan(33 * 1024);
        expect((await run.stats()).truncated).toBe(0); // counted by the first page, not this one
      });
    });

    it(`collector down when the page unloads, back for the next load: 20 stored (${RUNS} runs)`, async () => {
      await repeat(host, async (run) => {
        if (host === 'node') proxy.down = true;
        try {
          await run.open(host === 'sw' ? '&down=1' : '');
          await run.track(20, { navigate: `${site}/blank.html` });
        } finally {
          proxy.down = false;
        }
        await run.load(run.url('&phase=2'));
        await run.expectExactly(20);
      });
    });

    it(`a poison event (invalid timestamp) among 30: the 29 good ones stored, the bad one dropped and counted (${RUNS} runs)`, async () => {
      await repeat(host, async (run) => {
        await run.open();
        await run.track(30, { bad: [17] });
        await run.expectExactly(30, [17]);
        expect((await run.stats()).droppedBy.rejected).toBe(1);
      });
    });

    it(`websocket mode, acks lost and the connection dropped: 30 stored after the reconnect (${RUNS} runs, side by side)`, async () => {
      // The runs share the fixed 3 s reconnect, so they go side by side: one tab each.
      const runs = Array.from({ length: RUNS }, () => new Run(host, '&mode=websocket'));
      try {
        await Promise.all(runs.map((run) => run.open()));
        await Promise.all(runs.map((run) => expect.poll(async () => (await run.stats()).state, { timeout: 10_000 }).toBe('running')));
        if (host === 'node') proxy.loseAcks = true;
        else await Promise.all(runs.map((run) => run.page.evaluate(() => (window as any).tracker.dropSockets({ loseAcks: true }))));
        await Promise.all(runs.map((run) => run.track(30)));
        // Every run's first batch reached the collector; its ack did not come back.
        await Promise.all(runs.map((run) => expect.poll(async () => (await run.stored()).length, { timeout: 10_000 }).toBeGreaterThanOrEqual(25)));
        if (host === 'node') {
          proxy.loseAcks = false;
          proxy.dropSockets();
        } else await Promise.all(runs.map((run) => run.page.evaluate(() => (window as any).tracker.dropSockets({ loseAcks: false, close: true }))));
        for (const run of runs) {
          await run.expectExactly(30);
          expect((await run.stats()).sent).toBe(30);
        }
      } finally {
        proxy.loseAcks = false;
        await Promise.all(runs.map((run) => run.page?.close().catch(() => {})));
      }
    });
  });
}
