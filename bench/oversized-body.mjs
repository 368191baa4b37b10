#!/usr/bin/env node
// Oversized uploads: clients stream 50 MB chunked bodies at a server whose
// limit is 1 MiB. mockyard answers 413 at once and then lingers (reads and discards the rest
// before closing), so every client reads the 413; this checks that memory stays flat while it
// discards and what the discarding costs, next to a raw node:http baseline in the same run that
// answers 413 at the limit and lets Node drain the rest (its default for an unread body).
//   node bench/oversized-body.mjs [--uploads 40] [--concurrency 4] [--mb 50] [--dist dist]
// Each server runs in its own process; the client samples its RSS every 100 ms over /__rss.
import { spawn } from 'node:child_process';
import { parseArgs } from 'node:util';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { resolve, dirname } from 'node:path';

const here = dirname(fileURLToPath(import.meta.url));
const { values: a } = parseArgs({ options: {
  uploads: { type: 'string', default: '40' }, concurrency: { type: 'string', default: '4' }, mb: { type: 'string', default: '50' },
  dist: { type: 'string', default: resolve(here, '../dist') }, role: { type: 'string' },
} });
const LIMIT = 1024 * 1024;
const rss = () => JSON.stringify({ rss: process.memoryUsage().rss });

if (a.role === 'raw') {
  const { createServer } = await import('node:http');
  const server = createServer((req, res) => {
    if (req.url === '/__rss') return res.end(rss());
    let size = 0;
    const onData = (chunk) => {
      size += chunk.length;
      if (size <= LIMIT) return;
      req.off('data', onData);
      const body = JSON.stringify({ status: 413, error: 'PAYLOAD_TOO_LARGE' });
      res.writeHead(413, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
      res.end(body); // Node drains the rest of the body (keep-alive)
    };
    req.on('data', onData);
    req.on('end', () => { if (!res.headersSent) res.end('{}'); });
  });
  server.listen(0, '127.0.0.1', () => console.log(JSON.stringify({ port: server.address().port })));
} else if (a.role === 'mockyard') {
  const { serve } = await import(pathToFileURL(resolve(a.dist, 'node/serve.js')).href);
  const { memoryFs } = await import(pathToFileURL(resolve(a.dist, 'vfs/memory.js')).href);
  const { FastResponse } = await import(pathToFileURL(resolve(a.dist, 'core/fast-response.js')).href);
  const probe = { prefixes: ['/__rss'], async handle() { return FastResponse.json(rss()); } };
  const server = await serve({ port: 0, logLevel: 'silent', engines: [probe], mock: { endpointPrefix: '/api', fs: memoryFs({}), bodyLimit: LIMIT, logLevel: 'silent' } });
  console.log(JSON.stringify({ port: server.port }));
} else {
  const uploads = Number(a.uploads);
  const concurrency = Number(a.concurrency);
  const total = Number(a.mb) * 1024 * 1024;
  const start = (role) => new Promise((res, rej) => {
    const child = spawn(process.execPath, [fileURLToPath(import.meta.url), '--role', role, '--dist', a.dist], { stdio: ['ignore', 'pipe', 'inherit'] });
    child.stdout.once('data', (d) => res({ child, port: JSON.parse(String(d)).port }));
    child.once('exit', (code) => rej(new Error(`${role} exited ${code}`)));
  });
  // A plain uploader on a raw socket: sends all of it whatever the server answers meanwhile
  // (so the server discards the full 49 MB past the limit), then reads the answer.
  const { connect } = await import('node:net');
  const uploadRaw = (port) => new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port, allowHalfOpen: true });
    let response = '';
    let error;
    socket.setEncoding('latin1');
    socket.on('data', (d) => (response += d));
    socket.on('error', (err) => (error ??= err.code ?? err.message));
    socket.on('close', () => resolve(error ?? (response.startsWith('HTTP/1.1 413') ? 'ok' : `got ${response.slice(0, 12) || 'nothing'}`)));
    socket.write('POST /api/things HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n');
    const frame = Buffer.concat([Buffer.from(`${(64 * 1024).toString(16)}\r\n`), Buffer.alloc(64 * 1024, 97), Buffer.from('\r\n')]);
    let sent = 0;
    const pump = () => {
      while (sent < total && !socket.destroyed) { sent += 64 * 1024; if (!socket.write(frame)) return void socket.once('drain', pump); }
      if (!socket.destroyed) socket.end('0\r\n\r\n');
    };
    pump();
  });
  const uploadFetch = async (port) => {
    const chunk = new Uint8Array(64 * 1024).fill(97);
    let sent = 0;
    const body = new ReadableStream({ pull(c) { if (sent >= total) return c.close(); sent += chunk.length; c.enqueue(chunk); } });
    try {
      const r = await fetch(`http://127.0.0.1:${port}/api/things`, { method: 'POST', body, duplex: 'half', headers: { 'content-type': 'application/json' } });
      const text = await r.text();
      return r.status === 413 && text.includes('413') ? 'ok' : `status ${r.status}`;
    } catch (err) {
      return err.cause?.code ?? err.message;
    }
  };
  const measure = async (role, client) => {
    const upload = client === 'raw' ? uploadRaw : uploadFetch;
    const { child, port } = await start(role);
    const readRss = async () => (await (await fetch(`http://127.0.0.1:${port}/__rss`)).json()).rss;
    const before = await readRss();
    let peak = before;
    let sampling = true;
    const sampler = (async () => { while (sampling) { peak = Math.max(peak, await readRss()); await new Promise((r) => setTimeout(r, 100)); } })();
    const outcomes = {};
    // RSS after each quarter of the uploads: flat = no trend once warm (the first quarter).
    const quarters = [];
    let ms = 0;
    for (let q = 0; q < 4; q++) {
      const t0 = performance.now();
      let next = 0;
      const n = uploads / 4;
      await Promise.all(Array.from({ length: concurrency }, async () => {
        while (next < n) {
          next++;
          const o = await upload(port);
          outcomes[o] = (outcomes[o] ?? 0) + 1;
        }
      }));
      ms += performance.now() - t0;
      quarters.push(await readRss());
    }
    sampling = false;
    await sampler;
    child.kill();
    const mb = (n) => (n / 1048576).toFixed(1);
    return { server: role, client, outcomes: JSON.stringify(outcomes), msPerUpload: (ms / uploads).toFixed(1), rssStartMB: mb(before), rssByQuarterMB: quarters.map(mb).join(' / '), peakMB: mb(peak), afterWarmMB: mb(quarters[3] - quarters[0]) };
  };
  const rows = [];
  for (const client of ['fetch', 'raw']) for (const role of ['raw', 'mockyard']) rows.push(await measure(role, client));
  console.log(`${uploads} uploads of ${a.mb} MB each (limit 1 MiB), ${concurrency} at a time; client fetch = undici streaming body, raw = sends it all then reads`);
  console.table(rows);
}
