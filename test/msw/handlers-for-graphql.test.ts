// @vitest-environment happy-dom
/**
 * GraphQL through the test-runner hosts: `handlersFor` (an app's own msw: fetch POSTs of GraphQL
 * documents, and the `graphql-ws` client over msw's intercepted WebSocket, so subscriptions work
 * without enableWs) and `interceptFetch`.
 */
import { createClient } from 'graphql-ws';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createMockApi } from '../../src/engine/create-mock-api.js';
import { graphql } from '../../src/engine/handler-api/operation-handlers.js';
import { handlersFor } from '../../src/msw/index.js';
import { interceptFetch } from '../../src/test/index.js';
import { memoryFs } from '../../src/vfs/memory.js';

const api = createMockApi({ endpointPrefix: '/api', fs: memoryFs({ 'posts.json': [{ id: 1, title: 'one', user_id: 1 }], 'users.json': [{ id: 1, name: 'Ada' }] }), preset: 'json-server', logLevel: 'silent' });
const server = setupServer(...handlersFor(api, { baseUrl: 'http://api.test' }));
beforeAll(async () => {
  await api.ready();
  server.listen({ onUnhandledRequest: 'error' });
});
afterAll(async () => {
  server.close();
  await api.close();
});

const ask = async (query: string) => (await fetch('http://api.test/api/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) })).json();

it('handlersFor: queries and mutations by fetch, subscriptions with graphql-ws', async () => {
  expect(await ask('{ Post(id: 1) { title User { name } } }')).toEqual({ data: { Post: { title: 'one', User: { name: 'Ada' } } } });
  const client = createClient({ url: 'ws://api.test/api/graphql', webSocketImpl: WebSocket, retryAttempts: 0 });
  const got = new Promise((resolve, reject) => client.subscribe({ query: 'subscription { postCreated { id title } }' }, { next: resolve, error: reject, complete: () => undefined }));
  await new Promise((resolve, reject) => client.subscribe({ query: '{ _allPostsMeta { count } }' }, { next: () => undefined, error: reject, complete: () => resolve(undefined) }));
  expect(await ask('mutation { createPost(title: "two", user_id: 1) { id } }')).toEqual({ data: { createPost: { id: '2' } } });
  expect(await got).toEqual({ data: { postCreated: { id: '2', title: 'two' } } });
  await client.dispose();
});

it('handlersFor: a subscription handler added with api.use streams over the intercepted socket', async () => {
  api.use(
    graphql.subscription('Countdown', async function* () {
      for (const n of [3, 2, 1]) yield { data: { countdown: n } };
    }),
  );
  try {
    const client = createClient({ url: 'ws://api.test/api/graphql', webSocketImpl: WebSocket, retryAttempts: 0 });
    const got: unknown[] = [];
    await new Promise((resolve, reject) => client.subscribe({ query: 'subscription Countdown { countdown }' }, { next: (v) => got.push(v), error: reject, complete: () => resolve(undefined) }));
    expect(got).toEqual([{ data: { countdown: 3 } }, { data: { countdown: 2 } }, { data: { countdown: 1 } }]);
    await client.dispose();
  } finally {
    api.resetHandlers();
  }
});

it('interceptFetch: the same GraphQL endpoint in-process', async () => {
  server.close();
  const mocked = interceptFetch(api, { baseUrl: 'http://app.test' });
  try {
    const res = await fetch('http://app.test/api/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ allPosts { title } }' }) });
    expect(await res.json()).toEqual({ data: { allPosts: [{ title: 'one' }, { title: 'two' }] } });
  } finally {
    mocked.restore();
  }
});
