#!/usr/bin/env node
// In-process cost of the mock API's hot paths, in ns per request, for one or more builds side by side
// (interleaved rounds, medians), so a change to the pipeline can be compared with the build
// before it on a busy machine. No sockets: the host's share is measured by run.mjs/shared-suite.
//   file:    `handleCached` of a cached small file (answered synchronously);
//   handler: a GET answered by a REST handler, asked the way the node host asks: `handleCached`
//            (declines) then `handle` (awaited).
//   node bench/hot-path.mjs [--dist dist] [--dist bench/out/base/dist] [--rounds 15] [--calls 200000]
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';

const { values: a } = parseArgs({ options: {
  dist: { type: 'string', multiple: true, default: ['dist'] },
  rounds: { type: 'string', default: '15' }, calls: { type: 'string', default: '200000' },
} });
const calls = Number(a.calls);
const targets = [];
for (const d of a.dist) {
  const m = await import(pathToFileURL(resolve(d, 'index.js')).href);
  const api = m.createMockApi({
    endpointPrefix: '/api', fs: m.memoryFs({ 'users/1.json': { id: 1, name: 'Ada', role: 'admin', age: 36 } }), logLevel: 'silent',
    handlers: [{ pattern: '/hello', method: 'GET', handle: () => ({ hello: 'world' }) }],
  });
  await api.ready();
  const file = new Request('http://127.0.0.1/api/users/1');
  await api.handle(file); // loads the cache
  if (api.handleCached(file)?.status !== 200) throw new Error(`${d}: handleCached did not answer`);
  targets.push({ dist: d, api, file, file_ns: [], handler_ns: [] });
}
async function handlerRound(api) {
  for (let i = 0; i < calls / 10; i++) {
    const r = new Request('http://127.0.0.1/api/hello');
    const res = api.handleCached(r) ?? (await api.handle(r));
    if (res?.status !== 200) throw new Error('handler did not answer');
  }
}
for (let r = 0; r < Number(a.rounds); r++) {
  for (const t of r % 2 ? [...targets].reverse() : targets) {
    const { api, file } = t;
    let t0 = process.hrtime.bigint();
    for (let i = 0; i < calls; i++) if (api.handleCached(file) === undefined) throw new Error('miss');
    t.file_ns.push(Number(process.hrtime.bigint() - t0) / calls);
    t0 = process.hrtime.bigint();
    await handlerRound(api);
    t.handler_ns.push(Number(process.hrtime.bigint() - t0) / (calls / 10));
  }
}
const median = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
for (const t of targets) {
  const best = (xs) => Math.min(...xs).toFixed(0);
  console.log(`${t.dist}: file ${median(t.file_ns).toFixed(0)} ns (best ${best(t.file_ns)}) per cached GET (handleCached, same Request); handler ${median(t.handler_ns).toFixed(0)} ns (best ${best(t.handler_ns)}) per GET (new Request, handleCached + handle); ${t.file_ns.length} rounds`);
}
for (const t of targets) await t.api.close();
