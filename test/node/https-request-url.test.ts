/**
 * Behind an https server (node:https, Vite's `server.https`), a request's URL is https: a
 * handler reads `https:` in `req.url`, and a page on the server's own https origin opens a
 * WebSocket where `mock.cors` lists other origins only (the socket origin rule compares the
 * page's origin with the request's). Before, every request was built as http:// and that page's
 * handshake was refused as another origin. The key and certificate in test/fixtures/tls are a
 * self-signed pair for localhost and 127.0.0.1 made for this test.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import WebSocket from 'ws';
import { memoryFs } from '../../src/index.js';
import { createMiddleware, type Middleware } from '../../src/node/index.js';

const key = readFileSync(new URL('../fixtures/tls/localhost.key', import.meta.url));
const cert = readFileSync(new URL('../fixtures/tls/localhost.crt', import.meta.url));
const open: { server: Server; mw: Middleware }[] = [];
afterEach(async () => {
  for (const { server, mw } of open.splice(0)) {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    await mw.close();
  }
});

async function httpsServer(): Promise<string> {
  const mw = await createMiddleware({
    mock: {
      endpointPrefix: '/api',
      fs: memoryFs({ 'posts.json': [{ id: 1 }] }),
      graphql: true,
      cors: { origins: ['https://app.example.com'] },
      handlers: [{ pattern: '/where', method: 'GET', handle: (req) => ({ url: req.url }) }],
      logLevel: 'silent',
    },
    logLevel: 'silent',
  });
  const server = createServer({ key, cert }, (req, res) => mw(req, res, () => { res.statusCode = 404; res.end(); }));
  server.on('upgrade', mw.upgrade);
  open.push({ server, mw });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function handshake(base: string, origin: string): Promise<string> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`${base.replace(/^https/, 'wss')}/api/graphql`, 'graphql-transport-ws', { origin, ca: cert });
    ws.on('open', () => {
      ws.close();
      resolve('open');
    });
    ws.on('unexpected-response', (_req, res) => resolve(`${res.statusCode}`));
    ws.on('error', (e) => resolve(`error ${e.message}`));
  });
}

it('a handler reads https: in req.url behind an https server', async () => {
  const base = await httpsServer();
  const { Agent } = await import('undici');
  const dispatcher = new Agent({ connect: { ca: cert } });
  const r = await fetch(`${base}/api/where`, { dispatcher } as RequestInit);
  expect(r.status).toBe(200);
  expect(new URL(((await r.json()) as { url: string }).url).protocol).toBe('https:');
  await dispatcher.close();
});

it("a page on the server's own https origin opens GraphQL's socket; another origin is still refused", async () => {
  const base = await httpsServer();
  expect(await handshake(base, base)).toBe('open');
  expect(await handshake(base, 'https://app.example.com')).toBe('open');
  expect(await handshake(base, 'https://evil.example')).toBe('403');
});
