/**
 * The WebSocket seam on the node host: fake engines, real `ws` clients on 127.0.0.1 port 0.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { FastResponse } from '../../src/core/fast-response.js';
import { createLogger } from '../../src/core/logger.js';
import { withMessageLimit, type SocketPeer, type SocketSession } from '../../src/core/socket.js';
import { createUpgradeHandler } from '../../src/node/upgrade.js';
import { closeServers, fakeEngine, startServer } from '../helpers/server.js';

const clients: WebSocket[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) c.terminate();
  await closeServers();
});

function connect(url: string, protocols?: string[]): WebSocket {
  const ws = new WebSocket(url, protocols);
  clients.push(ws);
  return ws;
}

function opened(ws: WebSocket): Promise<void> {
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
}

function nextMessage(ws: WebSocket): Promise<{ data: string | Buffer; isBinary: boolean }> {
  return new Promise((resolve) => ws.once('message', (data: Buffer, isBinary: boolean) => resolve({ data: isBinary ? data : data.toString(), isBinary })));
}

function closed(ws: WebSocket): Promise<{ code: number; reason: string }> {
  return new Promise((resolve) => ws.once('close', (code: number, reason: Buffer) => resolve({ code, reason: reason.toString() })));
}

function unexpected(ws: WebSocket): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    ws.once('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
    });
    ws.once('open', () => reject(new Error('opened')));
    ws.once('error', () => {});
  });
}

/** An engine that accepts /ws/*, echoes messages and records what its session saw. */
function echoEngine() {
  const events: string[] = [];
  const peers: SocketPeer[] = [];
  let seenRequest: Request | undefined;
  const engine = fakeEngine({
    prefixes: ['/ws'],
    upgrade: (request) => {
      const path = new URL(request.url).pathname;
      if (!path.startsWith('/ws/')) return undefined;
      if (path === '/ws/private' && request.headers.get('authorization') !== 'Bearer ok') {
        return FastResponse.json('{"message":"no"}', 401, { 'WWW-Authenticate': 'Bearer' });
      }
      seenRequest = request;
      return (peer): SocketSession => {
        peers.push(peer);
        events.push('open');
        return {
          message(data) {
            events.push(typeof data === 'string' ? `text:${data}` : `binary:${data.byteLength}`);
            if (data === 'close-me') peer.close(4001, 'asked');
            else if (data === 'bad-close') peer.close(1005, 'x'.repeat(200));
            else if (data === 'long-reason') peer.close(4002, 'y'.repeat(200));
            else if (data === 'ping-me') events.push(`ping:${peer.ping()}`);
            else peer.send(typeof data === 'string' ? `echo:${data}` : data);
          },
          pong() { events.push('pong'); },
          close(code, reason) { events.push(`close:${code}:${reason}`); },
        };
      };
    },
  });
  return { engine, events, peers, request: () => seenRequest };
}

/** Polls until `check` holds (events cross the socket asynchronously); no timing assumptions. */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((r) => setTimeout(r, 5));
}

const wsUrl = (http: string, path: string) => http.replace('http://', 'ws://') + path;

