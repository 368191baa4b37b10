#!/usr/bin/env node
// Proxy overhead and OpenAPI validation cost, each against its baseline in the
// same run. Run inside `flock /tmp/mockyard-bench.lock` (npm run build first; wrk required).
//
//   proxy, a 1 KB JSON answer, three targets: a raw node:http server answering at once, and the
//   same answering after 1 ms and after 10 ms (what a real API's own work and network distance
//   take; a staging API is tens of ms away). For each target:
//               wrk → the target                                    = direct
//               wrk → the mockyard CLI (--proxy target; its defaults: CORS, devtools journal) = proxied
//   and for the immediate target also the least a Node proxy can do, as yardsticks:
//               wrk → a raw node:http reverse proxy (keep-alive agent, headers copied, body piped)
//               wrk → undici's dispatch API answering from its callbacks (mockyard's transport, bare)
//               wrk → mockyard serve() with `journal: false`
//   Two loads: 10 connections (throughput: ratio of req/s) and 1 connection (latency: ratio of the
//   median round trip, and the time the proxy adds). CPU per request of the serving processes.
//   get-one:    wrk → mockyard serving users/1.json                 = without validation
//               wrk → the same with mock.openapi (GET /users/{id})  = with validation
//               cost = 1 − with ÷ without (goal ≤ 20 %)
// Servers pinned to core 0 (the targets too), wrk to core 1; alternating rounds, medians. Prints a
// Markdown section for bench/RESULTS.md.
//
//   node bench/proxy-openapi.mjs [--duration 3] [--reps 5]
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { get } from 'node:http';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const here = dirname(fileURLToPath(import.meta.url));
const { values: a } = parseArgs({ options: { duration: { type: 'string', default: '3' }, reps: { type: 'string', default: '5' } } });
const hasTaskset = spawnSync('taskset', ['-c', '0', 'true']).status === 0;
const pin = (core, cmd, args) => (hasTaskset ? ['taskset', ['-c', String(core), cmd, ...args]] : [cmd, args]);
const work = await mkdtemp(join(tmpdir(), 'mockyard-bench-po-'));
const children = [];
const cli = resolve(here, '../dist/node/cli.js');

const SERVER = `
import { createServer } from 'node:http';
const [role, arg, extra] = process.argv.slice(2);
process.on('SIGTERM', () => process.exit(0));
const announce = (port) => console.log(JSON.stringify({ port }));
if (role === 'raw-proxy') {
  const { request, Agent } = await import('node:http');
  const target = new URL(arg);
  const agent = new Agent({ keepAlive: true, scheduling: 'lifo' });
  const s = createServer((req, res) => {
    const headers = { ...req.headers, host: target.host };
    const up = request({ hostname: target.hostname, port: target.port, method: req.method, path: req.url, headers, agent }, (r) => {
      res.writeHead(r.statusCode, r.headers);
      r.pipe(res);
    });
    up.on('error', () => { res.writeHead(502); res.end(); });
    req.pipe(up);
  });
  s.listen(0, '127.0.0.1', () => announce(s.address().port));
} else if (role === 'dispatch-proxy') {
  // undici's dispatch with a handler writing straight into the ServerResponse: hop-by-hop request
  // headers dropped, nothing else (no timeout, no decoding, no client-gone watch, no pipeline).
  const { Pool } = await import(${JSON.stringify(resolve(here, '../node_modules/undici/index.js'))});
  const pool = new Pool(new URL(arg).origin, { bodyTimeout: 0, headersTimeout: 0 });
  const s = createServer((req, res) => {
    const headers = [];
    const raw = req.rawHeaders;
    for (let i = 0; i < raw.length; i += 2) { const n = raw[i].toLowerCase(); if (n !== 'host' && n !== 'connection' && n !== 'keep-alive') headers.push(raw[i], raw[i + 1]); }
    pool.dispatch({ method: req.method, path: req.url, headers, body: req.method === 'GET' || req.method === 'HEAD' ? null : req }, {
      onConnect() {},
      onError() { if (!res.headersSent) res.writeHead(502); res.end(); },
      onHeaders(status, rawHeaders) {
        const h = [];
        for (let i = 0; i < rawHeaders.length; i += 2) {
          const n = rawHeaders[i].toString('latin1');
          const l = n.toLowerCase();
          if (l !== 'connection' && l !== 'keep-alive' && l !== 'transfer-encoding') h.push(n, rawHeaders[i + 1].toString('latin1'));
        }
        res.writeHead(status, h);
        return true;
      },
      onData(chunk) { return res.write(chunk); },
      onComplete() { res.end(); },
    });
  });
  s.listen(0, '127.0.0.1', () => announce(s.address().port));
} else if (role === 'upstream') {
  const delay = Number(arg ?? 0);
  const item = { id: 1, name: 'Ada Lovelace', email: 'ada@example.com', roles: ['admin', 'editor'], active: true, bio: 'x'.repeat(860) };
  const body = Buffer.from(JSON.stringify(item));
  const answer = (res) => { res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length }); res.end(body); };
  const s = createServer(delay > 0 ? (req, res) => setTimeout(answer, delay, res) : (req, res) => answer(res));
  s.keepAliveTimeout = 60000;
  s.listen(0, '127.0.0.1', () => announce(s.address().port));
} else {
  const { serve } = await import(${JSON.stringify(resolve(here, '../dist/node/index.js'))});
  const mock = role === 'quiet-proxy'
    ? { endpointPrefix: '/api', fsDir: null, logLevel: 'silent', proxy: { target: arg }, journal: false }
    : { endpointPrefix: '/api', fsDir: arg, logLevel: 'silent', ...(extra ? { openapi: extra } : {}) };
  const server = await serve({ mock, port: 0, host: '127.0.0.1', logLevel: 'silent' });
  announce(Number(new URL(server.url).port));
}
`;

