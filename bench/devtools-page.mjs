#!/usr/bin/env node
// The devtools page's speed goals, in real Chromium against the node host (dist/):
//
//  1. Events tab, 100k events in the window: time to first render — from navigation to
//     `/_mockyard/#events` until the table shows rows and the count of all 100,000 events (wall
//     clock, Node side: it includes Playwright's round trips; and on the page's own clock, from its
//     navigation start; the newest page is drawn first), then until the whole window is loaded
//     (`data-state=ready`: KPIs, chart, top lists complete), and the page's own figures
//     (`data-first-render-ms`, `data-complete-ms`). Baseline in the
//     same run and page: a bare `fetch(read URL).then(r => r.json())` of the same window (the
//     floor any page pays to have the data).
//  2. Requests tab at 1,000 entries with 50 new per second for SECONDS s: frame intervals
//     (requestAnimationFrame) and long tasks (> 50 ms). Baseline: the same page idle for the same
//     time, same run.
//
//   npm run build && flock /tmp/mockyard-bench.lock node bench/devtools-page.mjs [--rounds 3] [--seconds 10]
import { parseArgs } from 'node:util';
import { loadavg } from 'node:os';
import { chromium } from 'playwright-core';
import { memoryFs } from '../dist/index.js';
import { serve } from '../dist/node/index.js';

const { values: a } = parseArgs({ options: { rounds: { type: 'string', default: '3' }, seconds: { type: 'string', default: '10' }, events: { type: 'string', default: '100000' } } });
const ROUNDS = Number(a.rounds);
const SECONDS = Number(a.seconds);
const N = Number(a.events);
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const server = await serve({
  port: 0,
  logLevel: 'silent',
  mock: { endpointPrefix: '/api', fs: memoryFs({ 'users/1.json': JSON.stringify({ id: 1, name: 'Ada' }) }), logLevel: 'silent' },
  tracker: { appId: 'bench', limits: { maxBodyBytes: 64 * 1024 * 1024, maxEvents: 1_000_000 } },
});

// 100k events spread over the last 50 minutes: 12 types, 4 levels, 800 users, 3,000 sessions, 40 routes.
const TYPES = ['click', 'view', 'scroll', 'submit', 'error', 'api.call', 'login', 'logout', 'search', 'ui.open', 'ui.close', 'perf'];
const LEVELS = ['info', 'info', 'info', 'debug', 'warn', 'error'];
const now = Date.now();
for (let done = 0; done < N; ) {
  const batch = [];
  for (let i = 0; i < 5000 && done < N; i++, done++) {
    const level = LEVELS[done % LEVELS.length];
    batch.push({
      id: '',
      timestamp: new Date(now - Math.floor(((done * 7919) % N) / N * 50 * 60_000)).toISOString(),
      type: TYPES[done % TYPES.length],
      level,
      userId: `user-${done % 800}`,
      sessionId: `s-${done % 3000}`,
      route: `/app/section-${done % 40}`,
      message: level === 'error' ? `TypeError: cannot read property ${done % 25} of undefined` : `event ${done}`,
    });
  }
  const res = await fetch(`${server.url}/_tracker/events`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ type: 'ingest', events: batch }) });
  if (!res.ok) throw new Error(`ingest: ${res.status} ${await res.text()}`);
}

const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
const median = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
const pct = (xs, p) => [...xs].sort((x, y) => x - y)[Math.min(xs.length - 1, Math.floor(xs.length * p))];
const load = () => loadavg()[0].toFixed(2);

// 1. Events tab.
const events = { wall: [], full: [], page: [], complete: [], floor: [], steps: [], click: [], clickFull: [] };
for (let r = 0; r < ROUNDS; r++) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
  const t0 = performance.now();
  await page.goto(`${server.url}/_mockyard/#events`);
  await page.waitForFunction((n) => document.querySelector('[data-testid=events-count]')?.textContent === `${n.toLocaleString('en')} events` && document.querySelector('.events-rows [role=row]') !== null, N, { polling: 'raf', timeout: 60_000 });
  events.wall.push(performance.now() - t0);
  await page.waitForSelector('section.events[data-state=ready]', { timeout: 60_000 });
  events.full.push(performance.now() - t0);
  events.page.push(Number(await page.getAttribute('section.events', 'data-first-render-ms')));
  events.complete.push(Number(await page.getAttribute('section.events', 'data-complete-ms')));
  events.steps.push(
    await page.evaluate(() => {
      const at = (n) => performance.getEntriesByName(`mockyard:events:${n}`)[0]?.startTime ?? NaN;
      return { requestedAt: at('requested'), domDone: performance.getEntriesByType('navigation')[0]?.domContentLoadedEventEnd ?? NaN, firstRead: at('parsed') - at('requested'), rendered: at('rendered') - at('parsed'), complete: at('complete') - at('rendered'), renderedAt: at('rendered'), completeAt: at('complete') };
    }),
  );
  events.floor.push(
    await page.evaluate(async () => {
      const now = Date.now();
      const url = `/_tracker?since=${encodeURIComponent(new Date(now - 3_600_000).toISOString())}&until=${encodeURIComponent(new Date(now).toISOString())}`;
      const t = performance.now();
      const body = await (await fetch(url, { headers: { Accept: 'application/json' } })).json();
      if (!Array.isArray(body.events)) throw new Error('no events');
      return performance.now() - t;
    }),
  );
  // The same page, loaded on the Requests tab: a click on Events until all events are rendered.
  await page.goto(`${server.url}/_mockyard/`);
  await page.locator('.requests .live-dot.live').waitFor();
  const click = await page.evaluate(
    (n) =>
      new Promise((resolve) => {
        const t = performance.now();
        let first;
        document.querySelector('[data-tab=events]').click();
        const check = () => {
          if (first === undefined && document.querySelector('[data-testid=events-count]')?.textContent === `${n.toLocaleString('en')} events` && document.querySelector('.events-rows [role=row]')) first = performance.now() - t;
          if (first !== undefined && document.querySelector('section.events')?.dataset.state === 'ready') resolve([first, performance.now() - t]);
          else requestAnimationFrame(check);
        };
        requestAnimationFrame(check);
      }),
    N,
  );
  events.click.push(click[0]);
  events.clickFull.push(click[1]);
  await page.close();
}

