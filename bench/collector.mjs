#!/usr/bin/env node
// Collector speed vs a raw node:http reference, in one run.
//   1. ingest: gzip batches of 25 events (events/s), concurrency 8, until the store holds N events
//      spread over the last 24 h;
//   2. read: the 24 h window holding those N events (ms to the last byte, bytes on the wire,
//      server RSS before/after): one read right after the ingest ("cold": the collector has not
//      deflated any hour yet), then after 1.5 s of quiet ("warm": hours deflated in the
//      background), and the median of the following ones.
// The reference keeps events parsed in a sorted array, appends JSONL, and JSON-encodes + gzips
// (node:zlib level 1) the window on each read — the idea of the shared reference server, written
// here so the repo does not depend on it. Each server runs in its own process. `mockyard-journal`
// is the same collector served beside a mock API, whose request journal then records each
// collector request (the devtools journal's cost on the ingest path, same run).
//   node bench/collector.mjs [--events 100000] [--reads 5] [--dist dist] [--json] [--roles raw,mockyard,mockyard-journal]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';

const here = dirname(fileURLToPath(import.meta.url));
const { values: a } = parseArgs({ options: {
  events: { type: 'string', default: '100000' }, reads: { type: 'string', default: '5' },
  dist: { type: 'string', default: resolve(here, '../dist') }, role: { type: 'string' }, dir: { type: 'string' },
  json: { type: 'boolean', default: false }, roles: { type: 'string', default: 'raw,mockyard,mockyard-journal' },
} });

if (a.role) process.on('SIGTERM', () => process.exit(0)); // exit cleanly (lets --cpu-prof write its profile)
if (a.role === 'raw') await rawServer(a.dir);
else if (a.role === 'mockyard') await mockyardServer(a.dir, a.dist, false);
else if (a.role === 'mockyard-journal') await mockyardServer(a.dir, a.dist, true);
else await main();

async function rawServer(dir) {
  const { createServer } = await import('node:http');
  const { gzipSync: gz, gunzipSync } = await import('node:zlib');
  const { randomUUID } = await import('node:crypto');
  const { appendFileSync } = await import('node:fs');
  const log = join(dir, 'events.jsonl');
  const all = [];
  const lower = (t) => { let lo = 0, hi = all.length; while (lo < hi) { const m = (lo + hi) >> 1; if (all[m].t < t) lo = m + 1; else hi = m; } return lo; };
  const server = createServer(async (req, res) => {
    const u = new URL(req.url, 'http://x');
    if (u.pathname === '/__rss') return res.end(String(process.memoryUsage().rss));
    if (req.method === 'POST') {
      const chunks = []; for await (const c of req) chunks.push(c);
      let buf = Buffer.concat(chunks); if (buf[0] === 0x1f && buf[1] === 0x8b) buf = gunzipSync(buf);
      const body = JSON.parse(buf); const lines = [];
      for (const e of body.events) {
        const ev = { ...e, id: randomUUID() }; const t = Date.parse(ev.timestamp);
        lines.push(JSON.stringify(ev)); all.splice(lower(t + 1), 0, { t, ev });
      }
      appendFileSync(log, lines.join('\n') + '\n');
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ ok: true, saved: lines.length }));
    }
    const lo = lower(Date.parse(u.searchParams.get('since'))), hi = lower(Date.parse(u.searchParams.get('until')) + 1);
    const win = []; for (let i = hi - 1; i >= lo; i--) win.push(all[i].ev);
    const out = gz(JSON.stringify({ events: win, total: win.length, page: 1, limit: win.length }), { level: 1 });
    res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': out.length });
    res.end(out);
  });
  server.listen(0, '127.0.0.1', () => console.log(JSON.stringify({ port: server.address().port })));
}

async function mockyardServer(dir, dist, journal) {
  const { createCollector } = await import(pathToFileURL(resolve(dist, 'tracker/collector.js')).href);
  const { diskFs } = await import(pathToFileURL(resolve(dist, 'vfs/disk.js')).href);
  const collector = createCollector({ appId: 'bench', logLevel: 'error', storage: { fs: diskFs(dir) } });
  const rss = { prefixes: ['/__rss'], async handle(request) { return new URL(request.url).pathname === '/__rss' ? new Response(String(process.memoryUsage().rss)) : undefined; } };
  let serve;
  try {
    ({ serve } = await import(pathToFileURL(resolve(dist, 'node/serve.js')).href));
  } catch {
    serve = undefined;
  }
  if (serve) {
    // `journal`: a mock API beside it, so its request journal records the collector's requests too
    // (src/devtools/journaled-engine.ts); without one the collector is served alone, unobserved.
    const mock = journal ? { endpointPrefix: '/api', logLevel: 'error', fs: (await import(pathToFileURL(resolve(dist, 'vfs/memory.js')).href)).memoryFs({}) } : undefined;
    const s = await serve({ mock, engines: [collector, rss], port: 0, logLevel: 'error' });
    console.log(JSON.stringify({ port: s.port, host: 'serve' }));
    return;
  }
  // Fallback while the node host is not built: a minimal node:http adapter.
  const { createServer } = await import('node:http');
  const server = createServer(async (req, res) => {
    const chunks = []; for await (const c of req) chunks.push(c);
    const body = chunks.length ? Buffer.concat(chunks) : undefined;
    const request = new Request(`http://127.0.0.1${req.url}`, { method: req.method, headers: req.headers, body: req.method === 'GET' || req.method === 'HEAD' ? undefined : body });
    const response = (await collector.handle(request)) ?? (await rss.handle(request)) ?? new Response('not found', { status: 404 });
    const bytes = Buffer.from(await response.arrayBuffer());
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(bytes);
  });
  server.listen(0, '127.0.0.1', () => console.log(JSON.stringify({ port: server.address().port, host: 'minimal-adapter' })));
}

