// @vitest-environment happy-dom
/**
 * handlersFor's WebSocket link: msw intercepts the `WebSocket` class (happy-dom's here; Node 20 has
 * no global WebSocket), and the engine's wsHandlers answer, as on the node host.
 */
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createMockApi } from '../../src/engine/create-mock-api.js';
import { handlersFor } from '../../src/msw/index.js';
import { memoryFs } from '../../src/vfs/memory.js';

const api = createMockApi({
  endpointPrefix: '/api',
  fs: memoryFs({}),
  logLevel: 'silent',
  enableWs: true,
  wsHandlers: [{ pattern: '/chat/:room', onConnect: (conn) => conn.send({ hello: conn.params.room }), onMessage: (conn, msg) => conn.send({ echo: msg }) }],
});
const server = setupServer(...handlersFor(api, { baseUrl: 'http://api.test' }));
beforeAll(async () => {
  await api.ready();
  server.listen({ onUnhandledRequest: 'error' });
});
afterAll(async () => {
  server.close();
  await api.close();
});

it('answers a WebSocket under the prefix through the engine (connect, message, params)', async () => {
  expect(handlersFor(api)).toHaveLength(2);
  const socket = new WebSocket('ws://api.test/api/chat/lobby');
  const messages: unknown[] = [];
  const two = new Promise<void>((resolve, reject) => {
    socket.addEventListener('message', (event) => {
      messages.push(JSON.parse(String((event as MessageEvent).data)));
      if (messages.length === 2) resolve();
    });
    socket.addEventListener('error', () => reject(new Error('socket error')));
  });
  socket.addEventListener('open', () => socket.send(JSON.stringify({ text: 'hi' })));
  await two;
  expect(messages).toEqual([{ hello: 'lobby' }, { echo: { text: 'hi' } }]);
  socket.close();
});