describe('WebSocket upgrades', () => {
  it('enforces the message limit an engine states while receiving: 1009, the session never sees the frame', async () => {
    const seen: number[] = [];
    const engine = fakeEngine({
      prefixes: ['/ws'],
      upgrade: () => withMessageLimit(() => ({ message: (d) => void seen.push(typeof d === 'string' ? d.length : d.byteLength), close() {} }), 1024),
    });
    const server = await startServer({ engines: [engine] });
    const ws = connect(wsUrl(server.url, '/ws/limited'));
    await opened(ws);
    ws.send('x'.repeat(1000));
    const done = closed(ws);
    ws.send('y'.repeat(64 * 1024));
    expect((await done).code).toBe(1009);
    expect(seen).toEqual([1000]);
  });

  it('lets a session pause and resume reading (backpressure)', async () => {
    const seen: string[] = [];
    let peer!: SocketPeer;
    const engine = fakeEngine({
      prefixes: ['/ws'],
      upgrade: (request) => (p): SocketSession => {
        // A second connection that echoes: the sentinel for the negative check below.
        if (request.url.endsWith('/sentinel')) return { message: (d) => p.send(String(d)), close() {} };
        peer = p;
        return { message: (d) => void seen.push(String(d)), close() {} };
      },
    });
    const server = await startServer({ engines: [engine] });
    const ws = connect(wsUrl(server.url, '/ws/paced'));
    const sentinel = connect(wsUrl(server.url, '/ws/sentinel'));
    await Promise.all([opened(ws), opened(sentinel)]);
    ws.send('one');
    await until(() => seen.length === 1);
    peer.pause!();
    ws.send('two');
    // Sent after 'two' on another connection and echoed back: by the time the echo is here the
    // server has read what reached it before, so an unpaused 'two' would have been delivered.
    const echoed = new Promise((resolve) => sentinel.once('message', resolve));
    sentinel.send('after two');
    expect(String(await echoed)).toBe('after two');
    expect(seen).toEqual(['one']);
    peer.resume!();
    await until(() => seen.length === 2);
    expect(seen).toEqual(['one', 'two']);
  });

  it('connects, passes text and binary both ways, and reports the close code', async () => {
    const { engine, events, request } = echoEngine();
    const server = await startServer({ engines: [engine] });
    const ws = connect(wsUrl(server.url, '/ws/chat?room=1'));
    await opened(ws);
    expect(new URL(request()!.url).pathname).toBe('/ws/chat');
    expect(new URL(request()!.url).search).toBe('?room=1');

    ws.send('hello');
    expect(await nextMessage(ws)).toEqual({ data: 'echo:hello', isBinary: false });
    ws.send(new Uint8Array([1, 2, 3]));
    const bin = await nextMessage(ws);
    expect(bin.isBinary).toBe(true);
    expect([...(bin.data as Buffer)]).toEqual([1, 2, 3]);

    const done = closed(ws);
    ws.close(4000, 'bye');
    expect(await done).toEqual({ code: 4000, reason: 'bye' });
    await until(() => events.length === 4);
    expect(events).toEqual(['open', 'text:hello', 'binary:3', 'close:4000:bye']);
  });

  it('the engine can close with a code, and ping() sends a real ping frame', async () => {
    const { engine, events } = echoEngine();
    const server = await startServer({ engines: [engine] });
    const ws = connect(wsUrl(server.url, '/ws/x'));
    await opened(ws);
    const pinged = new Promise<void>((r) => ws.once('ping', () => r()));
    ws.send('ping-me');
    await pinged; // the client's ws answers with a pong automatically
    await until(() => events.includes('pong'));
    const done = closed(ws);
    ws.send('close-me');
    expect(await done).toEqual({ code: 4001, reason: 'asked' });
  });

  it('invalid close codes or over-long reasons from the engine still close the socket', async () => {
    const { engine } = echoEngine();
    const server = await startServer({ engines: [engine] });
    const a = connect(wsUrl(server.url, '/ws/a'));
    await opened(a);
    const aClosed = closed(a);
    a.send('bad-close');
    expect((await aClosed).code).toBe(1005);
    const b = connect(wsUrl(server.url, '/ws/b'));
    await opened(b);
    const bClosed = closed(b);
    b.send('long-reason');
    expect(await bClosed).toEqual({ code: 4002, reason: '' });
  });

  it('refuses a handshake with the engine\'s Response (401, headers, body)', async () => {
    const { engine } = echoEngine();
    const server = await startServer({ engines: [engine] });
    const refused = await unexpected(connect(wsUrl(server.url, '/ws/private')));
    expect(refused.status).toBe(401);
    expect(refused.headers['www-authenticate']).toBe('Bearer');
    expect(JSON.parse(refused.body)).toEqual({ message: 'no' });

    const ok = new WebSocket(wsUrl(server.url, '/ws/private'), { headers: { Authorization: 'Bearer ok' } });
    clients.push(ok);
    await opened(ok);
  });

  it('answers 404 and closes an upgrade no engine claims', async () => {
    const { engine } = echoEngine();
    const server = await startServer({ engines: [engine, fakeEngine({ handle: () => undefined })] });
    const refused = await unexpected(connect(wsUrl(server.url, '/other')));
    expect(refused.status).toBe(404);
    expect(JSON.parse(refused.body)).toMatchObject({ status: 404, error: 'NOT_FOUND', path: '/other' });
  });

  it('an engine that throws in upgrade() refuses with a 500', async () => {
    const server = await startServer({ engines: [fakeEngine({ upgrade: () => { throw new Error('nope'); } })] });
    const refused = await unexpected(connect(wsUrl(server.url, '/ws/x')));
    expect(refused.status).toBe(500);
  });

  it('server close() closes open sockets with 1001', async () => {
    const { engine, events } = echoEngine();
    const server = await startServer({ engines: [engine] });
    const ws = connect(wsUrl(server.url, '/ws/x'));
    await opened(ws);
    const done = closed(ws);
    await server.close();
    expect((await done).code).toBe(1001);
    await until(() => events.some((e) => e.startsWith('close:')));
    expect(events.at(-1)).toMatch(/^close:1001/);
  });

  it('embedded: unclaimed upgrades are left for other listeners', async () => {
    const { engine } = echoEngine();
    const http = createServer();
    const handler = createUpgradeHandler([engine], { logger: createLogger('silent'), fallbackHost: () => 'localhost', embedded: true });
    http.on('upgrade', handler);
    // a second listener (like Vite's HMR) answers what mockyard leaves alone
    http.on('upgrade', (req, socket) => {
      if (!req.url?.startsWith('/ws/')) socket.end('HTTP/1.1 418 I\'m a teapot\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
    });
    await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
    const port = (http.address() as AddressInfo).port;
    try {
      const other = await unexpected(connect(`ws://127.0.0.1:${port}/hmr`));
      expect(other.status).toBe(418);
      const mine = connect(`ws://127.0.0.1:${port}/ws/x`);
      await opened(mine);
      mine.terminate();
    } finally {
      await handler.close();
      http.closeAllConnections();
      await new Promise((r) => http.close(r));
    }
  });
});
