#!/usr/bin/env node
// Programmable layer speed vs raw references, in one run:
//   1. HTTP: a REST handler returning a small JSON object, served by `serve()`, against a raw
//      node:http server answering the same JSON (requests/s over keep-alive connections);
//   2. WebSocket: echo round trips/s through a wsHandler (`onMessage: (c, m) => c.send(m)`)
//      against a raw `ws` echo server (each client sends its next message when the echo arrives).
// Each server runs in its own process; the load comes from this process. Two rounds, best kept.
//   node bench/handlers.mjs [--seconds 3] [--connections 16] [--clients 8] [--dist dist] [--json]
import { spawn } from 'node:child_process';
import { Agent, request } from 'node:http';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const here = dirname(fileURLToPath(import.meta.url));
const { values: a } = parseArgs({ options: {
  seconds: { type: 'string', default: '3' }, connections: { type: 'string', default: '16' }, clients: { type: 'string', default: '8' },
  dist: { type: 'string', default: resolve(here, '../dist') }, role: { type: 'string' }, json: { type: 'boolean', default: false },
} });

const BODY = { id: 1, name: 'Ada Lovelace', roles: ['admin', 'editor'], active: true };

if (a.role) process.on('SIGTERM', () => process.exit(0));
if (a.role === 'raw') await rawServer();
else if (a.role === 'mockyard') await mockyardServer(a.dist);
else await main();

async function rawServer() {
  const { createServer } = await import('node:http');
  const { WebSocketServer } = await import('ws');
  const server = createServer((req, res) => {
    const body = JSON.stringify(BODY);
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
  const wss = new WebSocketServer({ server });
  wss.on('connection', (ws) => ws.on('message', (data, isBinary) => ws.send(data, { binary: isBinary })));
  server.listen(0, '127.0.0.1', () => console.log(JSON.stringify({ port: server.address().port })));
}

async function mockyardServer(dist) {
  const { createMockApi } = await import(pathToFileURL(join(dist, 'index.js')).href);
  const { serve } = await import(pathToFileURL(join(dist, 'node/serve.js')).href);
  const mock = createMockApi({
    endpointPrefix: '/api',
    fsDir: null,
    logLevel: 'warn',
    enableWs: true,
    handlers: [{ pattern: '/users/{id}', method: 'GET', handle: () => BODY }],
    wsHandlers: [{ pattern: '/echo', onMessage: (conn, msg) => conn.send(msg) }],
  });
  const s = await serve({ mock, port: 0, logLevel: 'warn' });
  console.log(JSON.stringify({ port: s.port }));
}

function startServer(role) {
  return new Promise((resolvePort, reject) => {
    const child = spawn(process.execPath, [fileURLToPath(import.meta.url), '--role', role, '--dist', a.dist], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (c) => {
      out += c;
      const line = out.split('\n')[0];
      if (out.includes('\n')) resolvePort({ port: JSON.parse(line).port, child });
    });
    child.once('exit', (code) => reject(new Error(`${role} server exited (${code})`)));
  });
}

async function httpRate(port, path, seconds, connections) {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const end = performance.now() + seconds * 1000;
  let count = 0;
  const one = () => new Promise((done, fail) => {
    const req = request({ host: '127.0.0.1', port, path, agent }, (res) => {
      res.on('data', () => {});
      res.on('end', () => (res.statusCode === 200 ? done() : fail(new Error(`status ${res.statusCode}`))));
    });
    req.on('error', fail);
    req.end();
  });
  await Promise.all(Array.from({ length: connections }, async () => {
    while (performance.now() < end) {
      await one();
      count++;
    }
  }));
  agent.destroy();
  return count / seconds;
}

async function wsRate(port, path, seconds, clients) {
  const { WebSocket } = await import('ws');
  const sockets = await Promise.all(Array.from({ length: clients }, () => new Promise((ok, fail) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}${path}`);
    ws.once('open', () => ok(ws));
    ws.once('error', fail);
  })));
  const end = performance.now() + seconds * 1000;
  let count = 0;
  await Promise.all(sockets.map((ws) => new Promise((done) => {
    ws.on('message', () => {
      count++;
      if (performance.now() < end) ws.send('hello, echo');
      else done();
    });
    ws.send('hello, echo');
  })));
  for (const ws of sockets) ws.terminate();
  return count / seconds;
}

async function main() {
  const seconds = Number(a.seconds);
  const connections = Number(a.connections);
  const clients = Number(a.clients);
  const children = [];
  const started = (role) => startServer(role).then((s) => (children.push(s.child), s));
  try {
    const raw = await started('raw');
    const mock = await started('mockyard');
    // Warm-up (JIT) for both.
    await httpRate(raw.port, '/api/users/1', 0.5, connections);
    await httpRate(mock.port, '/api/users/1', 0.5, connections);
    await wsRate(raw.port, '/', 0.5, clients);
    await wsRate(mock.port, '/api/echo', 0.5, clients);
    const best = { rawHttp: 0, mockHttp: 0, rawWs: 0, mockWs: 0 };
    for (let round = 0; round < 2; round++) {
      best.rawHttp = Math.max(best.rawHttp, await httpRate(raw.port, '/api/users/1', seconds, connections));
      best.mockHttp = Math.max(best.mockHttp, await httpRate(mock.port, '/api/users/1', seconds, connections));
      best.rawWs = Math.max(best.rawWs, await wsRate(raw.port, '/', seconds, clients));
      best.mockWs = Math.max(best.mockWs, await wsRate(mock.port, '/api/echo', seconds, clients));
    }
    const result = {
      http: { rawRps: Math.round(best.rawHttp), mockyardRps: Math.round(best.mockHttp), ratio: +(best.mockHttp / best.rawHttp).toFixed(2) },
      ws: { rawRoundTripsPerSec: Math.round(best.rawWs), mockyardRoundTripsPerSec: Math.round(best.mockWs), ratio: +(best.mockWs / best.rawWs).toFixed(2) },
      settings: { seconds, connections, clients, node: process.version },
    };
    if (a.json) console.log(JSON.stringify(result));
    else {
      console.log(`handler GET small JSON: raw node:http ${result.http.rawRps} req/s, mockyard ${result.http.mockyardRps} req/s (${result.http.ratio}x)`);
      console.log(`WebSocket echo:          raw ws ${result.ws.rawRoundTripsPerSec} rt/s, mockyard ${result.ws.mockyardRoundTripsPerSec} rt/s (${result.ws.ratio}x)`);
    }
  } finally {
    for (const child of children) child.kill('SIGTERM');
  }
}