function spawnPinned(args, pattern) {
  const [cmd, full] = pin(0, process.execPath, args);
  const child = spawn(cmd, full, { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  return new Promise((res, rej) => {
    let buf = '';
    child.stdout.on('data', (d) => {
      buf += d;
      const m = pattern.exec(buf);
      if (m) res({ port: Number(m[1]), pids: [child.pid] });
    });
    child.once('exit', (code) => rej(new Error(`server ${args.join(' ')} exited (${code}): ${buf}`)));
    setTimeout(() => rej(new Error(`server ${args.join(' ')} did not announce its port within 20 s: ${buf}`)), 20_000).unref();
  });
}
const start = (args) => spawnPinned([join(work, 'server.mjs'), ...args], /\{"port":(\d+)\}/);

/** The mockyard CLI as a user starts it to pass the rest through (`--proxy`): its defaults, CORS and the journal, on; no request log. */
async function startCli(target) {
  const dir = join(work, `cli-${children.length}`);
  await mkdir(join(dir, 'mocks'), { recursive: true });
  await writeFile(join(dir, 'mockyard.config.mjs'), `export default { mock: { endpointPrefix: '/api', fsDir: ${JSON.stringify(join(dir, 'mocks'))}, logLevel: 'error', proxy: { target: ${JSON.stringify(target)} } }, logLevel: 'warn' };\n`);
  return spawnPinned([cli, '--config', join(dir, 'mockyard.config.mjs'), '--port', '0'], /listening on http:\/\/127\.0\.0\.1:(\d+)/);
}

/** CPU time (user + system, in clock ticks) the processes used so far (Linux /proc; NaN elsewhere). */
const TICK_US = 1e6 / Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim() || 100);
function cpuTicks(pids) {
  let sum = 0;
  for (const pid of pids) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      sum += Number(fields[11]) + Number(fields[12]); // utime, stime
    } catch {
      return NaN;
    }
  }
  return sum;
}

const toUs = (s) => {
  const m = /^([\d.]+)(us|ms|s)$/.exec(s);
  return m ? Number(m[1]) * (m[2] === 'us' ? 1 : m[2] === 'ms' ? 1e3 : 1e6) : NaN;
};

