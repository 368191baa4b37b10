/**
 * Connect-style middleware and the Vite plugin, in a plain middleware chain on a real
 * node:http server (no connect/express needed).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { FastResponse } from '../../src/core/fast-response.js';
import type { NextFunction } from '../../src/engine/types.js';
import { middlewareFor } from '../../src/node/middleware.js';
import { mockyard, type ViteLikeServer } from '../../src/node/vite.js';
import { fakeEngine } from '../helpers/server.js';
import { makeTempDir, removeTempDirs } from '../helpers/temp-dir.js';

type Fn = (req: IncomingMessage, res: ServerResponse, next: NextFunction) => void;

/** A tiny connect: runs `use`d functions in order; the end of the chain answers 'fallthrough'. */
function chain() {
  const stack: Array<{ mount: string; fn: Fn }> = [];
  const app = (req: IncomingMessage, res: ServerResponse) => {
    let i = 0;
    const original = req.url ?? '/';
    const next: NextFunction = (err) => {
      req.url = original;
      if (err) {
        res.statusCode = 599;
        res.end(`chain error: ${String((err as Error).message ?? err)}`);
        return;
      }
      const layer = stack[i++];
      if (!layer) {
        res.setHeader('content-type', 'text/plain');
        res.end('fallthrough');
        return;
      }
      if (!original.startsWith(layer.mount)) return next();
      if (layer.mount !== '/') {
        (req as IncomingMessage & { originalUrl?: string }).originalUrl = original;
        req.url = original.slice(layer.mount.length) || '/';
      }
      layer.fn(req, res, next);
    };
    next();
  };
  return {
    use(mountOrFn: string | Fn, fn?: Fn) {
      if (typeof mountOrFn === 'string') stack.push({ mount: mountOrFn, fn: fn! });
      else stack.push({ mount: '/', fn: mountOrFn });
    },
    app,
  };
}

const servers: Server[] = [];
async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ server: Server; url: string }> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
  await removeTempDirs();
});

const apiEngine = fakeEngine({
  prefixes: ['/api'],
  handle: (r) => {
    const path = new URL(r.url).pathname;
    return path.startsWith('/api/') ? FastResponse.json(JSON.stringify({ path }), 200) : undefined;
  },
});

describe('connect middleware', () => {
  it('answers its requests and calls next() for the rest', async () => {
    const c = chain();
    c.use(middlewareFor([apiEngine], { logLevel: 'silent' }));
    const { url } = await listen(c.app);
    expect(await (await fetch(`${url}/api/users`)).json()).toEqual({ path: '/api/users' });
    expect(await (await fetch(`${url}/index.html`)).text()).toBe('fallthrough');
  });

  it('sees the full URL under a mounting router (originalUrl)', async () => {
    const c = chain();
    c.use('/api', middlewareFor([apiEngine], { logLevel: 'silent' }));
    const { url } = await listen(c.app);
    expect(await (await fetch(`${url}/api/users/1?x=1`)).json()).toEqual({ path: '/api/users/1' });
  });

  it('reads bodies an earlier middleware already consumed (express.json() style req.body)', async () => {
    const c = chain();
    // like express.json(): reads the stream, leaves the parsed value on req.body
    c.use((req, _res, next) => {
      if (req.headers['content-type'] !== 'application/json') return next();
      let text = '';
      req.on('data', (d: Buffer) => (text += d));
      req.on('end', () => {
        (req as IncomingMessage & { body?: unknown }).body = JSON.parse(text);
        next();
      });
    });
    c.use(middlewareFor([fakeEngine({ handle: async (r) => FastResponse.json(JSON.stringify({ got: await r.text() })) })], { logLevel: 'silent' }));
    const { url } = await listen(c.app);
    const res = await fetch(`${url}/api/x`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":[1,2]}' });
    expect(await res.json()).toEqual({ got: '{"a":[1,2]}' });
    // a body nobody consumed is still read from the stream
    const plain = await fetch(`${url}/api/x`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'plain' });
    expect(await plain.json()).toEqual({ got: 'plain' });
  });

  it('engine errors become the JSON error body, not a chain error', async () => {
    const c = chain();
    c.use(middlewareFor([fakeEngine({ handle: () => { throw new Error('x'); } })], { logLevel: 'silent' }));
    const { url } = await listen(c.app);
    const res = await fetch(`${url}/boom`);
    expect(res.status).toBe(500);
    expect(await res.json()).toMatchObject({ status: 500, path: '/boom' });
  });
});

describe('Vite plugin', () => {
  function fakeVite(root: string) {
    const c = chain();
    let upgrade: ((...a: any[]) => void) | undefined; // eslint-disable-line @typescript-eslint/no-explicit-any
    const closeListeners: Array<() => void> = [];
    const httpServer = {
      on(event: string, fn: (...a: any[]) => void) { // eslint-disable-line @typescript-eslint/no-explicit-any
        if (event === 'upgrade') upgrade = fn;
        if (event === 'close') closeListeners.push(fn as () => void);
        return httpServer;
      },
    };
    const server: ViteLikeServer = {
      config: { root, logger: { info() {}, warn() {}, error() {} } },
      middlewares: { use: (fn) => c.use(fn as unknown as Fn) },
      httpServer: httpServer as unknown as ViteLikeServer['httpServer'],
    };
    return { server, app: c.app, upgrade: () => upgrade, close: () => closeListeners.forEach((f) => f()) };
  }

  it('serves mock files from fsDir relative to Vite\'s root and passes the rest on', async () => {
    const root = await makeTempDir();
    await mkdir(join(root, 'mocks', 'users'), { recursive: true });
    await writeFile(join(root, 'mocks', 'users', '1.json'), '{"id":1,"name":"Ada"}');
    const vite = fakeVite(root);
    const plugin = mockyard({ mock: { endpointPrefix: '/api', fsDir: 'mocks', logLevel: 'silent', noHandledRestFsRequestsAction: 'forward' }, logLevel: 'silent' });
    expect(plugin.name).toBe('mockyard');
    await plugin.configureServer(vite.server);
    const { server, url } = await listen(vite.app);
    server.on('upgrade', vite.upgrade()!);
    const res = await fetch(`${url}/api/users/1`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ id: 1, name: 'Ada' });
    expect(await (await fetch(`${url}/src/main.ts`)).text()).toBe('fallthrough');
    vite.close();
  });

  it('hooks WebSocket upgrades on Vite\'s http server', async () => {
    const root = await makeTempDir();
    const engine = fakeEngine({
      upgrade: (r) => (new URL(r.url).pathname === '/ws/echo' ? (peer) => ({ message: (d) => peer.send(d), close() {} }) : undefined),
    });
    const vite = fakeVite(root);
    await mockyard({ engines: [engine], logLevel: 'silent' }).configureServer(vite.server);
    const { server, url } = await listen(vite.app);
    server.on('upgrade', vite.upgrade()!);
    const ws = new WebSocket(`${url.replace('http', 'ws')}/ws/echo`);
    await new Promise((r, j) => { ws.once('open', r); ws.once('error', j); });
    const got = new Promise((r) => ws.once('message', (d: Buffer) => r(d.toString())));
    ws.send('hi');
    expect(await got).toBe('hi');
    ws.terminate();
    vite.close();
  });
});
