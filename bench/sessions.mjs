#!/usr/bin/env node
// What a session costs (docs/sessions.md), through the node host with wrk, on a 10,000-row
// collection (users.json in memoryFs, collections on):
//   get-one  GET /api/users/42, without a session and with `X-Mockyard-Session` (one session,
//            that has written once: its own array for users.json, the item shared);
//   write    PATCH /api/users/42 (a JSON merge patch), without and with a session, over two bases:
//            users.json in memoryFs (a write without a session serialises the whole collection
//            into the file) and a db.json (json-db keeps the parsed value, as a session does);
//   engine   the same through createMockApi's handle() alone (no HTTP), as CPU µs per request;
//   memory   heap per session (forced GC, in the server process) after N sessions did one GET,
//            and after N sessions did one PATCH each.
// One server process per round (core 0, wrk on core 1); the two kinds of requests interleaved in
// each round, the order alternating between rounds; medians reported. Shared noisy machine: read
// the figures with the `uptime` printed next to them.
//   npm run build && node bench/sessions.mjs [--rounds 5] [--seconds 3] [--sessions 200]
import { spawn, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const { values: a } = parseArgs({ options: { rounds: { type: 'string', default: '5' }, seconds: { type: 'string', default: '3' }, sessions: { type: 'string', default: '200' }, child: { type: 'string' } } });
const ROWS = Array.from({ length: 10_000 }, (_, i) => ({ id: i + 1, name: `user number ${i + 1}`, email: `user${i + 1}@example.test`, active: i % 2 === 0, score: (i * 37) % 1000 }));

/** `files`: users.json in memoryFs (a base write serialises the collection); `db`: a db.json (json-db keeps parsed values, as a session does). */
async function startServer(base = 'files') {
  const { memoryFs } = await import('../dist/index.js');
  const { serve } = await import('../dist/node/index.js');
  const data = base === 'db' ? { fs: memoryFs({ 'db.json': JSON.stringify({ users: ROWS }) }), db: 'db.json' } : { fs: memoryFs({ 'users.json': JSON.stringify(ROWS) }) };
  return serve({ port: 0, logLevel: 'silent', mock: { endpointPrefix: '/api', ...data, collections: true, logLevel: 'silent', journal: false } });
}

if (a.child === 'server' || a.child === 'server-db') {
  const s = await startServer(a.child === 'server-db' ? 'db' : 'files');
  // The session used by the load has written once (its own users.json).
  await fetch(`${s.url}/api/users/1`, { method: 'PATCH', headers: { 'content-type': 'application/json', 'x-mockyard-session': 'bench' }, body: '{"name":"warm"}' });
  await fetch(`${s.url}/api/users/1`);
  process.stdout.write(`${s.url}\n`);
} else if (a.child === 'engine') {
  // The engine alone (no HTTP): CPU µs per get-one and per write, with and without a session,
  // interleaved in rounds (CPU time, so a loaded machine disturbs it less than wall time).
  const { createMockApi, memoryFs } = await import('../dist/index.js');
  const api = createMockApi({ endpointPrefix: '/api', fs: memoryFs({ 'db.json': JSON.stringify({ users: ROWS }) }), db: 'db.json', collections: true, logLevel: 'silent', journal: false });
  const headers = (session) => (session ? { 'x-mockyard-session': 'bench' } : {});
  // One Request per kind, reused (a cached GET answered by handleCached leaves nothing on it):
  // what is measured is the engine's work, not building Requests.
  const gets = { true: new Request('http://mock.test/api/users/42', { headers: headers(true) }), false: new Request('http://mock.test/api/users/42') };
  const getOne = (session) => {
    const req = gets[session];
    const r = api.handleCached(req); // the node host's fast path: a cached item answers synchronously
    if (r === undefined) throw new Error('get-one left the fast path');
    return r.status;
  };
  const write = async (session) => {
    const req = new Request('http://mock.test/api/users/42', { method: 'PATCH', headers: { 'content-type': 'application/json', ...headers(session) }, body: '{"name":"bench"}' });
    return (await api.handle(req)).status;
  };
  await write(true);
  for (const req of Object.values(gets)) await api.handle(req); // loads the collection, remembers the lookups
  const out = { 'get-one': { none: [], session: [] }, write: { none: [], session: [] } };
  for (let r = 0; r < 9; r++) {
    for (const kind of r % 2 ? ['session', 'none'] : ['none', 'session']) {
      for (const [what, fn, n] of [['get-one', getOne, 100000], ['write', write, 2000]]) {
        if (what === 'get-one') await api.handle(gets[kind === 'session']); // after the writes: cached again
        const t0 = process.cpuUsage();
        if (what === 'get-one') for (let i = 0; i < n; i++) fn(kind === 'session');
        else for (let i = 0; i < n; i++) await fn(kind === 'session');
        const t = process.cpuUsage(t0);
        out[what][kind].push((t.user + t.system) / n);
      }
    }
  }
  process.stdout.write(`${JSON.stringify(out)}\n`);
  await api.close();
} else if (a.child === 'memory') {
  const gc = globalThis.gc;
  const heap = () => {
    for (let i = 0; i < 3; i++) gc();
    return process.memoryUsage().heapUsed;
  };
  const s = await startServer();
  const n = Number(a.sessions);
  await fetch(`${s.url}/api/users/1`);
  const h0 = heap();
  for (let i = 0; i < n; i++) await (await fetch(`${s.url}/api/users/${i + 1}`, { headers: { 'x-mockyard-session': `r${i}` } })).arrayBuffer();
  const h1 = heap();
  for (let i = 0; i < n; i++) {
    await (await fetch(`${s.url}/api/users/${i + 1}`, { method: 'PATCH', headers: { 'content-type': 'application/json', 'x-mockyard-session': `w${i}` }, body: '{"name":"changed"}' })).arrayBuffer();
  }
  const h2 = heap();
  process.stdout.write(`${JSON.stringify({ read: (h1 - h0) / n, write: (h2 - h1) / n, json: JSON.stringify(ROWS).length })}\n`);
  await s.close();
} else {
  const lua = join(tmpdir(), `mockyard-bench-patch-${process.pid}.lua`);
  writeFileSync(lua, 'wrk.method = "PATCH"\nwrk.body = \'{"name":"bench"}\'\nwrk.headers["Content-Type"] = "application/json"\n');
  const wrk = (url, session, script) => {
    const args = ['-c', '1', 'wrk', '-t1', '-c16', `-d${a.seconds}s`, ...(session ? ['-H', 'X-Mockyard-Session: bench'] : []), ...(script ? ['-s', lua] : []), url];
    const out = spawnSync('taskset', args, { encoding: 'utf8' }).stdout;
    return Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? NaN);
  };
  const rps = { 'get-one': { none: [], session: [] }, 'write (base: users.json file)': { none: [], session: [] }, 'write (base: db.json)': { none: [], session: [] } };
  const server = async (kind) => {
    const child = spawn('taskset', ['-c', '0', process.execPath, new URL(import.meta.url).pathname, '--child', kind], { stdio: ['ignore', 'pipe', 'inherit'] });
    const url = await new Promise((resolve) => child.stdout.once('data', (d) => resolve(String(d).trim())));
    spawnSync('taskset', ['-c', '1', 'wrk', '-t1', '-c16', '-d1s', `${url}/api/users/42`]); // warm-up
    return { child, url };
  };
  for (let r = 0; r < Number(a.rounds); r++) {
    const order = r % 2 ? ['session', 'none'] : ['none', 'session'];
    const files = await server('server');
    for (const kind of order) rps['get-one'][kind].push(wrk(`${files.url}/api/users/42`, kind === 'session', false));
    for (const kind of order) rps['write (base: users.json file)'][kind].push(wrk(`${files.url}/api/users/42`, kind === 'session', true));
    files.child.kill();
    const db = await server('server-db');
    for (const kind of order) rps['write (base: db.json)'][kind].push(wrk(`${db.url}/api/users/42`, kind === 'session', true));
    db.child.kill();
  }
  const median = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
  const mem = JSON.parse(spawnSync(process.execPath, ['--expose-gc', new URL(import.meta.url).pathname, '--child', 'memory', '--sessions', a.sessions], { encoding: 'utf8' }).stdout.trim());
  const engine = JSON.parse(spawnSync('taskset', ['-c', '0', process.execPath, new URL(import.meta.url).pathname, '--child', 'engine'], { encoding: 'utf8' }).stdout.trim());
  console.log(`uptime: ${spawnSync('uptime', { encoding: 'utf8' }).stdout.trim()}`);
  for (const [what, by] of Object.entries(engine)) {
    const none = median(by.none);
    const session = median(by.session);
    console.log(`engine alone, ${what}: CPU µs per request (median of 9 interleaved rounds): no session ${none.toFixed(2)}, with a session ${session.toFixed(2)} → session cost ${((session / none - 1) * 100).toFixed(1)}%`);
  }
  for (const [what, by] of Object.entries(rps)) {
    const none = median(by.none);
    const session = median(by.session);
    console.log(`${what} req/s (median of ${a.rounds}, 16 connections): no session ${none.toFixed(0)}, with a session ${session.toFixed(0)} → session cost ${((1 - session / none) * 100).toFixed(1)}%; rounds ${JSON.stringify(by)}`);
  }
  console.log(`memory per session (${a.sessions} sessions, 10,000-row collection of ${(mem.json / 1024).toFixed(0)} KiB JSON): after one GET ${(mem.read / 1024).toFixed(1)} KiB, after one PATCH ${(mem.write / 1024).toFixed(1)} KiB`);
}
