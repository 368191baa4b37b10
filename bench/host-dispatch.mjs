#!/usr/bin/env node
// The node host's dispatch on the get-one fast path, in-process (no sockets), ns per request:
//   inline:  the loop the node handler had before src/host (prefix test per engine inline, then
//            the single candidate's handleCached);
//   host:    `host.answer(request, pathname)` (src/host/dispatch.ts answerFrom), what the node
//            handler calls now.
// Same engine (a cached small file behind the mock API, journal on as by default), interleaved
// rounds, medians of CPU time (process.cpuUsage: steadier than wall time on a loaded machine).
//   node bench/host-dispatch.mjs [--dist dist] [--rounds 11] [--calls 300000]
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';

const { values: a } = parseArgs({ options: { dist: { type: 'string', default: 'dist' }, rounds: { type: 'string', default: '11' }, calls: { type: 'string', default: '300000' } } });
const load = (p) => import(pathToFileURL(resolve(a.dist, p)).href);
const { createHost } = await load('host/create-host.js');
const { underPrefix } = await load('core/engine.js');
const { memoryFs } = await load('vfs/memory.js');
const host = await createHost({ mock: { endpointPrefix: '/api', fs: memoryFs({ 'users/1.json': { id: 1, name: 'Ada' } }), logLevel: 'silent' }, devtools: false });
const engines = host.engines;
const request = new Request('http://127.0.0.1/api/users/1');
await host.handle(request);
const path = '/api/users/1';

function claims(prefixes, p) {
  for (let i = 0; i < prefixes.length; i++) if (underPrefix(p, prefixes[i])) return true;
  return false;
}
function inline() {
  let first;
  let several;
  for (let i = 0; i < engines.length; i++) {
    const e = engines[i];
    if (!claims(e.prefixes, path)) continue;
    if (first === undefined) first = e;
    else (several ??= [first]).push(e);
  }
  return several === undefined && first?.handleCached !== undefined ? first.handleCached(request) : undefined;
}
const viaHost = () => host.answer(request, path);
const isPromise = (v) => typeof v.then === 'function';

const calls = Number(a.calls);
const cases = { inline: { fn: inline, ns: [] }, host: { fn: (r = viaHost()) => (r === undefined || !isPromise(r) ? r : undefined), ns: [] } };
for (let r = 0; r < Number(a.rounds); r++) {
  for (const [, c] of r % 2 ? Object.entries(cases).reverse() : Object.entries(cases)) {
    const t0 = process.cpuUsage();
    for (let i = 0; i < calls; i++) if (c.fn()?.status !== 200) throw new Error('no answer');
    const t = process.cpuUsage(t0);
    c.ns.push(((t.user + t.system) * 1000) / calls);
  }
}
const med = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
for (const [name, c] of Object.entries(cases)) console.log(`${name.padEnd(7)} ${med(c.ns).toFixed(0)} ns/request (median of ${c.ns.length}; min ${Math.min(...c.ns).toFixed(0)})`);
await host.close();
