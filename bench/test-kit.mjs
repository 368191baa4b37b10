// `node bench/test-kit.mjs` (after `npm run build`): the in-process hosts of a test runner, on
// 1,000 filtered-page requests in one process, each case in the same run:
//   direct       api.handle(new Request(url)) + json()              (the engine alone: baseline)
//   intercept    interceptFetch(api); fetch('/api/users?…') + json() (mockyard/test)
//   msw-trivial  msw setupServer with ONE trivial handler answering the same bytes
//   msw+mockyard msw setupServer(...handlersFor(api)) (mockyard/msw)
// Goals: intercept ≥ 5× msw-trivial; msw+mockyard ≥ 1.0× msw-trivial (ratios of ms per 1,000).
// Rounds alternate the cases; medians of 21 rounds after a warm-up (msw costs ≈ 0.4 ms per request
// and varies by ±8 % between rounds on a busy machine; the engine adds ≈ 2 µs of it). Results: bench/RESULTS.md.
// Wrap runs in `flock /tmp/mockyard-bench.lock` on shared machines.
import { readFile, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { createMockApi, memoryFs } from '../dist/index.js';
import { interceptFetch } from '../dist/test/index.js';
import { handlersFor } from '../dist/msw/index.js';
import { makeUsers } from './fixtures.mjs';

const N = 1000;
const ROUNDS = 21;
const BASE = 'http://localhost';
const here = dirname(fileURLToPath(import.meta.url));
const mswVersion = JSON.parse(await readFile(join(here, '../node_modules/msw/package.json'), 'utf8')).version;

const api = createMockApi({
  endpointPrefix: '/api',
  fs: memoryFs({ 'users.json': makeUsers(10_000) }),
  logLevel: 'silent',
  pagination: { GET: { type: 'query-param', limit: '_limit', skip: '_skip' } },
  filters: { GET: { type: 'query-param', filters: [{ key: 'role' }, { key: 'age', valueType: 'number', comparison: 'gte' }] } },
});
await api.ready();
/** Request i: a page of 20 viewers aged 30+, ten different pages. */
const path = (i) => `/api/users?role=viewer&age=30&_limit=20&_skip=${(i % 10) * 20}`;

// The trivial handler answers exactly the engine's bytes for each page (checked below).
const pages = new Map();
for (let i = 0; i < 10; i++) {
  const res = await api.handle(new Request(BASE + path(i)));
  pages.set(`${(i % 10) * 20}`, { body: await res.text(), total: res.headers.get('x-total-count') });
}
const trivial = http.get(`${BASE}/api/users`, ({ request }) => {
  const page = pages.get(new URL(request.url).searchParams.get('_skip'));
  return new HttpResponse(page.body, { headers: { 'content-type': 'application/json; charset=utf-8', 'x-total-count': page.total } });
});

/** Wall ms and process CPU ms (user + system) for N requests. */
async function run(get) {
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  let items = 0;
  for (let i = 0; i < N; i++) items += (await (await get(i)).json()).length;
  const c = process.cpuUsage(c0);
  const ms = performance.now() - t0;
  if (items !== N * 20) throw new Error(`expected ${N * 20} items, got ${items}`);
  return { ms, cpu: (c.user + c.system) / 1000 };
}

const cases = {
  direct: () => run((i) => api.handle(new Request(BASE + path(i)))),
  intercept: async () => {
    const mocked = interceptFetch(api, { baseUrl: BASE });
    try {
      return await run((i) => fetch(path(i)));
    } finally {
      mocked.restore();
    }
  },
  'msw-trivial': async () => {
    const server = setupServer(trivial);
    server.listen({ onUnhandledRequest: 'error' });
    try {
      return await run((i) => fetch(BASE + path(i)));
    } finally {
      server.close();
    }
  },
  'msw+mockyard': async () => {
    const server = setupServer(...handlersFor(api));
    server.listen({ onUnhandledRequest: 'error' });
    try {
      return await run((i) => fetch(BASE + path(i)));
    } finally {
      server.close();
    }
  },
};

// Same answers through every path before timing anything.
for (const [name, fn] of Object.entries({
  intercept: () => { const m = interceptFetch(api, { baseUrl: BASE }); return fetch(path(3)).then((r) => r.text()).finally(() => m.restore()); },
  msw: () => { const s = setupServer(trivial); s.listen(); return fetch(BASE + path(3)).then((r) => r.text()).finally(() => s.close()); },
  mockyard: () => { const s = setupServer(...handlersFor(api)); s.listen(); return fetch(BASE + path(3)).then((r) => r.text()).finally(() => s.close()); },
})) {
  if ((await fn()) !== pages.get('60').body) throw new Error(`${name} answered other bytes`);
}

const load = loadavg().map((l) => l.toFixed(2)).join(' / ');
for (const fn of Object.values(cases)) await fn(); // warm-up
const samples = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
for (let r = 0; r < ROUNDS; r++) {
  const order = Object.keys(cases);
  if (r % 2) order.reverse();
  for (const k of order) samples[k].push(await cases[k]());
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = Object.fromEntries(Object.entries(samples).map(([k, xs]) => [k, median(xs.map((x) => x.ms))]));
const cpu = Object.fromEntries(Object.entries(samples).map(([k, xs]) => [k, median(xs.map((x) => x.cpu))]));
const range = (k) => `${Math.min(...samples[k].map((x) => x.ms)).toFixed(0)}–${Math.max(...samples[k].map((x) => x.ms)).toFixed(0)}`;
// Ratios of CPU time: on a shared machine wall time mostly measures the other processes.
const ratioIntercept = cpu['msw-trivial'] / cpu.intercept;
const ratioHandlers = cpu['msw-trivial'] / cpu['msw+mockyard'];
const wallIntercept = ms['msw-trivial'] / ms.intercept;
const wallHandlers = ms['msw-trivial'] / ms['msw+mockyard'];

const rows = [
  ['direct `api.handle()` (baseline)', 'direct', '—', ''],
  ['`interceptFetch` + `fetch()`', 'intercept', `**${ratioIntercept.toFixed(1)}×** faster than msw-trivial (wall ${wallIntercept.toFixed(1)}×)`, `≥ 5× ${ratioIntercept >= 5 ? 'met' : 'NOT met'}`],
  [`msw ${mswVersion} \`setupServer\`, one trivial handler`, 'msw-trivial', '1.0×', ''],
  ['msw `setupServer(...handlersFor(api))`', 'msw+mockyard', `**${ratioHandlers.toFixed(2)}×** msw-trivial's speed (wall ${wallHandlers.toFixed(2)}×)`, `≥ 1.0× ${ratioHandlers >= 1 ? 'met' : 'NOT met'}`],
];
const section = [
  '<!-- bench/test-kit.mjs:start (generated by node bench/test-kit.mjs; edits inside are overwritten) -->',
  '## node bench/test-kit.mjs — in-process hosts for tests (same run)',
  '',
  `${new Date().toISOString()}, Node ${process.version}, msw ${mswVersion}, load average before ${load}. ${N} sequential \`fetch\` + \`json()\` of a filtered page (role eq + age gte, 20 items, 10 different pages) of a 10k-item file in memory; ${ROUNDS} alternating rounds after a warm-up; medians per ${N} requests of process CPU time (user + system; the ratios) and wall time (min–max). Answers checked byte-equal first.`,
  '',
  '| path | CPU ms / 1,000 | wall ms / 1,000 | wall min–max | ratio (CPU) | goal |',
  '|---|---:|---:|---:|---|---|',
  ...rows.map(([label, k, ratio, goal]) => `| ${label} | ${cpu[k].toFixed(0)} | ${ms[k].toFixed(0)} | ${range(k)} | ${ratio} | ${goal} |`),
  '<!-- bench/test-kit.mjs:end -->',
].join('\n');
console.log(section);
if (!process.argv.includes('--no-write')) {
  const file = join(here, 'RESULTS.md');
  const current = await readFile(file, 'utf8');
  const re = /<!-- bench\/test-kit\.mjs:start[\s\S]*?<!-- bench\/test-kit\.mjs:end -->/;
  await writeFile(file, re.test(current) ? current.replace(re, section) : `${current.trimEnd()}\n\n${section}\n`);
}
await api.close();
