#!/usr/bin/env node
// What a session costs (docs/sessions.md), through the node host with wrk, on a 10,000-row
// collection (users.json in memoryFs, collections on):
//   get-one  GET /api/users/42, without a session and with `X-Mockyard-Session` (one session,
//            that has written once: its own array for users.json, the item shared);
//   write    PATCH /api/users/42 (a JSON merge patch), without and with a session;
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

async function startServer() {
  const { memoryFs } = await import('../dist/index.js');
  const { serve } = await import('../dist/node/index.js');
  return serve({ port: 0, logLevel: 'silent', mock: { endpointPrefix: '/api', fs: memoryFs({ 'users.json': JSON.stringify(ROWS) }), collections: true, logLevel: 'silent', journal: false } });
}

if (a.child === 'server') {
  const s = await startServer();
  // The session used by the load has written once (its own users.json).
  await fetch(`${s.url}/api/users/1`, { method: 'PATCH', headers: { 'content-type': 'application/json', 'x-mockyard-session': 'bench' }, body: '{"name":"warm"}' });
  await fetch(`${s.url}/api/users/1`);
  process.stdout.write(`${s.url}\n`);
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
  const rps = { 'get-one': { none: [], session: [] }, write: { none: [], session: [] } };
  for (let r = 0; r < Number(a.rounds); r++) {
    const child = spawn('taskset', ['-c', '0', process.execPath, new URL(import.meta.url).pathname, '--child', 'server'], { stdio: ['ignore', 'pipe', 'inherit'] });
    const url = await new Promise((resolve) => child.stdout.once('data', (d) => resolve(String(d).trim())));
    spawnSync('taskset', ['-c', '1', 'wrk', '-t1', '-c16', '-d1s', `${url}/api/users/42`]); // warm-up
    const order = r % 2 ? ['session', 'none'] : ['none', 'session'];
    for (const kind of order) rps['get-one'][kind].push(wrk(`${url}/api/users/42`, kind === 'session', false));
    for (const kind of order) rps.write[kind].push(wrk(`${url}/api/users/42`, kind === 'session', true));
    child.kill();
  }
  const median = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
  const mem = JSON.parse(spawnSync(process.execPath, ['--expose-gc', new URL(import.meta.url).pathname, '--child', 'memory', '--sessions', a.sessions], { encoding: 'utf8' }).stdout.trim());
  console.log(`uptime: ${spawnSync('uptime', { encoding: 'utf8' }).stdout.trim()}`);
  for (const [what, by] of Object.entries(rps)) {
    const none = median(by.none);
    const session = median(by.session);
    console.log(`${what} req/s (median of ${a.rounds}, 16 connections): no session ${none.toFixed(0)}, with a session ${session.toFixed(0)} → session cost ${((1 - session / none) * 100).toFixed(1)}%; rounds ${JSON.stringify(by)}`);
  }
  console.log(`memory per session (${a.sessions} sessions, 10,000-row collection of ${(mem.json / 1024).toFixed(0)} KiB JSON): after one GET ${(mem.read / 1024).toFixed(1)} KiB, after one PATCH ${(mem.write / 1024).toFixed(1)} KiB`);
}
