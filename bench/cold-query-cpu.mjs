#!/usr/bin/env node
// Server CPU per request on the shared yardstick's cold-query cases (query-10k-cold,
// query-100k-cold: every request a different age bound), for when the machine is too loaded
// for req/s to mean anything: CPU time (/proc, user+system) a server spends per answered
// request moves much less with other load than throughput does.
// Servers: the yardstick's ref-server (--mode memory), the mockyard CLI from dist, and with
// --baseline DIR an earlier build (DIR/dist/node/cli.js). Answers are checked equal first.
//   node bench/cold-query-cpu.mjs [--yardstick /work/shared/bench] [--baseline DIR] [--requests 3000] [--rounds 3]
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const here = dirname(fileURLToPath(import.meta.url));
const { values: a } = parseArgs({ options: {
  yardstick: { type: 'string', default: '/work/shared/bench' }, baseline: { type: 'string' },
  requests: { type: 'string', default: '3000' }, rounds: { type: 'string', default: '3' },
} });
const ys = resolve(a.yardstick);
const cases = JSON.parse(readFileSync(join(ys, 'cases', 'queries.json'), 'utf8')).filter((c) => c.vary);
const work = await mkdtemp(join(tmpdir(), 'mockyard-coldcpu-'));
const children = [];
const tick = 100; // USER_HZ on Linux
function cpuMs(pid) {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(f[11]) + Number(f[12])) * 1000) / tick;
}
function start(args, ready) {
  const child = spawn('taskset', ['-c', '0', process.execPath, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  return new Promise((res, rej) => {
    let out = '';
    child.stdout.on('data', (d) => { out += d; const m = ready.exec(out); if (m) res({ pid: child.pid, url: m[1] }); });
    child.once('exit', (code) => rej(new Error(`exited ${code}: ${out}`)));
  });
}
const agent = new Agent({ keepAlive: true, maxSockets: 4 });
function get(url) {
  return new Promise((res, rej) => {
    request(url, { agent, headers: { Accept: 'application/json' } }, (r) => {
      const chunks = [];
      r.on('data', (c) => chunks.push(c));
      r.on('end', () => res({ status: r.statusCode, total: r.headers['x-total-count'], body: Buffer.concat(chunks).toString() }));
    }).on('error', rej).end();
  });
}
let counter = 0;
async function load(base, path, n) {
  let next = 0;
  const worker = async () => { while (next++ < n) await get(base + path.replaceAll('{n}', String(++counter))); };
  await Promise.all([worker(), worker(), worker(), worker()]);
}
try {
  spawnSync(process.execPath, [join(ys, 'gen-fixtures.mjs'), '--out', join(work, 'ref')]);
  spawnSync(process.execPath, [join(ys, 'gen-fixtures.mjs'), '--out', join(work, 'mine')]);
  const config = join(work, 'mockyard.config.mjs');
  await writeFile(config, `export default { mock: { endpointPrefix: '/api', fsDir: './mine', logLevel: 'error',
    pagination: { GET: { type: 'query-param', limit: 'limit', skip: 'skip', sort: 'sort', order: 'order' } },
    filters: { GET: { type: 'query-param', filters: [{ key: 'role', valueType: 'string', comparison: 'eq' }, { key: 'age', valueType: 'number', comparison: 'gte' }] } } }, logLevel: 'warn' };\n`);
  const targets = { ref: await start([join(ys, 'ref-server.mjs'), '--dir', join(work, 'ref'), '--port', '0', '--mode', 'memory'], /"url":"(http:\/\/[^"]+)"/) };
  const cli = (root) => start([resolve(root, 'dist/node/cli.js'), '--config', config, '--port', '0'], /listening on (http:\/\/127\.0\.0\.1:\d+)/);
  targets.mockyard = await cli(resolve(here, '..'));
  if (a.baseline) targets.before = await cli(resolve(a.baseline));
  for (const t of Object.keys(targets)) if (t !== 'ref') targets[t].url += '/api';
  const rows = [];
  for (const c of cases) {
    const answers = {};
    for (const [name, t] of Object.entries(targets)) {
      const r = await get(t.url + c.path.replaceAll('{n}', '7'));
      answers[name] = `${r.status} ${r.total} ${r.body}`;
    }
    if (new Set(Object.values(answers)).size !== 1) throw new Error(`${c.name}: answers differ`);
    const n = Math.max(200, Math.round(Number(a.requests) / (c.name.includes('100k') ? 5 : 1)));
    const per = Object.fromEntries(Object.keys(targets).map((k) => [k, []]));
    for (const t of Object.values(targets)) await load(t.url, c.path, 500); // warm-up (JIT)
    for (let round = 0; round < Number(a.rounds); round++) {
      for (const [name, t] of Object.entries(targets)) {
        const before = cpuMs(t.pid);
        await load(t.url, c.path, n);
        per[name].push(((cpuMs(t.pid) - before) * 1000) / n);
      }
    }
    const median = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
    const ref = median(per.ref);
    for (const [name, xs] of Object.entries(per)) {
      rows.push(`| ${c.name} | ${name} | ${xs.map((x) => x.toFixed(0)).join(' / ')} | ${median(xs).toFixed(0)} | **${(ref / median(xs)).toFixed(2)}** |`);
    }
  }
  const load1 = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' / ');
  console.log(`${new Date().toISOString()}, load average ${load1}; ${a.rounds} rounds, 4 connections; server CPU µs per request (user+system, /proc), ratio = ref / target (higher is better)\n`);
  console.log('| case | target | runs µs/request | median | ratio to ref |\n|---|---|---|---:|---:|');
  console.log(rows.join('\n'));
} finally {
  agent.destroy();
  for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
  await rm(work, { recursive: true, force: true });
}
