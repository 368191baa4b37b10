#!/usr/bin/env node
// What the devtools request journal and CORS decoration cost on get-one (GET /api/users/1, a
// cached small file) through the node host: a same-run A/B of four configurations of the same
// build: `neither`, `journal` (the default ring: 1,000 entries, 4 KiB bodies), `cors` (the CLI's
// default policy: localhost origins) and `both` (what the CLI runs by default), each as a share
// of `neither`.
//
// Two modes (both print one Markdown table; nothing is written):
//   wrk (default): each configuration a `serve()` process on core 0, wrk on core 1 (as the
//     shared yardstick pins them), plus a raw node:http server answering the same bytes; rounds
//     interleaved, medians of req/s and of the server's CPU µs per request (user + system time
//     from /proc/<pid>/stat over the run, divided by the requests answered: steadier than req/s
//     when other work shares the machine);
//   --in-process: no sockets; per request a node IncomingMessage with its own header strings and
//     URL (as the parser makes them), the node host's lazy Request over it and `host.answer()`,
//     what the node handler calls (src/node/request-handler.ts); CPU ns per request
//     (process.cpuUsage, all threads: the GC's too), interleaved rounds, medians. With
//     --baseline DIR (a checkout with a build, e.g. main's) the same four configurations of
//     DIR/dist run in the same rounds, so a change is measured against what it replaces.
// --origin URL sends `Origin: URL` with every request (the yardstick sends none; a browser page
// on another origin does); default http://localhost:5173 in-process, none with wrk unless given.
// --browser adds the other headers Chromium sends with a page's fetch() (user agent, client
// hints, Sec-Fetch-*, Referer, Accept-*: 13 more), as a page's requests reach the server.
//   npm run build && node bench/journal.mjs [--rounds 5] [--seconds 3] [--origin http://localhost:5173]
//   npm run build && node bench/journal.mjs --in-process [--rounds 9] [--calls 200000] [--baseline /work/main] [--no-origin]
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const { values: a } = parseArgs({
  options: {
    rounds: { type: 'string' }, seconds: { type: 'string', default: '3' }, child: { type: 'string' },
    'in-process': { type: 'boolean', default: false }, calls: { type: 'string', default: '200000' },
    baseline: { type: 'string' }, origin: { type: 'string' }, 'no-origin': { type: 'boolean', default: false },
    browser: { type: 'boolean', default: false },
  },
});
/** What Chromium 131 sends with a page's fetch() besides Host and Origin. */
const BROWSER = a.browser ? [
  ['Connection', 'keep-alive'], ['sec-ch-ua-platform', '"Linux"'], ['User-Agent', 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'],
  ['sec-ch-ua', '"Chromium";v="131", "Not_A Brand";v="24"'], ['sec-ch-ua-mobile', '?0'], ['Accept', '*/*'],
  ['Sec-Fetch-Site', 'same-site'], ['Sec-Fetch-Mode', 'cors'], ['Sec-Fetch-Dest', 'empty'], ['Referer', 'http://localhost:5173/'],
  ['Accept-Encoding', 'gzip, deflate, br, zstd'], ['Accept-Language', 'en-US,en;q=0.9'],
] : [['Accept', 'application/json']];
const BODY = JSON.stringify({ id: 1, name: 'Ada', role: 'admin', age: 36 }, null, 2);
/** The CLI's default CORS policy (src/node/cli.ts LOCAL_ORIGINS). */
const LOCAL_ORIGINS = [/^http:\/\/localhost(:\d+)?$/, /^http:\/\/127\.0\.0\.1(:\d+)?$/, /^http:\/\/\[::1\](:\d+)?$/];
const CONFIGS = { neither: { journal: false, cors: false }, journal: { journal: true, cors: false }, cors: { journal: false, cors: true }, both: { journal: true, cors: true } };
const mockOptions = (memoryFs, c) => ({
  endpointPrefix: '/api', fs: memoryFs({ 'users/1.json': BODY }), logLevel: 'silent',
  journal: c.journal, cors: c.cors ? { origins: LOCAL_ORIGINS } : false,
});
const here = fileURLToPath(new URL('..', import.meta.url));
const median = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
const uptime = () => spawnSync('uptime', { encoding: 'utf8' }).stdout.trim();
const pct = (x, base) => `${x >= base ? '+' : ''}${(((x - base) / base) * 100).toFixed(1)} %`;

if (a.child) {
  let url;
  if (a.child === 'raw') {
    const { createServer } = await import('node:http');
    const server = createServer((req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(BODY) });
      res.end(BODY);
    });
    await new Promise((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${server.address().port}`;
  } else {
    const { memoryFs } = await import('../dist/index.js');
    const { serve } = await import('../dist/node/index.js');
    const s = await serve({ port: 0, logLevel: 'silent', mock: mockOptions(memoryFs, CONFIGS[a.child]) });
    url = s.url;
  }
  process.stdout.write(`${url}\n`);
} else if (a['in-process']) {
  await inProcess();
} else {
  await overWrk();
}

async function overWrk() {
  const rounds = Number(a.rounds ?? 5);
  const origin = a['no-origin'] ? undefined : a.origin;
  const header = [...(origin ? ['-H', `Origin: ${origin}`] : []), ...(a.browser ? BROWSER.flatMap(([n, v]) => ['-H', `${n}: ${v}`]) : [])];
  const kinds = ['raw', ...Object.keys(CONFIGS)];
  const rps = Object.fromEntries(kinds.map((k) => [k, []]));
  const cpu = Object.fromEntries(kinds.map((k) => [k, []]));
  const ticks = (pid) => {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return Number(f[11]) + Number(f[12]); // utime + stime, clock ticks
  };
  const tickUs = 1e6 / Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim() || 100);
  const start = (kind) => new Promise((res) => {
    const child = spawn('taskset', ['-c', '0', process.execPath, fileURLToPath(import.meta.url), '--child', kind], { stdio: ['ignore', 'pipe', 'inherit'] });
    child.stdout.once('data', (d) => res({ child, url: String(d).trim() }));
  });
  const before = uptime();
  for (let r = 0; r < rounds; r++) {
    for (const kind of r % 2 ? [...kinds].reverse() : kinds) {
      const { child, url } = await start(kind);
      spawnSync('taskset', ['-c', '1', 'wrk', '-t1', '-c32', '-d1s', ...header, `${url}/api/users/1`]); // warm-up
      const t0 = ticks(child.pid);
      const out = spawnSync('taskset', ['-c', '1', 'wrk', '-t1', '-c32', `-d${a.seconds}s`, ...header, `${url}/api/users/1`], { encoding: 'utf8' }).stdout;
      const used = ticks(child.pid) - t0;
      const requests = Number(/(\d+) requests in/.exec(out)?.[1] ?? NaN);
      rps[kind].push(Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? NaN));
      cpu[kind].push((used * tickUs) / requests);
      child.kill();
      await new Promise((res) => child.once('exit', res));
    }
  }
  console.log(`get-one through serve(), wrk -c32 ${a.seconds} s × ${rounds} interleaved rounds, ${origin ? `Origin: ${origin}` : 'no Origin header'}${a.browser ? ', a browser\'s headers' : ''}`);
  console.log(`uptime before: ${before}\nuptime after:  ${uptime()}\n`);
  console.log('| configuration | req/s (median) | runs | CPU µs/request (median) | runs | CPU vs neither |');
  console.log('|---|---:|---|---:|---|---:|');
  for (const k of kinds) {
    const c = median(cpu[k]);
    console.log(`| ${k} | ${median(rps[k]).toFixed(0)} | ${rps[k].map((x) => x.toFixed(0)).join(' / ')} | ${c.toFixed(2)} | ${cpu[k].map((x) => x.toFixed(1)).join(' / ')} | ${k === 'raw' ? '' : pct(c, median(cpu.neither))} |`);
  }
}

async function inProcess() {
  const rounds = Number(a.rounds ?? 9);
  const calls = Number(a.calls);
  const origin = a['no-origin'] ? undefined : a.origin ?? 'http://localhost:5173';
  const { IncomingMessage } = await import('node:http');
  const { Socket } = await import('node:net');
  const socket = new Socket();
  const builds = { '': here };
  if (a.baseline) builds['before '] = resolve(a.baseline);
  const cases = [];
  for (const [label, dir] of Object.entries(builds)) {
    const load = (p) => import(pathToFileURL(resolve(dir, 'dist', p)).href);
    const { createHost } = await load('host/create-host.js');
    const { createNodeRequest } = await load('node/request.js');
    const { memoryFs } = await load('vfs/memory.js');
    for (const [name, c] of Object.entries(CONFIGS)) {
      const host = await createHost({ mock: mockOptions(memoryFs, c), devtools: false });
      cases.push({ name: `${label}${name}`, host, createNodeRequest, ns: [] });
    }
  }
  // A new string with the same characters, decoded from bytes as the HTTP parser makes one per request.
  const latin1 = new Map();
  const fresh = (s) => {
    let b = latin1.get(s);
    if (b === undefined) latin1.set(s, (b = Buffer.from(s, 'latin1')));
    return b.latin1Slice(0, b.length);
  };
  const target = '/api/users/1';
  const incoming = () => {
    const raw = [fresh('Host'), fresh('127.0.0.1:3000')];
    for (const [n, v] of BROWSER) raw.push(fresh(n), fresh(v));
    if (origin) raw.push(fresh('Origin'), fresh(origin));
    const m = new IncomingMessage(socket);
    m.method = 'GET';
    m.url = fresh(target);
    m.rawHeaders = raw;
    void m.headers; // node:http builds its header object before the handler runs
    return m;
  };
  const res = { once() {}, off() {} };
  const one = (c) => {
    const m = incoming();
    const answer = c.host.answer(c.createNodeRequest(m, res, '127.0.0.1:3000', m.url), target);
    if (answer === undefined || typeof answer.then === 'function' || answer.status !== 200) throw new Error(`${c.name}: not answered at once`);
  };
  for (const c of cases) {
    const m = incoming();
    await c.host.answer(c.createNodeRequest(m, res, '127.0.0.1:3000', m.url), target); // loads the file into the cache
    for (let i = 0; i < 20000; i++) one(c);
  }
  // The per-request work is dominated by building the IncomingMessage, the same in every case:
  // measured alone, it is subtracted so the table shows what the host does.
  const setup = [];
  const before = uptime();
  for (let r = 0; r < rounds; r++) {
    for (const c of r % 2 ? [...cases].reverse() : cases) {
      const t0 = process.cpuUsage();
      for (let i = 0; i < calls; i++) one(c);
      const t = process.cpuUsage(t0);
      c.ns.push(((t.user + t.system) * 1000) / calls);
    }
    const t0 = process.cpuUsage();
    for (let i = 0; i < calls; i++) if (incoming().method !== 'GET') throw new Error('no message');
    const t = process.cpuUsage(t0);
    setup.push(((t.user + t.system) * 1000) / calls);
  }
  const base = median(setup);
  console.log(`get-one in-process (IncomingMessage → createNodeRequest → host.answer), ${calls} calls × ${rounds} interleaved rounds, ${origin ? `Origin: ${origin}` : 'no Origin header'}${a.browser ? ', a browser\'s headers' : ''}`);
  console.log(`uptime before: ${before}\nuptime after:  ${uptime()}\n`);
  console.log(`| configuration | CPU ns/request, host part (median) | runs (with the message: ${base.toFixed(0)} ns) | vs neither |`);
  console.log('|---|---:|---|---:|');
  for (const c of cases) {
    const neither = median(cases.find((x) => x.name === c.name.replace(/\S+$/, 'neither')).ns) - base;
    const m = median(c.ns) - base;
    console.log(`| ${c.name} | ${m.toFixed(0)} | ${c.ns.map((x) => x.toFixed(0)).join(' / ')} | ${c.name.endsWith('neither') ? '' : `${(m - neither).toFixed(0)} ns`} |`);
  }
  for (const c of cases) await c.host.close();
}
