#!/usr/bin/env node
// Host overhead only: raw node:http vs serve() with a trivial engine that answers every GET with
// the same small FastResponse (no filesystem). Servers pinned to core 0, wrk to core 1.
//   node bench/adapter.mjs [--duration 4] [--reps 3] [--dist dist]
import { spawn, execFileSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { resolve, dirname } from 'node:path';

const here = dirname(fileURLToPath(import.meta.url));
const { values: a } = parseArgs({ options: {
  duration: { type: 'string', default: '4' }, reps: { type: 'string', default: '3' },
  dist: { type: 'string', default: resolve(here, '../dist') }, role: { type: 'string' }, connections: { type: 'string', default: '10' }, size: { type: 'string', default: '0' }, 'noise-check': { type: 'boolean', default: false },
} });
process.on('SIGTERM', () => process.exit(0));
const BODY0 = JSON.stringify({ id: 1, name: 'Ada Lovelace', email: 'ada.lovelace1@example.com', age: 36, role: 'admin', createdAt: '2020-01-01T00:00:00.000Z' });
const BODY = Number(a.size) > 0 ? `[${Array(Math.ceil(Number(a.size) / (BODY0.length + 1))).fill(BODY0).join(',')}]` : BODY0;

if (a.role === 'raw') {
  const { createServer } = await import('node:http');
  const bytes = Buffer.from(BODY);
  const server = createServer((req, res) => {
    if (req.url === '/__cpu') return res.end(JSON.stringify(process.cpuUsage()));
    res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': String(bytes.length) });
    res.end(bytes);
  });
  server.listen(0, '127.0.0.1', () => console.log(JSON.stringify({ port: server.address().port })));
} else if (a.role === 'mockyard') {
  const { serve } = await import(pathToFileURL(resolve(a.dist, 'node/serve.js')).href);
  const { FastResponse } = await import(pathToFileURL(resolve(a.dist, 'core/fast-response.js')).href);
  const bytes = new TextEncoder().encode(BODY);
  const engine = {
    prefixes: ['/api'],
    async handle(request) {
      const url = request.url;
      const p = url.indexOf('/', 8);
      if (!url.startsWith('/api/', p) || request.method !== 'GET') return undefined;
      return FastResponse.bytes(bytes, 200, { 'Content-Type': 'application/json; charset=utf-8' });
    },
  };
  const cpu = { prefixes: ['/__cpu'], async handle(request) { return request.url.endsWith('/__cpu') ? new Response(JSON.stringify(process.cpuUsage())) : undefined; } };
  const s = await serve({ engines: [cpu, engine], port: 0, logLevel: 'error' });
  console.log(JSON.stringify({ port: s.port }));
} else {
  const start = (role) => new Promise((res, rej) => {
    const child = spawn('taskset', ['-c', '0', process.execPath, fileURLToPath(import.meta.url), '--role', role, '--dist', a.dist, '--size', a.size], { stdio: ['ignore', 'pipe', 'inherit'] });
    child.stdout.once('data', (d) => res({ child, port: JSON.parse(String(d)).port }));
    child.once('error', rej);
  });
  const cpuNow = async (port) => { const u = await (await fetch(`http://127.0.0.1:${port}/__cpu`)).json(); return u.user + u.system; };
  // Server CPU time per request is measured too: unlike req/s it hardly moves when other
  // processes load the machine, so the ratio of CPU costs is the steadier figure here.
  const cpuPerReq = { raw: [], mockyard: [] };
  const wrk = (port, role) => {
    const out = execFileSync('taskset', ['-c', '1', 'wrk', '-t1', `-c${a.connections}`, `-d${a.duration}s`, `http://127.0.0.1:${port}/api/users/1`], { encoding: 'utf8' });
    return { rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)[1]), n: Number(/(\d+) requests in/.exec(out)[1]) };
  };
  const measure = async (srv, role) => {
    const c0 = await cpuNow(srv.port);
    const { rps, n } = wrk(srv.port, role);
    const c1 = await cpuNow(srv.port);
    cpuPerReq[role].push((c1 - c0) / n);
    return rps;
  };
  const raw = await start('raw');
  const my = await start(a['noise-check'] ? 'raw' : 'mockyard'); // --noise-check: raw against itself
  wrk(raw.port); wrk(my.port); // warm-up
  const r = [], m = [];
  for (let i = 0; i < Number(a.reps); i++) {
    if (i % 2 === 0) { r.push(await measure(raw, 'raw')); m.push(await measure(my, 'mockyard')); }
    else { m.push(await measure(my, 'mockyard')); r.push(await measure(raw, 'raw')); }
  }
  const med = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
  const pairs = r.map((x, i) => m[i] / x);
  const out = { raw: med(r), mockyard: med(m), ratio: +(med(m) / med(r)).toFixed(3), pairedRatioMedian: +med(pairs).toFixed(3),
    cpuUsPerRequest: { raw: +med(cpuPerReq.raw).toFixed(1), mockyard: +med(cpuPerReq.mockyard).toFixed(1) },
    cpuRatio: +(med(cpuPerReq.raw) / med(cpuPerReq.mockyard)).toFixed(3), runs: { raw: r, mockyard: m } };
  console.log(JSON.stringify(out));
  raw.child.kill(); my.child.kill();
}
