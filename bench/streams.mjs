#!/usr/bin/env node
// Time from an event yielded by an `sse()` handler to a client receiving it, on the node host
// (docs/streams.md): a server process (serve(), the journal on as in the CLI) whose handler yields
// an event every `--gap` ms carrying the time it was yielded (performance.timeOrigin + now(): the
// same wall clock in both processes), and a client process reading the stream with fetch's
// reader, noting the time each event is parsed. The same against a bare node:http server writing
// the same events with res.write (the machine's own floor), interleaved in each round.
// p50 / p99 / max per round, and over all rounds.
// Shared noisy machine: read the figures with the `uptime` printed next to them.
//   npm run build && node bench/streams.mjs [--rounds 3] [--events 2000] [--gap 2]
import { spawn, spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';

const { values: a } = parseArgs({ options: { rounds: { type: 'string', default: '3' }, events: { type: 'string', default: '2000' }, gap: { type: 'string', default: '2' }, child: { type: 'string' } } });
const EVENTS = Number(a.events);
const GAP = Number(a.gap);
const now = () => performance.timeOrigin + performance.now();

if (a.child === 'server') {
  const { sse } = await import('../dist/index.js');
  const { serve } = await import('../dist/node/index.js');
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  const server = await serve({
    port: 0,
    host: '127.0.0.1',
    logLevel: 'silent',
    mock: {
      endpointPrefix: '/api',
      fsDir: null,
      logLevel: 'silent',
      handlers: [{ pattern: '/ticks', handle: () => sse(async function* () {
        for (let i = 0; i < EVENTS; i++) {
          await sleep(GAP);
          yield { id: i, data: String(now()) };
        }
      }) }],
    },
  });
  process.stdout.write(`${server.url}\n`);
} else if (a.child === 'raw') {
  const { createServer } = await import('node:http');
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  const server = createServer(async (req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    for (let i = 0; i < EVENTS; i++) {
      await sleep(GAP);
      res.write(`id: ${i}\ndata: ${now()}\n\n`);
    }
    res.end();
  });
  server.listen(0, '127.0.0.1', () => process.stdout.write(`http://127.0.0.1:${server.address().port}\n`));
} else {
  const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
  const fmt = (ms) => `${(ms * 1000).toFixed(0)} µs`;
  const all = { server: [], raw: [] };
  const runs = [];
  for (let round = 1; round <= Number(a.rounds); round++) runs.push(...(round % 2 ? ['server', 'raw'] : ['raw', 'server']).map((kind) => ({ round, kind })));
  for (const { round, kind } of runs) {
    const child = spawn(process.execPath, [new URL(import.meta.url).pathname, '--child', kind, '--events', String(EVENTS), '--gap', String(GAP)], { stdio: ['ignore', 'pipe', 'inherit'] });
    const url = await new Promise((resolve) => child.stdout.once('data', (d) => resolve(String(d).trim())));
    const response = await fetch(`${url}/api/ticks`);
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    const latencies = [];
    let text = '';
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      const at = now();
      text += decoder.decode(value, { stream: true });
      let end;
      while ((end = text.indexOf('\n\n')) !== -1) {
        const event = text.slice(0, end);
        text = text.slice(end + 2);
        const data = /^data: (.*)$/m.exec(event)?.[1];
        if (data !== undefined) latencies.push(at - Number(data));
      }
    }
    child.kill();
    latencies.sort((x, y) => x - y);
    all[kind].push(...latencies);
    console.log(`round ${round} ${kind === 'server' ? 'mockyard sse()' : 'bare node:http'}: ${latencies.length} events, p50 ${fmt(pct(latencies, 50))}, p99 ${fmt(pct(latencies, 99))}, max ${fmt(latencies.at(-1))}`);
  }
  for (const [kind, list] of Object.entries(all)) {
    list.sort((x, y) => x - y);
    console.log(`all rounds, ${kind === 'server' ? 'mockyard sse()' : 'bare node:http'}: ${list.length} events, p50 ${fmt(pct(list, 50))}, p99 ${fmt(pct(list, 99))}, max ${fmt(list.at(-1))}`);
  }
  console.log(`uptime: ${spawnSync('uptime', { encoding: 'utf8' }).stdout.trim()}`);
}
