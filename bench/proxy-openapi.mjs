#!/usr/bin/env node
// Proxy overhead and OpenAPI validation cost (issue 12 item 5), each against its baseline in the
// same run. Run inside `flock /tmp/mockyard-bench.lock` (npm run build first; wrk required).
//
//   proxy-1k:   wrk → raw node:http upstream (1 KB JSON)            = direct
//               wrk → mockyard serve() with proxy → that upstream   = proxied
//               wrk → a raw node:http reverse proxy → that upstream = what a hand-written Node proxy
//                 costs (keep-alive agent, headers copied, body piped: the least a proxy does)
//               and the mockyard proxy with the devtools journal off (it is on by default on loopback),
//               and with the fetch transport (other runtimes; the node hosts' transport before undici)
//               overhead = direct req/s ÷ proxied req/s (goal ≤ 1.3), and proxied vs the raw proxy
//   get-one:    wrk → mockyard serving users/1.json                 = without validation
//               wrk → the same with mock.openapi (GET /users/{id})  = with validation
//               cost = 1 − with ÷ without (goal ≤ 20 %)
// Servers pinned to core 0 (the upstream of the proxy case too), wrk to core 1; alternating
// rounds, medians. Prints a Markdown table for bench/RESULTS.md.
//
//   node bench/proxy-openapi.mjs [--duration 3] [--reps 3]
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const here = dirname(fileURLToPath(import.meta.url));
const { values: a } = parseArgs({ options: { duration: { type: 'string', default: '3' }, reps: { type: 'string', default: '3' } } });
const hasTaskset = spawnSync('taskset', ['-c', '0', 'true']).status === 0;
const pin = (core, cmd, args) => (hasTaskset ? ['taskset', ['-c', String(core), cmd, ...args]] : [cmd, args]);
const work = await mkdtemp(join(tmpdir(), 'mockyard-bench-po-'));
const children = [];

const SERVER = `
import { createServer } from 'node:http';
const [role, arg, doc] = process.argv.slice(2);
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
} else if (role === 'upstream') {
  const item = { id: 1, name: 'Ada Lovelace', email: 'ada@example.com', roles: ['admin', 'editor'], active: true, bio: 'x'.repeat(860) };
  const body = Buffer.from(JSON.stringify(item));
  const s = createServer((req, res) => { res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length }); res.end(body); });
  s.keepAliveTimeout = 60000;
  s.listen(0, '127.0.0.1', () => announce(s.address().port));
} else {
  const { serve } = await import(${JSON.stringify(resolve(here, '../dist/node/index.js'))});
  if (doc === 'fetch') {
    // The transport other runtimes use (and the node hosts used before the undici one).
    const { fetchTransport, setUpstreamTransport } = await import(${JSON.stringify(resolve(here, '../dist/engine/proxy/transport.js'))});
    setUpstreamTransport(fetchTransport);
  }
  const mock = role === 'proxy'
    ? { endpointPrefix: '/api', fsDir: null, logLevel: 'silent', proxy: { target: arg }, ...(doc === 'no-journal' ? { journal: false } : {}) }
    : { endpointPrefix: '/api', fsDir: arg, logLevel: 'silent', ...(doc ? { openapi: doc } : {}) };
  const server = await serve({ mock, port: 0, host: '127.0.0.1', logLevel: 'silent' });
  const api = server.engines?.find?.((e) => e.ready) ;
  if (api) await api.ready();
  announce(new URL(server.url).port);
}
`;

function start(args) {
  const [cmd, full] = pin(0, process.execPath, [join(work, 'server.mjs'), ...args]);
  const child = spawn(cmd, full, { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  return new Promise((res, rej) => {
    let buf = '';
    child.stdout.on('data', (d) => {
      buf += d;
      const line = buf.split('\n').find((l) => l.startsWith('{'));
      if (line) res({ port: JSON.parse(line).port, pids: [child.pid] });
    });
    child.once('exit', (code) => rej(new Error(`server ${args[0]} exited (${code})`)));
  });
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

/** One wrk run against a target: req/s, and CPU µs per request of the target's processes. */
function wrk(target, path, seconds) {
  const [cmd, full] = pin(1, 'wrk', ['-t1', '-c10', `-d${seconds}s`, '--timeout', '10s', `http://127.0.0.1:${target.port}${path}`]);
  const before = cpuTicks(target.pids);
  const out = execFileSync(cmd, full, { encoding: 'utf8' });
  const used = cpuTicks(target.pids) - before;
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0);
  if (non2xx) throw new Error(`${non2xx} non-2xx answers from ${path}`);
  const requests = Number(/(\d+) requests in/.exec(out)?.[1] ?? NaN);
  return { rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? NaN), cpu: (used * TICK_US) / requests };
}
const median = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];

