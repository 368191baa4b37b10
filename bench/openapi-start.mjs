// Serving an OpenAPI document directly (`mockyard openapi.yaml`), in one run:
//
//  1. Start-up on GitHub's REST description (npm @octokit/openapi, api.github.com.json, 13 MB):
//     the time from spawning the command to the first 200 answer of
//     `GET /repos/octocat/hello-world/issues/1` (polled every 20 ms), and the server's RSS then
//     (the process tree's, from /proc), and the CPU time it used until then (user + system, from
//     /proc: unlike the wall time, not stretched by other processes on a loaded machine).
//     mockyard (`node dist/node/cli.js DOC --port P`) and, when PRISM is set (the path of Prism's `prism` binary, e.g. an install of
//     @stoplight/prism-cli@5 under /tmp), Prism (`prism mock DOC -p P`), alternating, REPS rounds.
//  2. Throughput (wrk, 10 connections, one thread, DURATION s) of a generated GET
//     (`GET /v2/pet/1`, Swagger Petstore 3.0) and a validated POST (`POST /v2/store/order`, a
//     JSON body checked against the document, an item created) against the raw node:http
//     reference server (/work/shared/bench/ref-server.mjs: a file from memory; the POST there is
//     its exclusive create of a file), each pinned to core 0, wrk to core 1; with each server's
//     CPU µs per request (from /proc; `ratio` = the reference's CPU per request / ours, the
//     throughput ratio a saturated core would give, whatever else the machine runs).
//
// Usage: node bench/openapi-start.mjs [--doc PATH] [--reps 3] [--duration 5] [--parts startup,throughput]
//        PRISM=/tmp/prism5/node_modules/.bin/prism node bench/openapi-start.mjs
// The machine is shared and noisy: the script prints `uptime` before and after.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdtemp, readFile, writeFile, mkdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { cpuUs, median, parseWrk, pin } from './harness.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const { values } = parseArgs({
  options: {
    doc: { type: 'string', default: '/tmp/oasx/node_modules/@octokit/openapi/generated/api.github.com.json' },
    reps: { type: 'string', default: '3' },
    duration: { type: 'string', default: '5' },
    parts: { type: 'string', default: 'startup,throughput' },
  },
});
const REPS = Number(values.reps);
const DURATION = Number(values.duration);
const CLI = join(ROOT, 'dist/node/cli.js');
const PETSTORE = join(ROOT, 'test/fixtures/openapi/swagger-petstore-3.0.yaml');
const REF = '/work/shared/bench/ref-server.mjs';
const WRK_LUA = '/work/shared/bench/wrk-json.lua';
const uptime = () => execFileSync('uptime', { encoding: 'utf8' }).trim();
let nextPort = 4900;

/** RSS (kB) of a process and its descendants, from /proc. */
async function treeRss(pid) {
  let total = 0;
  const walk = async (p) => {
    try {
      const status = await readFile(`/proc/${p}/status`, 'utf8');
      total += Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
      const children = (await readFile(`/proc/${p}/task/${p}/children`, 'utf8')).trim().split(/\s+/).filter(Boolean);
      for (const c of children) await walk(c);
    } catch {
      // gone
    }
  };
  await walk(pid);
  return total;
}

/** CPU seconds (user + system) a process and its descendants used so far, from /proc: a figure the machine's load does not stretch. */
async function treeCpu(pid) {
  let us = 0;
  const walk = async (p) => {
    us += (await cpuUs(p)) ?? 0;
    try {
      const children = (await readFile(`/proc/${p}/task/${p}/children`, 'utf8')).trim().split(/\s+/).filter(Boolean);
      for (const c of children) await walk(c);
    } catch {
      // gone
    }
  };
  await walk(pid);
  return us / 1e6;
}

async function firstAnswer(cmd, args, url, headers = {}) {
  const start = performance.now();
  const child = spawn(cmd, args, { stdio: ['ignore', 'ignore', 'ignore'], detached: true });
  try {
    for (;;) {
      if (performance.now() - start > 120_000) throw new Error(`${cmd}: no answer within 120 s`);
      try {
        const res = await fetch(url, { headers });
        await res.arrayBuffer();
        if (res.status === 200) break;
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 20));
    }
    const ms = performance.now() - start;
    const rssMb = (await treeRss(child.pid)) / 1024;
    const cpuS = await treeCpu(child.pid);
    return { ms, rssMb, cpuS };
  } finally {
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      // already gone
    }
    await new Promise((r) => (child.exitCode !== null ? r() : child.once('exit', r)));
  }
}

async function startup() {
  const path = '/repos/octocat/hello-world/issues/1';
  const runs = { mockyard: [], prism: [] };
  for (let i = 0; i < REPS; i++) {
    const order = i % 2 ? ['prism', 'mockyard'] : ['mockyard', 'prism'];
    for (const who of order) {
      const port = nextPort++;
      if (who === 'mockyard') runs.mockyard.push(await firstAnswer('node', [CLI, values.doc, '--port', String(port), '--quiet', '--prefix', '/'], `http://127.0.0.1:${port}${path}`));
      else if (process.env.PRISM) runs.prism.push(await firstAnswer(process.env.PRISM, ['mock', values.doc, '-p', String(port), '-h', '127.0.0.1'], `http://127.0.0.1:${port}${path}`));
    }
  }
  const summary = (xs) =>
    xs.length
      ? { firstAnswerMs: Math.round(median(xs.map((x) => x.ms))), cpuS: +median(xs.map((x) => x.cpuS)).toFixed(2), rssMb: Math.round(median(xs.map((x) => x.rssMb))), runs: xs.map((x) => `${Math.round(x.ms)} ms / ${x.cpuS.toFixed(2)} s CPU / ${Math.round(x.rssMb)} MB`) }
      : null;
  return { mockyard: summary(runs.mockyard), prism: summary(runs.prism) };
}