/** One wrk run against a target: req/s, median and p99 latency (µs), and CPU µs per request of the target's processes. */
function wrk(target, path, seconds, connections) {
  const [cmd, full] = pin(1, 'wrk', ['-t1', `-c${connections}`, `-d${seconds}s`, '--latency', '--timeout', '10s', `http://127.0.0.1:${target.port}${path}`]);
  const before = cpuTicks(target.pids);
  const out = execFileSync(cmd, full, { encoding: 'utf8' });
  const used = cpuTicks(target.pids) - before;
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0);
  if (non2xx) throw new Error(`${non2xx} non-2xx answers from ${path}`);
  const requests = Number(/(\d+) requests in/.exec(out)?.[1] ?? NaN);
  return {
    rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? NaN),
    p50: toUs(/\s50%\s+(\S+)/.exec(out)?.[1] ?? ''),
    p99: toUs(/\s99%\s+(\S+)/.exec(out)?.[1] ?? ''),
    cpu: (used * TICK_US) / requests,
  };
}
/** One GET on a connection of its own (a kept-alive one may have been closed by the server meanwhile). */
function getOnce(port, path) {
  return new Promise((res, rej) => {
    get({ host: '127.0.0.1', port, path, agent: false }, (r) => {
      let text = '';
      r.setEncoding('utf8');
      r.on('data', (c) => { text += c; });
      r.on('end', () => res(text));
    }).on('error', rej);
  });
}
const median = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];

/** Medians of interleaved wrk runs (the order reversed every round) of targets serving `path` the same. */
async function compare(name, targets, path, connections = 10) {
  const bodies = await Promise.all(targets.map((t) => getOnce(t.port, path)));
  if (bodies.some((b) => b !== bodies[0])) throw new Error(`${name}: answers differ`);
  for (const t of targets) wrk(t, path, 1, connections);
  const runs = targets.map(() => []);
  for (let i = 0; i < Number(a.reps); i++) {
    const order = targets.map((_, j) => j);
    if (i % 2 === 1) order.reverse();
    for (const j of order) runs[j].push(wrk(targets[j], path, a.duration, connections));
  }
  return {
    rows: runs.map((r) => ({ rps: median(r.map((x) => x.rps)), p50: median(r.map((x) => x.p50)), p99: median(r.map((x) => x.p99)), cpu: median(r.map((x) => x.cpu)) })),
    bytes: bodies[0].length,
  };
}

/** The engine alone: µs per get-one through handleCached, without and with validation (in this process, interleaved). */
async function engineCost(doc) {
  const { createMockApi, memoryFs } = await import(resolve(here, '../dist/index.node.js'));
  const make = (openapi) => createMockApi({ endpointPrefix: '/api', fs: memoryFs({ 'users/1.json': { id: 1, name: 'Ada Lovelace', email: 'ada@example.com', role: 'admin', age: 36 } }), logLevel: 'silent', ...(openapi ? { openapi } : {}) });
  const apis = [make(null), make(doc)];
  for (const api of apis) for (let i = 0; i < 2; i++) await api.handle(new Request('http://bench.local/api/users/1'));
  const round = (api) => {
    const t = performance.now();
    for (let i = 0; i < 50_000; i++) if (api.handleCached(new Request('http://bench.local/api/users/1')) === undefined) throw new Error('not on the fast path');
    return ((performance.now() - t) * 1000) / 50_000;
  };
  const runs = [[], []];
  for (let r = 0; r < 7; r++) for (const j of r % 2 ? [1, 0] : [0, 1]) runs[j].push(round(apis[j]));
  for (const api of apis) await api.close();
  return { without: median(runs[0]), with: median(runs[1]) };
}

