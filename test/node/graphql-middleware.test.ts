/**
 * GraphQL through the connect/Vite middleware on a real node:http server: a fetch POST of a
 * document, and a subscription with the `graphql-ws` client over the middleware's upgrade
 * handler (`httpServer.on('upgrade', mw.upgrade)`), a REST write through the same middleware
 * pushing the event.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClient } from 'graphql-ws';
import { afterEach, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createMockApi, type MockApi } from '../../src/engine/create-mock-api.js';
import { middlewareFor } from '../../src/node/middleware.js';
import { memoryFs } from '../../src/vfs/memory.js';

const open: Array<Server | MockApi> = [];
afterEach(async () => {
  for (const x of open.splice(0)) {
    if ('closeAllConnections' in x) {
      x.closeAllConnections();
      await new Promise((r) => x.close(r));
    } else await x.close();
  }
});

it('serves GraphQL and its subscriptions inside an app\'s own server', async () => {
  const api = createMockApi({ endpointPrefix: '/api', fs: memoryFs({ 'posts.json': [{ id: 1, title: 'one' }] }), preset: 'json-server', logLevel: 'silent' });
  open.push(api);
  const mw = middlewareFor([api], { logLevel: 'silent' });
  const server = createServer((req, res) => mw(req, res, () => res.end('app')));
  server.on('upgrade', mw.upgrade);
  open.unshift(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const res = await fetch(`${url}/api/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ allPosts { title } }' }) });
  expect(await res.json()).toEqual({ data: { allPosts: [{ title: 'one' }] } });

  const client = createClient({ url: `${url.replace(/^http/, 'ws')}/api/graphql`, webSocketImpl: WebSocket, retryAttempts: 0 });
  const got = new Promise((resolve, reject) => client.subscribe({ query: 'subscription { postCreated { title } }' }, { next: resolve, error: reject, complete: () => undefined }));
  await new Promise((resolve, reject) => client.subscribe({ query: '{ _allPostsMeta { count } }' }, { next: () => undefined, error: reject, complete: () => resolve(undefined) }));
  await fetch(`${url}/api/posts`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"title":"two"}' });
  expect(await got).toEqual({ data: { postCreated: { title: 'two' } } });
  await client.dispose();
  await mw.close?.();
});
