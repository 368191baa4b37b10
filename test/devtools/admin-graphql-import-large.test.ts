/**
 * A large import into a schema-first GraphQL type (`PUT data/graphql%3APost`, what an export of a
 * big state gives back): 200,000 items are stored, in one linear pass, and a GraphQL query over
 * HTTP reads them. Before, the next id was worked out by spreading every numeric id into
 * Math.max (a RangeError past about 120,000: a 500), and each item was appended after a search of
 * the whole list (100,000 items held the server's event loop for about 12 s). A real server on
 * 127.0.0.1, real fetch.
 */
import { afterEach, expect, it } from 'vitest';
import { memoryFs } from '../../src/vfs/memory.js';
import { closeServers, startServer } from '../helpers/server.js';

afterEach(closeServers);

const A = '/_mockyard/api';
const POST = encodeURIComponent('graphql:Post');
const SDL = 'type Post { id: ID!  title: String! }  type Query { post(id: ID!): Post  posts: [Post!]! }  type Mutation { createPost(title: String!): Post! }';

it('imports 200,000 items into a GraphQL type; the next create continues after them', async () => {
  const s = await startServer({ mock: { endpointPrefix: '/api', logLevel: 'silent', fs: memoryFs({ 'schema.graphql': SDL }), graphql: { schema: 'schema.graphql' } } });
  const items = Array.from({ length: 200_000 }, (_, i) => ({ id: String(i + 1), title: `t${i + 1}` }));
  items.push({ title: 'no id' } as { id: string; title: string });
  const started = Date.now();
  const res = await fetch(`${s.url}${A}/data/${POST}`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(items) });
  const body = await res.json();
  expect(res.status, JSON.stringify(body)).toBe(200);
  expect(body.count).toBe(200_001);
  expect(Date.now() - started).toBeLessThan(10_000);
  const page = await (await fetch(`${s.url}${A}/data/${POST}?offset=199999&limit=5`)).json();
  expect(page.items).toEqual([{ id: '200000', title: 't200000' }, { id: '200001', title: 'no id' }]);
  const q = await fetch(`${s.url}/api/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: 'mutation { createPost(title: "after") { id title } }' }) });
  expect((await q.json()).data.createPost).toEqual({ id: '200002', title: 'after' });
}, 60_000);