/** Medians of interleaved wrk runs (the order reversed every round) of targets serving `path` the same. */
async function compare(name, targets, path) {
  const bodies = await Promise.all(targets.map(async (t) => (await fetch(`http://127.0.0.1:${t.port}${path}`)).text()));
  if (bodies.some((b) => b !== bodies[0])) throw new Error(`${name}: answers differ`);
  for (const t of targets) wrk(t, path, 1);
  const runs = targets.map(() => []);
  for (let i = 0; i < Number(a.reps); i++) {
    const order = targets.map((_, j) => j);
    if (i % 2 === 1) order.reverse();
    for (const j of order) runs[j].push(wrk(targets[j], path, a.duration));
  }
  return {
    medians: runs.map((r) => median(r.map((x) => x.rps))),
    cpu: runs.map((r) => median(r.map((x) => x.cpu))),
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
  const upstream = await start(['upstream']);
  // A proxied request's CPU is the proxy's and the upstream's.
  const viaUpstream = (t) => ({ ...t, pids: [...t.pids, ...upstream.pids] });
  const proxy = viaUpstream(await start(['proxy', `http://127.0.0.1:${upstream.port}`]));
  const rawProxy = viaUpstream(await start(['raw-proxy', `http://127.0.0.1:${upstream.port}`]));
  const quietProxy = viaUpstream(await start(['proxy', `http://127.0.0.1:${upstream.port}`, 'no-journal']));
  const fetchProxy = viaUpstream(await start(['proxy', `http://127.0.0.1:${upstream.port}`, 'fetch']));
  const plain = await start(['files', mocks]);
  const validated = await start(['files', mocks, doc]);
  const p = await compare('proxy-1k', [upstream, proxy, rawProxy, quietProxy, fetchProxy], '/api/item');
  const v = await compare('get-one', [plain, validated], '/api/users/1');
  const [direct, proxied, raw, quiet, viaFetch] = p.medians;
  const [directCpu, proxiedCpu, rawCpu, quietCpu, fetchCpu] = p.cpu;
  const [without, withValidation] = v.medians;
  const [withoutCpu, withCpu] = v.cpu;
  const engineOnly = await engineCost(doc);
  const date = new Date().toISOString();
  const us = (x) => `${x.toFixed(0)} µs`;
  console.log([
    `### Proxy overhead and OpenAPI validation cost (bench/proxy-openapi.mjs)`,
    '',
    `${date}, Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model}, load average before ${loadavg().map((x) => x.toFixed(2)).join(' / ')}; servers ${hasTaskset ? 'on core 0, wrk on core 1' : 'unpinned'}; wrk -t1 -c10, ${a.reps} × ${a.duration}s per target, interleaved, medians. CPU/request: user + system time of the serving processes (a proxied request: the proxy's and the upstream's) ÷ requests answered.`,
    '',
    '| case | req/s | CPU/request | throughput ratio to direct | CPU ratio to direct | goal |',
    '|---|---|---|---|---|---|',
    `| direct to the upstream (${p.bytes} B JSON) | ${direct.toFixed(0)} | ${us(directCpu)} | 1 | 1 | |`,
    `| through the mockyard proxy (defaults) | ${proxied.toFixed(0)} | ${us(proxiedCpu)} | **${(direct / proxied).toFixed(2)}×** | ${(proxiedCpu / directCpu).toFixed(2)}× | ≤ 1.3× |`,
    `| through the mockyard proxy, \`journal: false\` | ${quiet.toFixed(0)} | ${us(quietCpu)} | ${(direct / quiet).toFixed(2)}× | ${(quietCpu / directCpu).toFixed(2)}× | |`,
    `| through the mockyard proxy, fetch transport (as before) | ${viaFetch.toFixed(0)} | ${us(fetchCpu)} | ${(direct / viaFetch).toFixed(2)}× | ${(fetchCpu / directCpu).toFixed(2)}× | |`,
    `| through a raw node:http reverse proxy | ${raw.toFixed(0)} | ${us(rawCpu)} | ${(direct / raw).toFixed(2)}× | ${(rawCpu / directCpu).toFixed(2)}× | |`,
    '',
    '| case | req/s | CPU/request | cost | goal |',
    '|---|---|---|---|---|',
    `| get-one without validation | ${without.toFixed(0)} | ${us(withoutCpu)} | | |`,
    `| get-one with \`mock.openapi\` | ${withValidation.toFixed(0)} | ${us(withCpu)} | throughput **${((1 - withValidation / without) * 100).toFixed(1)} %**, CPU +${((withCpu / withoutCpu - 1) * 100).toFixed(1)} % | ≤ 20 % |`,
    `| in process (\`api.handleCached\`, memory fs, no HTTP), median of 7 × 50,000 | | without ${engineOnly.without.toFixed(2)} µs, with ${engineOnly.with.toFixed(2)} µs | validation adds ${(engineOnly.with - engineOnly.without).toFixed(2)} µs per request | |`,
  ].join('\n'));
} finally {
  for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
  await rm(work, { recursive: true, force: true });
}