try {
  await writeFile(join(work, 'server.mjs'), SERVER);
  const mocks = join(work, 'mocks');
  await mkdir(join(mocks, 'users'), { recursive: true });
  await writeFile(join(mocks, 'users', '1.json'), JSON.stringify({ id: 1, name: 'Ada Lovelace', email: 'ada@example.com', role: 'admin', age: 36 }));
  const doc = join(work, 'openapi.json');
  await writeFile(doc, JSON.stringify({
    openapi: '3.0.3', info: { title: 'bench', version: '1' },
    paths: { '/users/{id}': { get: {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } }, { name: 'fields', in: 'query', schema: { type: 'string' } }],
      responses: { 200: { description: 'a user', content: { 'application/json': { schema: { type: 'object' } } } } },
    } } },
  }));

  const date = new Date().toISOString();
  const load = loadavg().map((x) => x.toFixed(2)).join(' / ');
  const us = (x) => `${x.toFixed(0)} µs`;
  const lines = [
    `### Proxy overhead and OpenAPI validation cost (bench/proxy-openapi.mjs)`,
    '',
    `${date}, Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model}, load average before ${load}; servers ${hasTaskset ? 'on core 0 (targets too), wrk on core 1' : 'unpinned'}; ${a.reps} × ${a.duration}s per target and load, interleaved, medians. "proxied" = the mockyard CLI with \`--proxy\` as it ships (CORS and the devtools journal on). CPU/request: user + system time of the serving processes (a proxied request: the proxy's and the target's) ÷ requests answered.`,
    '',
    '| target answers after | case | 10 connections: req/s | ratio to direct | CPU/request | 1 connection: median round trip | ratio to direct | added by the proxy | p99 |',
    '|---|---|---|---|---|---|---|---|---|',
  ];
  for (const delay of [0, 1, 10]) {
    const upstream = await start(['upstream', String(delay)]);
    const via = (t) => ({ ...t, pids: [...t.pids, ...upstream.pids] }); // a proxied request's CPU is the proxy's and the target's
    const target = `http://127.0.0.1:${upstream.port}`;
    const cases = [['direct', upstream], ['proxied (mockyard CLI)', via(await startCli(target))]];
    if (delay === 0) {
      cases.push(['mockyard `serve()`, journal off', via(await start(['quiet-proxy', target]))]);
      cases.push(['raw node:http reverse proxy', via(await start(['raw-proxy', target]))]);
      cases.push(['undici dispatch, bare', via(await start(['dispatch-proxy', target]))]);
    }
    const targets = cases.map(([, t]) => t);
    const c10 = await compare(`proxy-${delay}ms-c10`, targets, '/api/item', 10);
    const c1 = await compare(`proxy-${delay}ms-c1`, targets, '/api/item', 1);
    const d10 = c10.rows[0];
    const d1 = c1.rows[0];
    cases.forEach(([name], j) => {
      const r10 = c10.rows[j];
      const r1 = c1.rows[j];
      const first = j === 0;
      lines.push(`| ${first ? (delay ? `${delay} ms` : `at once (${c10.bytes} B)`) : ''} | ${name} | ${r10.rps.toFixed(0)} | ${first ? '1' : `**${(d10.rps / r10.rps).toFixed(2)}×**`} | ${us(r10.cpu)} | ${us(r1.p50)} | ${first ? '1' : `**${(r1.p50 / d1.p50).toFixed(2)}×**`} | ${first ? '' : `+${us(r1.p50 - d1.p50)}`} | ${us(r1.p99)} |`);
    });
    for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGTERM');
  }

  const plain = await start(['files', mocks]);
  const validated = await start(['files', mocks, doc]);
  const v = await compare('get-one', [plain, validated], '/api/users/1');
  const [without, withValidation] = v.rows;
  const engineOnly = await engineCost(doc);
  lines.push(
    '',
    '| case | req/s | CPU/request | cost | goal |',
    '|---|---|---|---|---|',
    `| get-one without validation | ${without.rps.toFixed(0)} | ${us(without.cpu)} | | |`,
    `| get-one with \`mock.openapi\` | ${withValidation.rps.toFixed(0)} | ${us(withValidation.cpu)} | throughput **${((1 - withValidation.rps / without.rps) * 100).toFixed(1)} %**, CPU +${((withValidation.cpu / without.cpu - 1) * 100).toFixed(1)} % | ≤ 20 % |`,
    `| in process (\`api.handleCached\`, memory fs, no HTTP), median of 7 × 50,000 | | without ${engineOnly.without.toFixed(2)} µs, with ${engineOnly.with.toFixed(2)} µs | validation adds ${(engineOnly.with - engineOnly.without).toFixed(2)} µs per request | |`,
  );
  console.log(lines.join('\n'));
} finally {
  for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
  await rm(work, { recursive: true, force: true });
}
