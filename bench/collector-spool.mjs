#!/usr/bin/env node
// The collector's ingest spool on PostgreSQL (storage.spool): each collector in its own process
// (collector-server.mjs, the built dist/), on a throwaway cluster (postgres-cluster.mjs, fsync on).
//   1. ingest throughput while the database is up, spool off vs on: --batches batches of 25
//      events (plain JSON, no client batchId: the worst case for the spool, which then gives each
//      batch an id of its own), 10 in flight; --rounds rounds, off and on interleaved → medians;
//   2. drain rate: the database down, --drain batches of 25 acknowledged into the spool (202),
//      the database up → events/s from the first drained batch to the last, and from `up`.
//   node bench/collector-spool.mjs [--batches 2000] [--rounds 5] [--drain 4000]
import { execSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { cluster } from './postgres-cluster.mjs';
import { startServer, stop } from './collector-server.mjs';

const { values: a } = parseArgs({ options: {
  batches: { type: 'string', default: '2000' }, rounds: { type: 'string', default: '5' }, drain: { type: 'string', default: '4000' },
} });

const DAY = '2026-03-01';
function makeBatches(n, size, prefix) {
  const out = [];
  for (let b = 0; b < n; b++) {
    const events = Array.from({ length: size }, (_, i) => ({
      id: '', timestamp: `${DAY}T${String(10 + (i % 10)).padStart(2, '0')}:${String(b % 60).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}Z`,
      type: ['click', 'pageview', 'error', 'custom'][i % 4], userId: `user-${b % 500}`, route: `/app/page/${i % 50}`, message: `Something happened number ${i} in batch ${prefix}${b}`,
    }));
    out.push(JSON.stringify({ type: 'ingest', events }));
  }
  return out;
}

async function send(base, bodies, inFlight, expect) {
  let next = 0;
  const t0 = performance.now();
  await Promise.all(Array.from({ length: inFlight }, async () => {
    while (next < bodies.length) {
      const res = await fetch(`${base}/_tracker/events`, { method: 'POST', body: bodies[next++], headers: { 'content-type': 'application/json' } });
      if (res.status !== expect) throw new Error(`ingest ${res.status} (expected ${expect}): ${await res.text()}`);
      await res.arrayBuffer();
    }
  }));
  return performance.now() - t0;
}

/** Events stored in the day (-1 while reads answer 503, or when a kept-alive socket was closed meanwhile). */
const total = async (base) => {
  try {
    const res = await fetch(`${base}/_tracker?since=${DAY}T00:00:00Z&until=${DAY}T23:59:59Z&limit=1`);
    return res.status === 200 ? (await res.json()).total : -1;
  } catch {
    return -1;
  }
};
const median = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
const load = () => execSync('uptime').toString().trim();

async function main() {
  const n = Number(a.batches);
  const rounds = Number(a.rounds);
  const pg = await cluster();
  const spoolDir = mkdtempSync(join(tmpdir(), 'mockyard-bench-spool-'));
  console.log(`before: ${load()}`);
  try {
    const rates = { off: [], on: [] };
    for (let r = 0; r < rounds; r++) {
      for (const mode of r % 2 ? ['on', 'off'] : ['off', 'on']) {
        const table = `spool_${mode}_${r}`;
        const storage = { postgres: { url: pg.url, table }, ...(mode === 'on' ? { spool: { dir: join(spoolDir, table) } } : {}) };
        const srv = await startServer({ appId: 'bench', storage });
        await send(srv.base, makeBatches(50, 25, 'w'), 10, 200); // warm-up: schema, partitions, prepared statements
        const ms = await send(srv.base, makeBatches(n, 25, `${mode}${r}-`), 10, 200);
        rates[mode].push((n * 25) / (ms / 1000));
        await stop(srv);
      }
      console.log(`round ${r + 1}: off ${Math.round(rates.off.at(-1))} ev/s, on ${Math.round(rates.on.at(-1))} ev/s  (${load()})`);
    }
    const off = median(rates.off);
    const on = median(rates.on);
    if (rounds > 0) console.log(`ingest, database up, ${n} batches of 25, 10 in flight: spool off ${Math.round(off)} ev/s, on ${Math.round(on)} ev/s (median of ${rounds}; cost ${(((off - on) / off) * 100).toFixed(1)} %)`);

    const d = Number(a.drain);
    const table = 'spool_drain';
    const srv = await startServer({ appId: 'bench', storage: { postgres: { url: pg.url, table }, spool: { dir: join(spoolDir, table) } } });
    await send(srv.base, makeBatches(20, 25, 'w'), 10, 200);
    const before = await total(srv.base);
    pg.down();
    const spoolMs = await send(srv.base, makeBatches(d, 25, 'd'), 10, 202);
    console.log(`spooled ${d} batches (${d * 25} events) in ${Math.round(spoolMs)} ms while the database was down: ${Math.round((d * 25) / (spoolMs / 1000))} ev/s acknowledged into the spool`);
    pg.up();
    const tUp = performance.now();
    let tFirst;
    for (;;) {
      const t = await total(srv.base);
      if (t > before && tFirst === undefined) tFirst = performance.now();
      if (t >= before + d * 25) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    const tDone = performance.now();
    console.log(`drain: ${d * 25} events in ${Math.round(tDone - tFirst)} ms from the first drained batch (${Math.round((d * 25) / ((tDone - tFirst) / 1000))} ev/s), ${Math.round(tDone - tUp)} ms from the database's start (${Math.round((d * 25) / ((tDone - tUp) / 1000))} ev/s)`);
    await stop(srv);
    console.log(`after: ${load()}`);
  } finally {
    pg.stop();
    rmSync(spoolDir, { recursive: true, force: true });
  }
}

await main();
