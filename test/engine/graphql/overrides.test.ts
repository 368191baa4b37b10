/**
 * GraphQL handlers follow per-test overrides as msw users expect: `api.use(graphql.query(…))` wins
 * over the configured handler, the scenario's and the schema derived from the data (newest
 * first), `api.resetHandlers()` / `api.reset()` drop it; scenarios still apply under it. Through
 * real `fetch` on every host that follows `api.use`: a real node server, `interceptFetch`, and
 * `handlersFor` inside msw's `setupServer`.
 */
import { setupServer } from 'msw/node';
import { afterEach, describe, expect, it } from 'vitest';
import { HttpError } from '../../../src/core/errors.js';
import { createMockApi, type MockApi } from '../../../src/engine/create-mock-api.js';
import { graphql } from '../../../src/engine/handler-api/operation-handlers.js';
import { handlersFor } from '../../../src/msw/index.js';
import { interceptFetch } from '../../../src/test/index.js';
import { memoryFs } from '../../../src/vfs/memory.js';
import { closeServers, startServer } from '../../helpers/server.js';

const apis: MockApi[] = [];
afterEach(async () => {
  await closeServers();
  await Promise.all(apis.splice(0).map((a) => a.close()));
});

function makeApi(): MockApi {
  const api = createMockApi({
    endpointPrefix: '/api',
    preset: 'json-server',
    logLevel: 'silent',
    fs: memoryFs({ 'posts.json': [{ id: 1, title: 'From data' }] }),
    handlers: [graphql.query('Me', () => ({ data: { me: { name: 'configured' } } }))],
    scenarios: { outage: { handlers: [graphql.query('GetPosts', () => ({ errors: [{ message: 'Service unavailable', extensions: { code: 'UNAVAILABLE' } }] }))] } },
  });
  apis.push(api);
  return api;
}

type Ask = (query: string, headers?: Record<string, string>) => Promise<unknown>;
const asker =
  (url: string): Ask =>
  async (query, headers = {}) =>
    (await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ query }) })).json();

/** The same story on any host: `ask` posts a document to the API's GraphQL endpoint. */
async function overrideStory(api: MockApi, ask: Ask) {
  const posts = 'query GetPosts { allPosts { id title } }';
  const me = 'query Me { me { name } }';
  expect(await ask(posts)).toEqual({ data: { allPosts: [{ id: '1', title: 'From data' }] } });
  expect(await ask(me)).toEqual({ data: { me: { name: 'configured' } } });

  // api.use: wins over the data's schema and the configured handler; newest first.
  api.use(graphql.query('GetPosts', () => ({ data: { allPosts: [{ id: '9', title: 'override' }] } })), graphql.query('Me', () => ({ data: { me: { name: 'override' } } })));
  expect(await ask(posts)).toEqual({ data: { allPosts: [{ id: '9', title: 'override' }] } });
  expect(await ask(me)).toEqual({ data: { me: { name: 'override' } } });
  api.use(graphql.query('Me', () => ({ data: { me: { name: 'newest' } } })));
  expect(await ask(me)).toEqual({ data: { me: { name: 'newest' } } });
  // A mutation override with an error in the spec's shape.
  api.use(graphql.mutation('CreatePost', () => {
    throw new HttpError(403, 'Read-only account');
  }));
  expect(await ask('mutation CreatePost { createPost(title: "x") { id } }')).toEqual({ errors: [{ message: 'Read-only account', extensions: { code: 'FORBIDDEN' } }], data: null });
  // Other operations still reach the data.
  expect(await ask('query Count { _allPostsMeta { count } }')).toEqual({ data: { _allPostsMeta: { count: 1 } } });

  // resetHandlers: back to the configured handler and the data.
  api.resetHandlers();
  expect(await ask(posts)).toEqual({ data: { allPosts: [{ id: '1', title: 'From data' }] } });
  expect(await ask(me)).toEqual({ data: { me: { name: 'configured' } } });
  expect(await ask('mutation CreatePost { createPost(title: "x") { id } }')).toEqual({ data: { createPost: { id: '2' } } });

  // Scenarios apply to GraphQL handlers, and an override wins over the scenario's handler.
  api.useScenario('outage');
  expect(await ask(posts)).toEqual({ errors: [{ message: 'Service unavailable', extensions: { code: 'UNAVAILABLE' } }] });
  api.use(graphql.query('GetPosts', () => ({ data: { allPosts: [] } })));
  expect(await ask(posts)).toEqual({ data: { allPosts: [] } });
  // api.reset(): overrides dropped, base scenario, data back to the seed.
  await api.reset();
  expect(await ask(posts)).toEqual({ data: { allPosts: [{ id: '1', title: 'From data' }] } });
}

describe('GraphQL handlers follow api.use / resetHandlers / scenarios', () => {
  it('node server (real fetch over HTTP)', async () => {
    const api = makeApi();
    const server = await startServer({ mock: api });
    await overrideStory(api, asker(`${server.url}/api/graphql`));
  });

  it('interceptFetch', async () => {
    const api = makeApi();
    const mocked = interceptFetch(api, { baseUrl: 'http://app.test' });
    try {
      await overrideStory(api, asker('http://app.test/api/graphql'));
    } finally {
      mocked.restore();
    }
  });

  it("handlersFor inside msw's setupServer", async () => {
    const api = makeApi();
    const server = setupServer(...handlersFor(api, { baseUrl: 'http://api.test' }));
    server.listen({ onUnhandledRequest: 'error' });
    try {
      await overrideStory(api, asker('http://api.test/api/graphql'));
    } finally {
      server.close();
    }
  });

  it('api.use checks REST handlers as before and takes GraphQL handlers as they are', () => {
    const api = makeApi();
    expect(() => api.use({ pattern: '' } as never)).toThrow(/api\.use\[0\]\.pattern/);
    expect(() => api.use(graphql.query('X', () => ({ data: {} })), { pattern: '/a', handle: 3 } as never)).toThrow(/api\.use\[1\]\.handle/);
  });
});
