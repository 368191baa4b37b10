/**
 * A WebSocket handler that only pushes (`onConnect` alone, as universal-api's suite writes one):
 * accepted at start-up and served through the real node:http host to a real `ws` client; a
 * handler with neither callback is still refused, naming the option.
 */
import { afterEach, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { serve, type RunningServer } from '../../../src/node/serve.js';
import { memoryFs } from '../../../src/vfs/memory.js';

const servers: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

it('a handler with only onConnect is served: its client gets the push, its messages go unanswered', async () => {
  const server = await serve({
    port: 0,
    logLevel: 'silent',
    mock: { endpointPrefix: '/api', fs: memoryFs({}), enableWs: true, wsHandlers: [{ pattern: '/clock', onConnect: (conn) => conn.send({ tick: 1 }) }] },
  });
  servers.push(server);
  const ws = new WebSocket(`${server.url.replace('http', 'ws')}/api/clock`);
  const first = await new Promise<unknown>((resolve, reject) => {
    ws.once('message', (data) => resolve(JSON.parse(String(data))));
    ws.once('error', reject);
  });
  expect(first).toEqual({ tick: 1 });
  ws.send(JSON.stringify({ hello: 'ignored' }));
  await new Promise((r) => setTimeout(r, 100));
  expect(ws.readyState).toBe(WebSocket.OPEN); // the connection stays open
  ws.close();
});

it('a handler with neither onConnect nor onMessage is refused at start-up, naming the option', async () => {
  await expect(serve({ port: 0, logLevel: 'silent', mock: { endpointPrefix: '/api', fs: memoryFs({}), enableWs: true, wsHandlers: [{ pattern: '/x' } as never] } })).rejects.toThrow(/mock\.wsHandlers\[0\]\.onMessage.*onConnect alone/);
});
