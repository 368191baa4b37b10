/**
 * Connection faults through msw (handlersFor, the same routes the service-worker host uses): the
 * platform's network error for the app's fetch; slow-body completes.
 */
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createMockApi } from '../../src/engine/create-mock-api.js';
import { handlersFor } from '../../src/msw/index.js';
import { memoryFs } from '../../src/vfs/memory.js';

const api = createMockApi({
  endpointPrefix: '/api',
  fs: memoryFs({ 'ok.json': { ok: true } }),
  logLevel: 'silent',
  faults: [
    { path: '/reset', fault: 'connection-reset' },
    { path: '/chunk', fault: 'malformed-chunk' },
    { path: '/ok.json', fault: { type: 'slow-body', bytesPerSecond: 100 } },
  ],
});
const server = setupServer(...handlersFor(api, { baseUrl: 'http://api.test' }));
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(async () => {
  server.close();
  await api.close();
});

it('a connection fault is the network error; slow-body completes', async () => {
  await expect(fetch('http://api.test/api/reset')).rejects.toThrow(TypeError);
  await expect(fetch('http://api.test/api/chunk')).rejects.toThrow(TypeError);
  expect(await (await fetch('http://api.test/api/ok.json')).json()).toEqual({ ok: true });
  // A session's override fault, through the same routes.
  api.sessions.addOverrides('m', [{ path: '/ok.json', fault: 'truncated-body' }]);
  await expect(fetch('http://api.test/api/ok.json', { headers: { 'x-mockyard-session': 'm' } })).rejects.toThrow(TypeError);
});
