#!/usr/bin/env node
// In-process CPU of the json-server collections paths, ns per request, for one or more builds
// side by side (interleaved rounds, medians of process.cpuUsage: steadier than wall time on a
// loaded machine). The engine as the CLI ships it (preset json-server) over a memory Vfs:
//   get-one      GET /users/1 (a small file: the collections layer passes it to file mode)
//   get-100      GET /users (a 100-item file)
//   get-item     GET /users10k/77 (an item of a collection: the collections layer's peek)
//   query-warm   GET /users10k?role=admin&age_gte=30&_page=6&_limit=20 (the same URL each time)
//   query-cold   the same with a different age bound each time (30.1, 30.2, …: same matches)
//   post-delete  POST /tmp then DELETE /tmp/<id> (promise path, one write each), per pair
//   node bench/collections-cpu.mjs [--dist dist] [--dist /tmp/base/dist] [--rounds 9] [--calls 20000]
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';

const { values: a } = parseArgs({ options: {
  dist: { type: 'string', multiple: true, default: ['dist'] },
  rounds: { type: 'string', default: '9' }, calls: { type: 'string', default: '20000' },
} });
const calls = Number(a.calls);
const roles = ['admin', 'editor', 'guest', 'viewer'];
const user = (i) => ({ id: i, name: `User ${i}`, email: `user${i}@example.com`, age: 18 + ((i * 7) % 50), role: roles[(i * 3) % 4], createdAt: '2024-01-01T00:00:00.000Z' });
const users10k = Array.from({ length: 10000 }, (_, i) => user(i + 1));

const targets = [];
for (const d of a.dist) {
  const m = await import(pathToFileURL(resolve(d, 'index.js')).href);
  const api = m.createMockApi({
    endpointPrefix: '/api', preset: 'json-server', logLevel: 'silent',
    fs: m.memoryFs({ 'users.json': users10k.slice(0, 100), 'users/1.json': user(1), 'users10k.json': users10k, 'tmp.json': [] }),
  });
  await api.ready();
  for (const p of ['/users/1', '/users', '/users10k/77', '/users10k?role=admin&age_gte=30&_page=6&_limit=20', '/users10k?role=admin&age_gte=30.05&_page=6&_limit=20']) {
    const r = await api.handle(new Request(`http://127.0.0.1/api${p}`));
    if (r?.status !== 200) throw new Error(`${d}: ${p} answered ${r?.status}`);
    await api.handle(new Request(`http://127.0.0.1/api${p}`));
  }
  targets.push({ dist: d, api, ns: {} });
}

function cpu() {
  const u = process.cpuUsage();
  return (u.user + u.system) * 1000; // ns
}
let cold = 0;
const cases = {
  'get-one': (api) => { const r = new Request('http://127.0.0.1/api/users/1'); for (let i = 0; i < calls; i++) if (api.handleCached(new Request(r.url))?.status !== 200) throw new Error('get-one'); return calls; },
  'get-100': (api) => { for (let i = 0; i < calls; i++) if (api.handleCached(new Request('http://127.0.0.1/api/users'))?.status !== 200) throw new Error('get-100'); return calls; },
  'get-item': (api) => { for (let i = 0; i < calls; i++) if (api.handleCached(new Request('http://127.0.0.1/api/users10k/77'))?.status !== 200) throw new Error('get-item'); return calls; },
  'query-warm': (api) => { for (let i = 0; i < calls; i++) if (api.handleCached(new Request('http://127.0.0.1/api/users10k?role=admin&age_gte=30&_page=6&_limit=20'))?.status !== 200) throw new Error('query-warm'); return calls; },
  'query-cold': (api) => {
    const n = Math.max(1, calls / 20);
    for (let i = 0; i < n; i++) if (api.handleCached(new Request(`http://127.0.0.1/api/users10k?role=admin&age_gte=30.${++cold}&_page=6&_limit=20`))?.status !== 200) throw new Error('query-cold');
    return n;
  },
  'post-delete': async (api) => {
    const n = Math.max(1, calls / 20);
    for (let i = 0; i < n; i++) {
      const id = `b${i}`;
      const p = await api.handle(new Request('http://127.0.0.1/api/tmp', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id, name: 'Bench User', email: 'bench.user@example.com', age: 30, role: 'guest' }) }));
      if (p?.status !== 201) throw new Error(`post ${p?.status}`);
      const d = await api.handle(new Request(`http://127.0.0.1/api/tmp/${id}`, { method: 'DELETE' }));
      if (d?.status !== 200) throw new Error(`delete ${d?.status}`);
    }
    return n;
  },
};
for (let r = 0; r < Number(a.rounds); r++) {
  for (const [name, run] of Object.entries(cases)) {
    for (const t of r % 2 ? [...targets].reverse() : targets) {
      const t0 = cpu();
      const n = await run(t.api);
      (t.ns[name] ??= []).push((cpu() - t0) / n);
    }
  }
}
const median = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
const base = targets[targets.length - 1];
console.log(`ns per request (CPU, median of ${a.rounds} rounds)${targets.length > 1 ? `; ratio = this / ${base.dist}` : ''}`);
for (const name of Object.keys(cases)) {
  const cells = targets.map((t) => `${t.dist}: ${median(t.ns[name]).toFixed(0)}`);
  const ratio = targets.length > 1 ? `  ratio ${(median(targets[0].ns[name]) / median(base.ns[name])).toFixed(3)}` : '';
  console.log(`${name.padEnd(12)} ${cells.join('   ')}${ratio}`);
}
for (const t of targets) await t.api.close();