function startServer(cmd, args, ready) {
  const [c, full] = pin(0, cmd, args);
  const child = spawn(c, full, { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let buf = '';
    child.stdout.on('data', (d) => {
      buf += d;
      if (ready.test(buf)) resolve(child);
    });
    child.once('exit', (code) => reject(new Error(`${cmd} exited (${code})`)));
  });
}

/**
 * wrk against `url` after a 1 s warm-up (JIT, first-use compilation); with the server's pid, also
 * the server's CPU µs per request (load-independent).
 */
async function wrk(url, env, pid) {
  const [wc, warm] = pin(1, 'wrk', ['-t1', '-c10', '-d1s', '-s', WRK_LUA, url]);
  spawnSync(wc, warm, { encoding: 'utf8', env: { ...process.env, ...env } });
  const [c, full] = pin(1, 'wrk', ['-t1', '-c10', `-d${DURATION}s`, '-s', WRK_LUA, url]);
  const before = pid === undefined ? null : await cpuUs(pid);
  const out = spawnSync(c, full, { encoding: 'utf8', env: { ...process.env, ...env } });
  const after = pid === undefined ? null : await cpuUs(pid);
  const result = parseWrk(out.stdout);
  return { ...result, cpuUsPerRequest: before === null || after === null ? null : +((after - before) / result.requests).toFixed(1) };
}

async function throughput() {
  const dir = await mkdtemp(join(tmpdir(), 'openapi-bench-'));
  await mkdir(join(dir, 'pet'), { recursive: true });
  const pet = { id: 1, name: 'doggie', category: { id: 1, name: 'Dogs' }, photoUrls: ['https://example.com/a.png'], tags: [{ id: 1, name: 'good' }], status: 'available' };
  await writeFile(join(dir, 'pet', '1.json'), JSON.stringify(pet));
  const order = JSON.stringify({ petId: 1, quantity: 2, shipDate: '2024-01-01T00:00:00Z', status: 'placed', complete: false });
  const rounds = [];
  try {
    for (let i = 0; i < REPS; i++) {
      const mockPort = nextPort++;
      const refPort = nextPort++;
      const mock = await startServer('node', [CLI, PETSTORE, '--port', String(mockPort), '--quiet', '--log-level', 'warn'], /listening on/);
      const ref = await startServer('node', [REF, '--dir', dir, '--port', String(refPort), '--prefix', '/v2'], /"ready":true/);
      try {
        const headers = 'api_key: k\nAuthorization: Bearer t';
        const getMock = await wrk(`http://127.0.0.1:${mockPort}/v2/pet/1`, { BENCH_HEADERS: headers }, mock.pid);
        const getRef = await wrk(`http://127.0.0.1:${refPort}/v2/pet/1`, {}, ref.pid);
        const postMock = await wrk(`http://127.0.0.1:${mockPort}/v2/store/order`, { BENCH_METHOD: 'POST', BENCH_BODY: order, BENCH_CTYPE: 'application/json', BENCH_HEADERS: headers }, mock.pid);
        // The reference's POST is an exclusive create of one file: after the first it answers 409,
        // which is the same work (parse, route, check) without the write.
        const postRef = await wrk(`http://127.0.0.1:${refPort}/v2/store/order`, { BENCH_METHOD: 'POST', BENCH_BODY: order, BENCH_CTYPE: 'application/json' }, ref.pid);
        rounds.push({
          getMock: getMock.rps,
          getRef: getRef.rps,
          postMock: postMock.rps,
          postRef: postRef.rps,
          cpuUsPerRequest: { getMock: getMock.cpuUsPerRequest, getRef: getRef.cpuUsPerRequest, postMock: postMock.cpuUsPerRequest, postRef: postRef.cpuUsPerRequest },
        });
      } finally {
        mock.kill();
        ref.kill();
      }
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  const m = (k) => Math.round(median(rounds.map((r) => r[k])));
  const cpu = (k) => median(rounds.map((r) => r.cpuUsPerRequest[k]));
  return {
    generatedGet: { mockyard: m('getMock'), reference: m('getRef'), ratio: +(m('getMock') / m('getRef')).toFixed(2), cpuUsPerRequest: { mockyard: cpu('getMock'), reference: cpu('getRef'), ratio: +(cpu('getRef') / cpu('getMock')).toFixed(2) } },
    validatedPost: { mockyard: m('postMock'), reference: m('postRef'), ratio: +(m('postMock') / m('postRef')).toFixed(2), cpuUsPerRequest: { mockyard: cpu('postMock'), reference: cpu('postRef'), ratio: +(cpu('postRef') / cpu('postMock')).toFixed(2) } },
    rounds,
  };
}

console.log(`uptime before: ${uptime()}`);
const parts = new Set(values.parts.split(','));
if (parts.has('startup')) console.log(JSON.stringify({ startup: await startup() }, null, 2));
if (parts.has('throughput')) console.log(JSON.stringify({ throughput: await throughput() }, null, 2));
console.log(`uptime after: ${uptime()}`);
