#!/usr/bin/env node
// In-process cost of the mock API's hot path: `handleCached` of a cached small file (what the
// node host calls first for every request), in ns per call, for one or more builds side by side
// (interleaved rounds, medians), so a change to the pipeline can be compared with the build
// before it on a busy machine. No sockets: the host's share is measured by run.mjs/shared-suite.
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
  const api = m.createMockApi({ endpointPrefix: '/api', fs: m.memoryFs({ 'users/1.json': { id: 1, name: 'Ada', role: 'admin', age: 36 } }), logLevel: 'silent' });
  await api.ready();
  const request = new Request('http://127.0.0.1/api/users/1');
  await api.handle(request); // loads the cache
  if (api.handleCached(request)?.status !== 200) throw new Error(`${d}: handleCached did not answer`);
  targets.push({ dist: d, api, request, ns: [] });
}
for (let r = 0; r < Number(a.rounds); r++) {
  for (const t of r % 2 ? [...targets].reverse() : targets) {
    const { api, request } = t;
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < calls; i++) if (api.handleCached(request) === undefined) throw new Error('miss');
    t.ns.push(Number(process.hrtime.bigint() - t0) / calls);
  }
}
const median = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
for (const t of targets) console.log(`${t.dist}: ${median(t.ns).toFixed(1)} ns per cached GET (handleCached), median of ${t.ns.length} rounds × ${calls}`);
for (const t of targets) await t.api.close();
