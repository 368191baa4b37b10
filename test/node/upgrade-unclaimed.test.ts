/**
 * WebSocket upgrades no engine claims, when mockyard is embedded (createMiddleware, the Vite
 * plugin, Express): never left hanging. Real servers on 127.0.0.1:0, real `ws`
 * clients, real Express 5 and Vite.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import express from 'express';
import { createServer as createViteServer, type ViteDevServer } from 'vite';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { memoryFs } from '../../src/vfs/memory.js';
import type { MockApiOptions } from '../../src/engine/mock-api-options.js';
import { createMiddleware, type Middleware } from '../../src/node/middleware.js';
import { mockyard } from '../../src/node/vite.js';
import { makeTempDir, removeTempDirs } from '../helpers/temp-dir.js';

const cleanups: Array<() => Promise<unknown> | unknown> = [];
afterEach(async () => {
  for (const f of cleanups.splice(0).reverse()) await f();
  await removeTempDirs();
});

type Handshake = { open: true } | { open: false; status: number; body: string; type: string | undefined };

/**
 * Opens a WebSocket and reports what the server did: accepted it, or answered with an HTTP
 * status. A server that does neither fails the test with the client's handshake timeout.
 */
function handshake(url: string, protocol?: string): Promise<Handshake> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, protocol, { handshakeTimeout: 4000 });
    ws.once('open', () => {
      ws.terminate();
      resolve({ open: true });
    });
    ws.once('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d));
      res.on('end', () => resolve({ open: false, status: res.statusCode ?? 0, body, type: res.headers['content-type'] }));
    });
    ws.once('error', (err) => reject(new Error(`no answer to the upgrade of ${url}: ${err.message}`)));
  });
}

const mockOptions = (extra: Partial<MockApiOptions> = {}): MockApiOptions => ({
  endpointPrefix: '/api',
  fs: memoryFs({ 'users.json': [{ id: 1 }] }),
  enableWs: true,
  wsHandlers: [{ pattern: '/ws/chat', onMessage: () => {} }],
  logLevel: 'silent',
  ...extra,
});

async function middleware(extra: Partial<MockApiOptions> = {}): Promise<Middleware> {
  const mw = await createMiddleware({ mock: mockOptions(extra), logLevel: 'silent' });
  cleanups.push(() => mw.close());
  return mw;
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  cleanups.push(() => new Promise((r) => {
    server.closeAllConnections();
    server.close(r);
  }));
  return `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function expect404(result: Handshake, path: string) {
  expect(result.open).toBe(false);
  const r = result as Extract<Handshake, { open: false }>;
  expect(r.status).toBe(404);
  expect(r.type).toBe('application/json; charset=utf-8');
  expect(JSON.parse(r.body)).toMatchObject({ status: 404, error: 'NOT_FOUND', message: 'Not Found', path });
}

describe('createMiddleware: mw.upgrade as the only upgrade listener', () => {
  it('under the prefix: 404 like the CLI; outside every prefix: 404 too (nobody else would answer); handlers still accept', async () => {
    const mw = await middleware();
    const server = createServer((req, res) => mw(req, res, () => res.end('next')));
    server.on('upgrade', mw.upgrade);
    const base = await listen(server);
    expect(await handshake(`${base}/api/ws/chat`)).toEqual({ open: true });
    expect404(await handshake(`${base}/api/ws/other`), '/api/ws/other');
    expect404(await handshake(`${base}/elsewhere?x=1`), '/elsewhere');
  });

  it('called from a wrapper (no `this`): the server is found from the socket', async () => {
    const mw = await middleware();
    const server = createServer((req, res) => mw(req, res, () => res.end('next')));
    server.on('upgrade', (req, socket, head) => mw.upgrade(req, socket, head));
    const base = await listen(server);
    expect404(await handshake(`${base}/elsewhere`), '/elsewhere');
  });
});

/** mw.upgrade first, then the app's own WebSocket server for `ownPath`; the ws:// base URL. */
async function withOwnListener(mw: Middleware, ownPath: string): Promise<string> {
  const server = createServer((req, res) => mw(req, res, () => res.end('next')));
  const own = new WebSocketServer({ noServer: true });
  cleanups.push(() => own.close());
  server.on('upgrade', mw.upgrade);
  server.on('upgrade', (req, socket, head) => {
    if (req.url === ownPath) own.handleUpgrade(req, socket, head, (ws) => ws.close());
  });
  return listen(server);
}

describe('createMiddleware next to another upgrade listener', () => {
  it('outside every prefix the socket is left to the other listener; under the prefix it is 404', async () => {
    const base = await withOwnListener(await middleware(), '/live');
    expect(await handshake(`${base}/live`)).toEqual({ open: true });
    expect404(await handshake(`${base}/api/ws/other`), '/api/ws/other');
  });

  it("with noHandledRestFsRequestsAction 'forward', unclaimed upgrades under the prefix go to the other listener too", async () => {
    const base = await withOwnListener(await middleware({ noHandledRestFsRequestsAction: 'forward' }), '/api/live');
    expect(await handshake(`${base}/api/live`)).toEqual({ open: true });
    expect(await handshake(`${base}/api/ws/chat`)).toEqual({ open: true });
  });
});

describe('Express 5', () => {
  it('app.use(mw) + server.on("upgrade", mw.upgrade) alone: every unclaimed upgrade gets a 404', async () => {
    const mw = await middleware();
    const app = express();
    app.use(mw);
    app.get('/hello', (_req, res) => void res.send('from express'));
    const server = createServer(app);
    server.on('upgrade', mw.upgrade);
    const base = await listen(server);
    const http = base.replace('ws:', 'http:');
    expect(await (await fetch(`${http}/api/users`)).json()).toEqual([{ id: 1 }]);
    expect(await (await fetch(`${http}/hello`)).text()).toBe('from express');
    expect(await handshake(`${base}/api/ws/chat`)).toEqual({ open: true });
    expect404(await handshake(`${base}/api/ws/other`), '/api/ws/other');
    expect404(await handshake(`${base}/socket`), '/socket');
  });
});

describe('Vite plugin on a real Vite dev server', () => {
  it('an unclaimed upgrade under the prefix gets the 404; Vite\'s HMR socket still connects', async () => {
    const root = await makeTempDir();
    await mkdir(join(root, 'mocks'), { recursive: true });
    await writeFile(join(root, 'mocks', 'users.json'), '[{"id":1}]');
    await writeFile(join(root, 'index.html'), '<!doctype html><title>x</title>');
    const vite: ViteDevServer = await createViteServer({
      root,
      configFile: false,
      logLevel: 'silent',
      server: { port: 0, host: '127.0.0.1', strictPort: false },
      plugins: [mockyard({ mock: { endpointPrefix: '/api', fsDir: 'mocks', enableWs: true, wsHandlers: [{ pattern: '/ws/chat', onMessage: () => {} }], logLevel: 'silent' }, logLevel: 'silent' })],
    });
    cleanups.push(() => vite.close());
    await vite.listen();
    const port = (vite.httpServer!.address() as AddressInfo).port;
    const base = `ws://127.0.0.1:${port}`;
    expect(await (await fetch(`http://127.0.0.1:${port}/api/users`)).json()).toEqual([{ id: 1 }]);
    expect(await handshake(`${base}/api/ws/chat`)).toEqual({ open: true });
    expect404(await handshake(`${base}/api/ws/other`), '/api/ws/other');
    expect(await handshake(`${base}/`, 'vite-hmr')).toEqual({ open: true });
  });
});