function start(role, dir) {
  return new Promise((resolveStart, reject) => {
    const child = spawn(process.execPath, [...(process.env.BENCH_PROFILE && role === 'mockyard' ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : []), fileURLToPath(import.meta.url), '--role', role, '--dir', dir, '--dist', a.dist], { stdio: ['ignore', 'pipe', 'inherit'] });
    child.stdout.once('data', (d) => resolveStart({ child, ...JSON.parse(String(d).split('\n')[0]) }));
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`${role} server exited with ${code}`)));
  });
}

function makeBatches(n, now) {
  const batches = [];
  const span = 24 * 3600_000 - 60_000;
  const types = ['click', 'pageview', 'error', 'custom'];
  const levels = ['info', 'warn', 'error'];
  for (let i = 0; i < n; i += 25) {
    const events = [];
    for (let k = i; k < Math.min(n, i + 25); k++) {
      events.push({
        id: '', timestamp: new Date(now - span + Math.floor((k * span) / n)).toISOString(), type: types[k % 4], level: levels[k % 3],
        userId: `user-${k % 500}`, sessionId: `sess-${k % 2000}`, route: `/app/page/${k % 50}`,
        message: `Something happened number ${k} in the component tree`,
        metadata: { button: `btn-${k % 20}`, x: k % 1000, y: (k * 7) % 800, ua: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36' },
      });
    }
    batches.push(gzipSync(JSON.stringify({ type: 'ingest', events })));
  }
  return batches;
}

async function ingestAll(base, batches, concurrency = 8) {
  let next = 0;
  const t0 = performance.now();
  const worker = async () => {
    while (next < batches.length) {
      const body = batches[next++];
      const res = await fetch(`${base}/_tracker/events`, { method: 'POST', body, headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' } });
      if (res.status !== 200) throw new Error(`ingest ${res.status}: ${await res.text()}`);
      await res.arrayBuffer();
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return performance.now() - t0;
}

async function readOnce(base, since, until) {
  const rss0 = Number(await (await fetch(`${base}/__rss`)).text());
  const t0 = performance.now();
  // Raw bytes on the wire: ask undici not to decode by reading through node:http instead of fetch.
  const { request } = await import('node:http');
  const url = new URL(`${base}/_tracker?since=${encodeURIComponent(since)}&until=${encodeURIComponent(until)}`);
  const { bytes, total } = await new Promise((res, rej) => {
    const r = request(url, { headers: { 'accept-encoding': 'gzip' } }, (resp) => {
      let n = 0; const chunks = [];
      resp.on('data', (c) => { n += c.length; chunks.push(c); });
      resp.on('end', () => res({ bytes: n, total: chunks }));
    });
    r.on('error', rej);
    r.end();
  });
  const ms = performance.now() - t0;
  const rss1 = Number(await (await fetch(`${base}/__rss`)).text());
  const { gunzipSync } = await import('node:zlib');
  const body = JSON.parse(gunzipSync(Buffer.concat(total)));
  return { ms, bytes, rssDeltaMB: (rss1 - rss0) / 1048576, events: body.events.length, total: body.total };
}

async function measure(role, n, reads) {
  const dir = mkdtempSync(join(tmpdir(), `bench-collector-${role}-`));
  const srv = await start(role, dir);
  const base = `http://127.0.0.1:${srv.port}`;
  try {
    const now = Date.now();
    const batches = makeBatches(n, now);
    const ingestMs = await ingestAll(base, batches);
    const since = new Date(now - 24 * 3600_000).toISOString();
    const until = new Date(now).toISOString();
    const cold = await readOnce(base, since, until); // right after ingest: nothing cached yet
    await new Promise((r) => setTimeout(r, 1500)); // let background work (cache warm-up, GC) settle
    const runs = [];
    for (let i = 0; i < reads; i++) runs.push(await readOnce(base, since, until));
    if (runs[0].events !== n || runs[0].total !== n) throw new Error(`${role}: read returned ${runs[0].events}/${runs[0].total} events, expected ${n}`);
    const sorted = runs.slice(1).map((r) => r.ms).sort((x, y) => x - y);
    return {
      role, host: srv.host ?? 'node:http', events: n,
      ingestEventsPerSec: Math.round(n / (ingestMs / 1000)),
      readColdMs: Math.round(cold.ms), readFirstMs: Math.round(runs[0].ms), readMedianMs: Math.round(sorted[Math.floor(sorted.length / 2)] ?? runs[0].ms),
      readBytes: runs[0].bytes, readRssDeltaMB: Math.max(...runs.map((r) => r.rssDeltaMB)).toFixed(1),
    };
  } finally {
    srv.child.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main() {
  const n = Number(a.events);
  const reads = Math.max(2, Number(a.reads));
  const results = [];
  for (const role of a.roles.split(',')) results.push(await measure(role, n, reads));
  if (a.json) {
    console.log(JSON.stringify(results));
    return;
  }
  console.log(`collector bench: ${n} events in a 24 h window, gzip batches of 25 (concurrency 8), ${reads} reads`);
  console.log('role             host             ingest ev/s  read cold ms  read warm ms  read median ms  read bytes  max RSS delta/read MB');
  for (const r of results) {
    console.log(`${r.role.padEnd(16)} ${r.host.padEnd(16)} ${String(r.ingestEventsPerSec).padStart(11)} ${String(r.readColdMs).padStart(13)} ${String(r.readFirstMs).padStart(13)} ${String(r.readMedianMs).padStart(15)} ${String(r.readBytes).padStart(11)} ${String(r.readRssDeltaMB).padStart(12)}`);
  }
}