// 2. Requests tab: 1,000 entries, then 50 new per second.
for (let i = 0; i < 1000; i++) await fetch(`${server.url}/api/users/1?fill=${i}`).then((r) => r.arrayBuffer());
async function frames(page, traffic) {
  await page.evaluate(() => {
    const w = window;
    w.__stop = false;
    w.__frames = [];
    w.__long = [];
    new PerformanceObserver((l) => w.__long.push(...l.getEntries().map((e) => e.duration))).observe({ type: 'longtask' });
    let last = performance.now();
    const tick = (t) => {
      w.__frames.push(t - last);
      last = t;
      if (!w.__stop) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  let sent = 0;
  const timer = traffic ? setInterval(() => void fetch(`${server.url}/api/users/1?n=${sent++}`).then((r) => r.arrayBuffer()), 20) : undefined;
  await new Promise((r) => setTimeout(r, SECONDS * 1000));
  clearInterval(timer);
  const out = await page.evaluate(() => {
    window.__stop = true;
    return { frames: window.__frames.slice(1), long: window.__long };
  });
  return { ...out, sent };
}
const req = { idle: [], live: [] };
for (let r = 0; r < ROUNDS; r++) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
  await page.goto(`${server.url}/_mockyard/`);
  await page.waitForFunction(() => /^1,?000 requests|^\d{4} requests/.test(document.querySelector('[data-testid=requests-count]')?.textContent ?? ''), null, { timeout: 30_000 });
  await page.locator('.requests .live-dot.live').waitFor();
  req.idle.push(await frames(page, false));
  const before = await page.textContent('[data-testid=requests-count]');
  const live = await frames(page, true);
  await page.waitForFunction((b) => document.querySelector('[data-testid=requests-count]')?.textContent !== b, before);
  live.shown = await page.textContent('[data-testid=requests-count]');
  req.live.push(live);
  await page.close();
}
await browser.close();
await server.close();

const ms = (x) => `${x.toFixed(0)} ms`;
console.log(`devtools page bench — Chromium ${CHROMIUM}, ${ROUNDS} rounds, load average ${load()}`);
console.log(`\n1. Events tab, ${N.toLocaleString('en')} events in the window (node host, read gzip level 1):`);
console.log(`   first render = table + count of all ${N.toLocaleString('en')} (first round is the cold one):`);
console.log(`   navigation → first render (wall)            median ${ms(median(events.wall))}   [${events.wall.map(ms).join(', ')}]`);
console.log(`   navigation → whole window loaded (wall)     median ${ms(median(events.full))}   [${events.full.map(ms).join(', ')}]`);
console.log(`   click on the tab → first render (in page)   median ${ms(median(events.click))}   [${events.click.map(ms).join(', ')}]`);
console.log(`   click on the tab → whole window (in page)   median ${ms(median(events.clickFull))}   [${events.clickFull.map(ms).join(', ')}]`);
console.log(`   load start → first render (in page)         median ${ms(median(events.page))}   [${events.page.map(ms).join(', ')}]`);
console.log(`   load start → whole window (in page)         median ${ms(median(events.complete))}   [${events.complete.map(ms).join(', ')}]`);
console.log(`   navigation start → first render (page clock) median ${ms(median(events.steps.map((x) => x.renderedAt)))}   [${events.steps.map((x) => ms(x.renderedAt)).join(', ')}]`);
console.log(`   navigation start → whole window (page clock) median ${ms(median(events.steps.map((x) => x.completeAt)))}   [${events.steps.map((x) => ms(x.completeAt)).join(', ')}]`);
for (const k of ['domDone', 'requestedAt', 'firstRead', 'rendered', 'complete']) console.log(`     of which ${k.padEnd(11)} median ${ms(median(events.steps.map((x) => x[k])))}`);
console.log(`   baseline: bare fetch + res.json() of it     median ${ms(median(events.floor))}   [${events.floor.map(ms).join(', ')}]`);
const summary = (runs) => {
  const f = runs.flatMap((x) => x.frames);
  const long = runs.flatMap((x) => x.long);
  return `frames ${f.length}, p50 ${pct(f, 0.5).toFixed(1)} ms, p95 ${pct(f, 0.95).toFixed(1)} ms, p99 ${pct(f, 0.99).toFixed(1)} ms, max ${Math.max(...f).toFixed(1)} ms; long tasks ${long.length} (${long.reduce((s, x) => s + x, 0).toFixed(0)} ms)`;
};
console.log(`\n2. Requests tab, 1,000 entries, ${SECONDS} s per round:`);
console.log(`   baseline, idle:           ${summary(req.idle)}`);
console.log(`   50 new per second:        ${summary(req.live)}  (sent ${req.live.map((x) => x.sent).join('/')}, shown "${req.live.map((x) => x.shown).join('", "')}")`);
