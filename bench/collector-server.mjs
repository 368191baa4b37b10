// A collector in its own process for the collector benches (the built dist/, `serve`), with a
// `/__rss` endpoint answering the process's RSS. `startServer(tracker)` spawns this file.
import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const here = dirname(fileURLToPath(import.meta.url));
const dist = resolve(here, '../dist');

async function server(tracker) {
  const { serve } = await import(pathToFileURL(resolve(dist, 'node/index.js')).href);
  const rss = { prefixes: ['/__rss'], async handle() { return new Response(String(process.memoryUsage().rss)); } };
  const s = await serve({ tracker, engines: [rss], port: 0, logLevel: 'error' });
  console.log(JSON.stringify({ port: s.port }));
  process.on('SIGTERM', () => s.close().then(() => process.exit(0)));
}

/**
 * Spawns a collector process (`nodeOptions`: its NODE_OPTIONS); resolves once it listens:
 * { child, t0 (spawn time), base }.
 */
export function startServer(tracker, nodeOptions) {
  const t0 = performance.now();
  return new Promise((ok, fail) => {
    const child = spawn(process.execPath, [fileURLToPath(import.meta.url), '--tracker', JSON.stringify(tracker)], { stdio: ['ignore', 'pipe', 'inherit'], env: nodeOptions ? { ...process.env, NODE_OPTIONS: nodeOptions } : process.env });
    child.stdout.once('data', (d) => ok({ child, t0, base: `http://127.0.0.1:${JSON.parse(String(d).split('\n')[0]).port}` }));
    child.once('exit', (code) => fail(new Error(`collector exited with ${code}`)));
  });
}

export const stop = (srv) => new Promise((ok) => { srv.child.once('exit', ok); srv.child.kill('SIGTERM'); });

export const rssMB = async (base) => Math.round(Number(await (await fetch(`${base}/__rss`)).text()) / 1048576);

/** One gzip read: ms to the last byte, bytes, and the server's peak RSS while it ran. */
export async function readOnce(base, since, until) {
  let peak = 0;
  let reading = true;
  const sampler = (async () => {
    while (reading) {
      peak = Math.max(peak, Number(await (await fetch(`${base}/__rss`)).text()));
      await new Promise((r) => setTimeout(r, 10));
    }
  })();
  const t0 = performance.now();
  const url = new URL(`${base}/_tracker?since=${encodeURIComponent(since)}&until=${encodeURIComponent(until)}`);
  const bytes = await new Promise((ok, fail) => {
    const r = request(url, { headers: { 'accept-encoding': 'gzip' } }, (res) => {
      let n = 0;
      res.on('data', (c) => (n += c.length));
      res.on('end', () => ok(n));
    });
    r.on('error', fail);
    r.end();
  });
  const ms = performance.now() - t0;
  reading = false;
  await sampler;
  return { ms, bytes, peakMB: peak / 1048576 };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { tracker: { type: 'string' } } });
  await server(JSON.parse(values.tracker));
}
