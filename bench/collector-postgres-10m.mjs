#!/usr/bin/env node
// The collector's memory on PostgreSQL with 10M events stored: RSS ≤ 150 MB, flat while
// reading a 24 h window, restart → first answer ≤ 1 s.
//   1. a throwaway cluster (postgres-cluster.mjs); the schema and the day partitions created by
//      the store's own code (dist/node/postgres/schema.js); N events (default 10M) spread evenly
//      over the last D days (default 30) written by the server itself, one day per statement
//      (INSERT … SELECT FROM generate_series: bodies shaped like collector-postgres.mjs's events,
//      ids v4 where the collector writes v7: only their format differs);
//   2. a collector process started on it (collector-server.mjs): spawn → first answer (a 1 h read,
//      limit 1), RSS then; twice: as Node starts by default, and with NODE_OPTIONS
//      --max-semi-space-size=2 (a smaller V8 young generation);
//   3. gzip reads of the last 24 h window (the first one cold), RSS sampled during each read
//      (peak) and after; then the last 1 h window.
//   node bench/collector-postgres-10m.mjs [--events 10000000] [--days 30] [--reads 3]
import { parseArgs } from 'node:util';
import { cluster } from './postgres-cluster.mjs';
import { readOnce, rssMB, startServer, stop } from './collector-server.mjs';

const { values: a } = parseArgs({ options: {
  events: { type: 'string', default: '10000000' }, days: { type: 'string', default: '30' }, reads: { type: 'string', default: '3' },
} });
const DAY = 86_400_000;
const log = (...x) => console.log(new Date().toISOString().slice(11, 19), ...x);

async function fill(url, n, days, now) {
  const { openSqlClient } = await import('../dist/node/postgres/sql-client.js');
  const { createPartitions, dayOf, migrate, namesFor } = await import('../dist/node/postgres/schema.js');
  const sql = await openSqlClient({ url, maxConnections: 2 });
  const names = namesFor('public', 'bench_events');
  await migrate(sql, names);
  const first = now - days * DAY;
  const list = [];
  for (let d = dayOf(first); d <= dayOf(now) + 2; d++) list.push(d);
  await createPartitions(sql, names, list);
  const perDay = Math.ceil(n / days);
  const t0 = performance.now();
  // Two statements at a time (2 cores): each writes one day's share, evenly spaced in time.
  let next = 0;
  const worker = async () => {
    for (let k = next++; k < days; k = next++) {
      const from = first + k * DAY;
      const count = Math.min(perDay, n - k * perDay);
      if (count <= 0) continue;
      await sql.query(
        `INSERT INTO ${names.events} (app_id, ts, id, batch, body)
         SELECT 'bench', t, u, u, '{"id":"' || u || '","timestamp":"' || to_char(t AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') ||
                '","type":"' || (ARRAY['click','pageview','error','custom'])[i % 4 + 1] || '","level":"' || (ARRAY['info','warn','error'])[i % 3 + 1] ||
                '","userId":"user-' || i % 500 || '","sessionId":"sess-' || i % 2000 || '","route":"/app/page/' || i % 50 ||
                '","message":"Something happened number ' || i || ' in the component tree","metadata":{"button":"btn-' || i % 20 ||
                '","x":' || i % 1000 || ',"y":' || (i * 7) % 800 || ',"ua":"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36"}}'
           FROM generate_series(0, $1::int - 1) AS i,
                LATERAL (SELECT timestamptz 'epoch' + ($2::bigint + (i::bigint * ${DAY}) / $1::int) * interval '1 millisecond' AS t, gen_random_uuid() AS u) x`,
        [count, from],
      );
      log(`day ${k + 1}/${days}: ${count} events`);
    }
  };
  await Promise.all([worker(), worker()]);
  await sql.query(`VACUUM ANALYZE ${names.events}`);
  const [{ n: stored }] = await sql.query(`SELECT count(*)::text AS n FROM ${names.events}`);
  const [{ size }] = await sql.query(`SELECT pg_size_pretty(sum(pg_total_relation_size(inhrelid))) AS size FROM pg_inherits WHERE inhparent = '${names.events}'::regclass`);
  await sql.end();
  return { stored: Number(stored), size, seconds: Math.round((performance.now() - t0) / 1000) };
}

async function main() {
  const n = Number(a.events);
  const days = Number(a.days);
  const now = Date.now();
  const pg = await cluster(['max_wal_size=8GB', 'checkpoint_timeout=30min']);
  try {
    log(`filling ${n} events over ${days} days`);
    const filled = await fill(pg.url, n, days, now);
    log(`stored ${filled.stored} events (${filled.size} on disk) in ${filled.seconds} s`);
    const tracker = { appId: 'bench', storage: { postgres: { url: pg.url, table: 'bench_events' } } };
    const h1 = [new Date(now - 3_600_000).toISOString(), new Date(now).toISOString()];
    const h24 = [new Date(now - DAY).toISOString(), new Date(now).toISOString()];
    // The collector as it starts by default, then with a smaller V8 young generation.
    for (const nodeOptions of ['', '--max-semi-space-size=2']) {
      const srv = await startServer(tracker, nodeOptions);
      for (;;) {
        const res = await fetch(`${srv.base}/_tracker?since=${h1[0]}&until=${h1[1]}&limit=1`).catch(() => undefined);
        if (res?.status === 200) { await res.arrayBuffer(); break; }
      }
      const firstMs = Math.round(performance.now() - srv.t0);
      const firstRss = await rssMB(srv.base);
      const rows = [];
      for (let i = 0; i < Number(a.reads); i++) {
        const before = await rssMB(srv.base);
        const r = await readOnce(srv.base, h24[0], h24[1]);
        rows.push({ read: `24 h #${i + 1}${i === 0 ? ' (cold)' : ''}`, ms: Math.round(r.ms), gzipBytes: r.bytes, rssBefore: before, rssPeak: Math.round(r.peakMB), rssAfter: await rssMB(srv.base) });
        log(JSON.stringify(rows.at(-1)));
      }
      const r1 = await readOnce(srv.base, h1[0], h1[1]);
      rows.push({ read: '1 h', ms: Math.round(r1.ms), gzipBytes: r1.bytes, rssPeak: Math.round(r1.peakMB), rssAfter: await rssMB(srv.base) });
      await stop(srv);
      console.log(`\ncollector on PostgreSQL${nodeOptions ? ` (NODE_OPTIONS=${nodeOptions})` : ''}, ${filled.stored} events over ${days} days (${filled.size}; filled in ${filled.seconds} s): restart → first answer ${firstMs} ms, RSS then ${firstRss} MB`);
      console.table(rows);
    }
  } finally {
    pg.stop();
  }
}

await main();
