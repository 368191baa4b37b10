#!/usr/bin/env node
// In-process cost of the options that sit on every cached answer, in ns per `handleCached` of a
// cached small file (no sockets): none, CORS (the CLI's default localhost policy, a request
// without Origin: `Vary: Origin` is added), the journal (default 1,000 entries), both.
// Interleaved rounds, medians. `npm run build` first.
//   node bench/hot-path-options.mjs [--rounds 11] [--calls 300000]
import { parseArgs } from 'node:util';
import { createMockApi, memoryFs } from '../dist/index.js';

const { values: a } = parseArgs({ options: { rounds: { type: 'string', default: '11' }, calls: { type: 'string', default: '300000' } } });
const LOCAL = [/^http:\/\/localhost(:\d+)?$/, /^http:\/\/127\.0\.0\.1(:\d+)?$/, /^http:\/\/\[::1\](:\d+)?$/];
const variants = {
  none: { cors: false, journal: false },
  cors: { cors: { origins: LOCAL }, journal: false },
  journal: { cors: false },
  both: { cors: { origins: LOCAL } },
};
const calls = Number(a.calls);
const runs = {};
for (const [name, options] of Object.entries(variants)) {
  const api = createMockApi({ endpointPrefix: '/api', fs: memoryFs({ 'users/1.json': { id: 1, name: 'Ada' } }), logLevel: 'silent', ...options });
  await api.ready();
  const request = new Request('http://127.0.0.1/api/users/1');
  await api.handle(request); // loads the cache
  if (api.handleCached(request)?.status !== 200) throw new Error(`${name}: handleCached did not answer`);
  runs[name] = { api, request, ns: [] };
}
for (let r = 0; r < Number(a.rounds); r++) {
  const order = Object.keys(runs);
  if (r % 2) order.reverse();
  for (const name of order) {
    const { api, request, ns } = runs[name];
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < calls; i++) if (api.handleCached(request) === undefined) throw new Error('miss');
    ns.push(Number(process.hrtime.bigint() - t0) / calls);
  }
}
const median = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
for (const [name, { ns, api }] of Object.entries(runs)) {
  console.log(`${name.padEnd(8)} ${median(ns).toFixed(0)} ns per cached GET (best ${Math.min(...ns).toFixed(0)})`);
  await api.close();
}
