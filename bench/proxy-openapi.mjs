#!/usr/bin/env node
// Proxy overhead and OpenAPI validation cost (issue 12 item 5), each against its baseline in the
// same run. Run inside `flock /tmp/mockyard-bench.lock` (npm run build first; wrk required).
//
//   proxy-1k:   wrk → raw node:http upstream (1 KB JSON)            = direct
//               wrk → mockyard serve() with proxy → that upstream   = proxied
//               overhead = direct req/s ÷ proxied req/s (goal ≤ 1.3)
//   get-one:    wrk → mockyard serving users/1.json                 = without validation
//               wrk → the same with mock.openapi (GET /users/{id})  = with validation
//               cost = 1 − with ÷ without (goal ≤ 20 %)
// Servers pinned to core 0 (the upstream of the proxy case too), wrk to core 1; alternating
// rounds, medians. Prints a Markdown table for bench/RESULTS.md.
//
//   node bench/proxy-openapi.mjs [--duration 3] [--reps 3]
import { execFileSync, spawn, spawnSync } from 'node:child_process';
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
if (role === 'upstream') {
  const item = { id: 1, name: 'Ada Lovelace', email: 'ada@example.com', roles: ['admin', 'editor'], active: true, bio: 'x'.repeat(860) };
  const body = Buffer.from(JSON.stringify(item));
  const s = createServer((req, res) => { res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length }); res.end(body); });
  s.keepAliveTimeout = 60000;
  s.listen(0, '127.0.0.1', () => announce(s.address().port));
} else {
  const { serve } = await import(${JSON.stringify(resolve(here, '../dist/node/index.js'))});
  const mock = role === 'proxy'
    ? { endpointPrefix: '/api', fsDir: null, logLevel: 'silent', proxy: { target: arg } }
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
      if (line) res({ port: JSON.parse(line).port });
    });
    child.once('exit', (code) => rej(new Error(`server ${args[0]} exited (${code})`)));
  });
}

function wrk(port, path, seconds) {
  const [cmd, full] = pin(1, 'wrk', ['-t1', '-c10', `-d${seconds}s`, '--timeout', '10s', `http://127.0.0.1:${port}${path}`]);
  const out = execFileSync(cmd, full, { encoding: 'utf8' });
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0);
  if (non2xx) throw new Error(`${non2xx} non-2xx answers from ${path}`);
  return Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? NaN);
}
const median = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];

async function compare(name, a1, a2, path) {
  const body1 = await (await fetch(`http://127.0.0.1:${a1.port}${path}`)).text();
  const body2 = await (await fetch(`http://127.0.0.1:${a2.port}${path}`)).text();
  if (body1 !== body2) throw new Error(`${name}: answers differ`);
  wrk(a1.port, path, 1);
  wrk(a2.port, path, 1);
  const r1 = [];
  const r2 = [];
  for (let i = 0; i < Number(a.reps); i++) {
    if (i % 2 === 0) { r1.push(wrk(a1.port, path, a.duration)); r2.push(wrk(a2.port, path, a.duration)); }
    else { r2.push(wrk(a2.port, path, a.duration)); r1.push(wrk(a1.port, path, a.duration)); }
  }
  return { m1: median(r1), m2: median(r2), bytes: body1.length };
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
  const proxy = await start(['proxy', `http://127.0.0.1:${upstream.port}`]);
  const plain = await start(['files', mocks]);
  const validated = await start(['files', mocks, doc]);
  const p = await compare('proxy-1k', upstream, proxy, '/api/item');
  const v = await compare('get-one', plain, validated, '/api/users/1');
  const date = new Date().toISOString();
  console.log([
    `### Proxy overhead and OpenAPI validation cost (bench/proxy-openapi.mjs)`,
    '',
    `${date}, Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model}, load average before ${loadavg().map((x) => x.toFixed(2)).join(' / ')}; servers ${hasTaskset ? 'on core 0, wrk on core 1' : 'unpinned'}; wrk -t1 -c10, ${a.reps} × ${a.duration}s per target, alternating, medians.`,
    '',
    '| case | baseline req/s | measured req/s | figure | goal |',
    '|---|---|---|---|---|',
    `| proxy-1k (${p.bytes} B JSON) | direct to upstream ${p.m1.toFixed(0)} | through the proxy ${p.m2.toFixed(0)} | overhead **${(p.m1 / p.m2).toFixed(2)}×** | ≤ 1.3× |`,
    `| get-one + openapi | without validation ${v.m1.toFixed(0)} | with validation ${v.m2.toFixed(0)} | cost **${((1 - v.m2 / v.m1) * 100).toFixed(1)} %** | ≤ 20 % |`,
  ].join('\n'));
} finally {
  for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
  await rm(work, { recursive: true, force: true });
}
