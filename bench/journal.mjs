#!/usr/bin/env node
// Cost of the devtools request journal on get-one (GET /api/users/1, a cached small file) through
// the node host, with wrk: a raw node:http server answering the same bytes (baseline), the mock
// API with `journal: false`, and with the journal on (default: 1,000 entries, 4 KiB bodies).
// Each server runs in its own process; rounds are interleaved; medians reported.
//   npm run build && flock /tmp/mockyard-bench.lock node bench/journal.mjs [--rounds 3] [--seconds 5]
import { spawn, spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';

const { values: a } = parseArgs({ options: { rounds: { type: 'string', default: '3' }, seconds: { type: 'string', default: '5' }, child: { type: 'string' } } });
const BODY = JSON.stringify({ id: 1, name: 'Ada', role: 'admin', age: 36 }, null, 2);

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
    const s = await serve({
      port: 0, logLevel: 'silent',
      mock: { endpointPrefix: '/api', fs: memoryFs({ 'users/1.json': BODY }), logLevel: 'silent', journal: a.child === 'journal' },
    });
    url = s.url;
  }
  process.stdout.write(`${url}\n`);
} else {
  const rps = { raw: [], off: [], journal: [] };
  const start = (kind) => new Promise((resolve) => {
    // Server on core 0, wrk on core 1 (as the shared yardstick pins them).
    const child = spawn('taskset', ['-c', '0', process.execPath, new URL(import.meta.url).pathname, '--child', kind], { stdio: ['ignore', 'pipe', 'inherit'] });
    child.stdout.once('data', (d) => resolve({ child, url: String(d).trim() }));
  });
  for (let r = 0; r < Number(a.rounds); r++) {
    for (const kind of r % 2 ? ['journal', 'off', 'raw'] : ['raw', 'off', 'journal']) {
      const { child, url } = await start(kind);
      spawnSync('taskset', ['-c', '1', 'wrk', '-t1', '-c32', '-d1s', `${url}/api/users/1`]); // warm-up
      const out = spawnSync('taskset', ['-c', '1', 'wrk', '-t1', '-c32', `-d${a.seconds}s`, `${url}/api/users/1`], { encoding: 'utf8' }).stdout;
      rps[kind].push(Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? NaN));
      child.kill();
    }
  }
  const median = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
  const m = Object.fromEntries(Object.entries(rps).map(([k, v]) => [k, median(v)]));
  console.log(`get-one req/s (median of ${a.rounds}): raw node:http ${m.raw.toFixed(0)}, mock journal off ${m.off.toFixed(0)}, mock journal on ${m.journal.toFixed(0)}`);
  console.log(`journal cost: ${((1 - m.journal / m.off) * 100).toFixed(1)}% of journal-off throughput; rounds ${JSON.stringify(rps)}`);
}
