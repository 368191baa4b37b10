#!/usr/bin/env node
// The collector on PostgreSQL vs the embedded store, in one run. Each collector runs in
// its own process (collector-server.mjs), the PostgreSQL one on a throwaway cluster started here
// (postgres-cluster.mjs: fsync on, in a temp folder) unless MOCKYARD_BENCH_DB names a server.
//   1. ingest: N events (default 100k: 20% in the last hour, the rest over the 23 h before) as gzip
//      batches of 25, 10 in flight, into each store → events/s;
//   2. read (gzip, time to the last byte, median of --reads after one untimed read): the last 1 h
//      (~20k events) and the 24 h window (N events); server RSS sampled during the 24 h reads;
//   3. PostgreSQL only: 1,000-event batches with 1 and with 2 collector processes → events/s;
//      restart → first answer (spawn to the first 200 of a 1 h read) and RSS after it.
//   node bench/collector-postgres.mjs [--events 100000] [--reads 5]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { cluster } from './postgres-cluster.mjs';
import { readOnce, rssMB, startServer, stop } from './collector-server.mjs';

const { values: a } = parseArgs({ options: {
  events: { type: 'string', default: '100000' }, reads: { type: 'string', default: '5' },
} });

/** N events as gzip batches: 20% in the last hour, the rest over the 23 hours before. */
function makeBatches(n, size, now) {
  const recent = Math.floor(n / 5);
  const events = [];
  for (let k = 0; k < n; k++) {
    const t = k < recent ? now - 3_590_000 + Math.floor((k * 3_580_000) / recent) : now - 24 * 3_600_000 + 60_000 + Math.floor(((k - recent) * 23 * 3_590_000) / (n - recent));
    events.push({
      id: '', timestamp: new Date(t).toISOString(), type: ['click', 'pageview', 'error', 'custom'][k % 4], level: ['info', 'warn', 'error'][k % 3],
      userId: `user-${k % 500}`, sessionId: `sess-${k % 2000}`, route: `/app/page/${k % 50}`, message: `Something happened number ${k} in the component tree`,
      metadata: { button: `btn-${k % 20}`, x: k % 1000, y: (k * 7) % 800, ua: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36' },
    });
  }
  const batches = [];
  for (let i = 0; i < n; i += size) batches.push(gzipSync(JSON.stringify({ type: 'ingest', events: events.slice(i, i + size) })));
  return batches;
}

async function ingest(bases, batches, inFlight) {
  let next = 0;
  const t0 = performance.now();
  const worker = async (w) => {
    while (next < batches.length) {
      const body = batches[next++];
      const res = await fetch(`${bases[w % bases.length]}/_tracker/events`, { method: 'POST', body, headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' } });
      if (res.status !== 200) throw new Error(`ingest ${res.status}: ${await res.text()}`);
      await res.arrayBuffer();
    }
  };
  await Promise.all(Array.from({ length: inFlight }, (_, w) => worker(w)));
  return performance.now() - t0;
}

async function reads(base, since, until, count) {
  await readOnce(base, since, until); // untimed first read
  const runs = [];
  for (let i = 0; i < count; i++) runs.push(await readOnce(base, since, until));
  const ms = runs.map((r) => r.ms).sort((x, y) => x - y);
  return { medianMs: Math.round(ms[Math.floor(ms.length / 2)]), bytes: runs[0].bytes, peakMB: Math.round(Math.max(...runs.map((r) => r.peakMB))) };
}

async function main() {
  const n = Number(a.events);
  const count = Math.max(3, Number(a.reads));
  const now = Date.now();
  const small = makeBatches(n, 25, now);
  const h1 = [new Date(now - 3_600_000).toISOString(), new Date(now).toISOString()];
  const h24 = [new Date(now - 24 * 3_600_000).toISOString(), new Date(now).toISOString()];
  const pg = await cluster();
  const dir = mkdtempSync(join(tmpdir(), 'mockyard-bench-embedded-'));
  const rows = [];
  try {
    for (const [name, tracker] of [
      ['embedded', { appId: 'bench', storageDir: dir }],
      ['postgres', { appId: 'bench', storage: { postgres: { url: pg.url, table: 'bench_events' } } }],
    ]) {
      const srv = await startServer(tracker);
      const ingestMs = await ingest([srv.base], small, 10);
      const r1 = await reads(srv.base, h1[0], h1[1], count);
      const r24 = await reads(srv.base, h24[0], h24[1], count);
      rows.push({ name, ingest: Math.round(n / (ingestMs / 1000)), r1, r24, rss: await rssMB(srv.base) });
      if (name === 'postgres') {
        await stop(srv);
        const again = await startServer(tracker);
        for (;;) {
          const res = await fetch(`${again.base}/_tracker?since=${h1[0]}&until=${h1[1]}&limit=1`).catch(() => undefined);
          if (res?.status === 200) { await res.arrayBuffer(); break; }
        }
        rows.at(-1).restartMs = Math.round(performance.now() - again.t0);
        rows.at(-1).restartRss = await rssMB(again.base);
        await stop(again);
      } else await stop(srv);
    }
    // 1,000-event batches on PostgreSQL, 1 and 2 processes (fresh tables)
    const big = makeBatches(Math.min(n, 100_000), 1000, now);
    const bigEvents = Math.min(n, 100_000);
    const one = await startServer({ appId: 'bench', storage: { postgres: { url: pg.url, table: 'bench_big1' } } });
    const oneMs = await ingest([one.base], big, 4);
    await stop(one);
    const twoA = await startServer({ appId: 'bench', storage: { postgres: { url: pg.url, table: 'bench_big2' } } });
    const twoB = await startServer({ appId: 'bench', storage: { postgres: { url: pg.url, table: 'bench_big2' } } });
    const twoMs = await ingest([twoA.base, twoB.base], big, 8);
    await Promise.all([stop(twoA), stop(twoB)]);
    console.log(`collector on PostgreSQL vs embedded: ${n} events (${n / 5} in the last hour), gzip reads, median of ${count}`);
    console.log('store      ingest ev/s (25/batch, 10 in flight)  read 1 h ms  read 24 h ms  24 h gzip bytes  RSS peak in 24 h reads MB  RSS after MB');
    for (const r of rows) console.log(`${r.name.padEnd(10)} ${String(r.ingest).padStart(35)} ${String(r.r1.medianMs).padStart(12)} ${String(r.r24.medianMs).padStart(13)} ${String(r.r24.bytes).padStart(16)} ${String(r.r24.peakMB).padStart(26)} ${String(r.rss).padStart(13)}`);
    const [e, p] = rows;
    console.log(`ratios postgres/embedded: read 1 h ${(p.r1.medianMs / e.r1.medianMs).toFixed(2)}x, read 24 h ${(p.r24.medianMs / e.r24.medianMs).toFixed(2)}x, ingest ${(p.ingest / e.ingest).toFixed(2)}x`);
    console.log(`postgres restart → first 1 h read answered: ${p.restartMs} ms after spawn, RSS ${p.restartRss} MB`);
    console.log(`postgres 1,000-event batches (${bigEvents} events): 1 process ${Math.round(bigEvents / (oneMs / 1000))} ev/s (4 in flight), 2 processes ${Math.round(bigEvents / (twoMs / 1000))} ev/s (4 in flight each)`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
    pg.stop();
  }
}

await main();
