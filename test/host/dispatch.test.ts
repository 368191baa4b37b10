/**
 * THE dispatch (src/host/dispatch.ts) through the node host's real transport: a WebSocket
 * handshake is offered only to the engines whose prefixes cover its path, in order, as requests
 * are (and as the page's and handlersFor's sockets are: src/msw/sockets.ts uses the same loop).
 * Real server on 127.0.0.1, real `ws` clients.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { SocketAccept } from '../../src/core/socket.js';
import { closeServers, fakeEngine, startServer } from '../helpers/server.js';

afterEach(closeServers);

/** A session that greets with `name` and the path it was opened on. */
const greeter = (name: string) => (request: Request): SocketAccept => (peer) => {
  peer.send(`${name} ${new URL(request.url).pathname}`);
  return { message() {}, close() {} };
};

/** The first message of a socket, or the HTTP status that refused the handshake. */
function firstWord(url: string): Promise<string | number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    ws.once('message', (data) => {
      ws.terminate();
      resolve(String(data));
    });
    ws.once('unexpected-response', (_req, res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    ws.once('error', reject);
  });
}

describe('WebSocket handshakes go to the engines covering the path', () => {
  it('an engine is not asked for a path outside its prefixes; the next covering one answers', async () => {
    const asked: string[] = [];
    const wide = fakeEngine({ prefixes: ['/a'], upgrade: (r) => (asked.push(new URL(r.url).pathname), greeter('a')(r)) });
    const other = fakeEngine({ prefixes: ['/b'], upgrade: greeter('b') });
    const server = await startServer({ engines: [wide, other] });
    const ws = server.url.replace('http', 'ws');
    expect(await firstWord(`${ws}/a/x`)).toBe('a /a/x');
    expect(await firstWord(`${ws}/b/x`)).toBe('b /b/x');
    expect(await firstWord(`${ws}/c/x`)).toBe(404);
    expect(asked).toEqual(['/a/x']);
  });
});
