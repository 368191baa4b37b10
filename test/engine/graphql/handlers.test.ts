/**
 * GraphQL handlers (`graphql.query` / `graphql.mutation`, msw's shape) on a real server: they win
 * over the schema derived from the data by operation name, answer operations the data has no
 * type for, report errors in the spec's shape with `extensions.code`, and follow scenarios.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { HttpError } from '../../../src/core/errors.js';
import { createMockApi, type MockApi } from '../../../src/engine/create-mock-api.js';
import { graphql } from '../../../src/engine/handler-api/operation-handlers.js';
import type { MockApiOptions } from '../../../src/engine/mock-api-options.js';
import { journalFor } from '../../../src/host/journal.js';
import { memoryFs } from '../../../src/vfs/memory.js';
import { closeServers, startServer } from '../../helpers/server.js';

const apis: MockApi[] = [];
afterEach(async () => {
  await closeServers();
  await Promise.all(apis.splice(0).map((a) => a.close()));
});

async function serve(options: Partial<MockApiOptions>) {
  const api = createMockApi({ fs: memoryFs({ 'posts.json': [{ id: 1, title: 'From data' }] } as never), endpointPrefix: '/api', graphql: true, collections: true, logLevel: 'silent', ...options });
  apis.push(api);
  const server = await startServer({ mock: api });
  return `${server.url}/api/graphql`;
}

async function ask(url: string, body: Record<string, unknown>, headers: Record<string, string> = {}) {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
}

describe('graphql.query / graphql.mutation', () => {
  it('answer by operation name, winning over the derived schema; other operations still get the data', async () => {
    const url = await serve({
      handlers: [
        graphql.query('GetPosts', () => ({ data: { allPosts: [{ id: '42', title: 'From a handler' }] } })),
        graphql.query('Me', async ({ variables, app }) => ({ data: { me: { name: variables.name, posts: (await app.store.list('posts')).total } } })),
      ],
    });
    expect((await ask(url, { query: 'query GetPosts { allPosts { id title } }' })).body).toEqual({ data: { allPosts: [{ id: '42', title: 'From a handler' }] } });
    expect((await ask(url, { query: 'query Others { allPosts { id title } }' })).body).toEqual({ data: { allPosts: [{ id: '1', title: 'From data' }] } });
    // A type the data has none of: the handler answers without schema validation.
    expect((await ask(url, { query: 'query Me($name: String) { me { name posts } }', variables: { name: 'Ada' } })).body).toEqual({ data: { me: { name: 'Ada', posts: 1 } } });
  });

  it('errors in the spec\'s shape with extensions.code: a thrown HttpError, a thrown Error, errors answered', async () => {
    const url = await serve({
      handlers: [
        graphql.mutation('Login', () => {
          throw new HttpError(401, 'Wrong password');
        }),
        graphql.query('Broken', () => {
          throw new Error('boom');
        }),
        graphql.query('Partial', () => ({ data: { a: 1, b: null }, errors: [{ message: 'b failed', path: ['b'], extensions: { code: 'FORBIDDEN' } }] })),
        graphql.query('Nothing', () => 3 as never),
      ],
    });
    expect((await ask(url, { query: 'mutation Login { login }' })).body).toEqual({ errors: [{ message: 'Wrong password', extensions: { code: 'UNAUTHORIZED' } }], data: null });
    expect((await ask(url, { query: 'query Broken { x }' })).body).toEqual({ errors: [{ message: 'boom', extensions: { code: 'INTERNAL_SERVER_ERROR' } }], data: null });
    expect((await ask(url, { query: 'query Partial { a b }' })).body).toEqual({ data: { a: 1, b: null }, errors: [{ message: 'b failed', path: ['b'], extensions: { code: 'FORBIDDEN' } }] });
    expect((await ask(url, { query: 'query Nothing { x }' })).body.errors[0].extensions.code).toBe('INTERNAL_SERVER_ERROR');
  });

  it('a mutation handler is not a query handler; a Response from a resolver is the answer; RegExp names; operationName picks among several', async () => {
    const url = await serve({
      handlers: [
        graphql.mutation('GetPosts', () => ({ data: { wrong: true } })),
        graphql.query(/^Slow/, () => new Response('{"message":"down"}', { status: 503, headers: { 'content-type': 'application/json' } })),
      ],
    });
    expect((await ask(url, { query: 'query GetPosts { allPosts { id } }' })).body).toEqual({ data: { allPosts: [{ id: '1' }] } });
    const slow = await ask(url, { query: 'query SlowOne { allPosts { id } } query Other { allPosts { id } }', operationName: 'SlowOne' });
    expect(slow).toEqual({ status: 503, body: { message: 'down' } });
    expect((await ask(url, { query: 'query SlowOne { allPosts { id } } query Other { allPosts { id } }', operationName: 'Other' })).body).toEqual({ data: { allPosts: [{ id: '1' }] } });
  });

  it('scenarios apply: a scenario\'s GraphQL handler answers for requests that pick it', async () => {
    const url = await serve({
      handlers: [graphql.query('GetPosts', () => ({ data: { allPosts: [] } }))],
      scenarios: { outage: { handlers: [graphql.query('GetPosts', () => ({ errors: [{ message: 'Service unavailable', extensions: { code: 'UNAVAILABLE' } }] }))] } },
    });
    expect((await ask(url, { query: 'query GetPosts { allPosts { id } }' })).body).toEqual({ data: { allPosts: [] } });
    expect((await ask(url, { query: 'query GetPosts { allPosts { id } }' }, { 'x-mockyard-scenario': 'outage' })).body).toEqual({ errors: [{ message: 'Service unavailable', extensions: { code: 'UNAVAILABLE' } }] });
  });
});

describe('the devtools journal', () => {
  it('names each GraphQL request by its operation', async () => {
    const api = createMockApi({ fs: memoryFs({ 'posts.json': [{ id: 1, title: 'a' }] } as never), endpointPrefix: '/api', graphql: true, collections: true, logLevel: 'silent' });
    apis.push(api);
    const server = await startServer({ mock: api });
    const url = `${server.url}/api/graphql`;
    await ask(url, { query: 'query GetPosts { allPosts { id } }' });
    await ask(url, { query: 'mutation { createPost(title: "b") { id } }' });
    await fetch(`${url}?query=${encodeURIComponent('{ Post(id: 1) { id } }')}`);
    // The journal the host attached to this engine (src/host/journal.ts).
    const seen = journalFor(api)!.list().map((e) => e.answeredBy);
    expect(seen).toEqual([{ layer: 'graphql', detail: 'query { Post }' }, { layer: 'graphql', detail: 'mutation { createPost }' }, { layer: 'graphql', detail: 'query GetPosts' }]);
  });
});
