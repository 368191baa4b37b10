/**
 * Documents that differ only in number and string literals share one prepared template
 * (src/engine/graphql/literal-template.ts): every answer — data, validation errors for literals
 * of the wrong kind or range, execution errors with their locations — is the one the document
 * gets when it is the first of its shape (parsed and validated itself), byte for byte, over a
 * real server.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { MockApi } from '../../../src/engine/create-mock-api.js';
import { createNodeMockApi as createMockApi } from '../../../src/node/engines.js';
import { memoryFs } from '../../../src/vfs/memory.js';
import { closeServers, startServer } from '../../helpers/server.js';

const apis: MockApi[] = [];
afterEach(async () => {
  await closeServers();
  await Promise.all(apis.splice(0).map((a) => a.close()));
});

const data = {
  'posts.json': Array.from({ length: 30 }, (_, i) => ({ id: i + 1, title: `Post ${i + 1}`, views: (i * 37) % 100, rating: i / 4, userId: (i % 3) + 1, ...(i === 7 ? {} : { tag: `t${i % 4}` }) })),
  'users.json': [{ id: 1, name: 'Ada' }, { id: 2, name: 'Alan' }, { id: 3, name: 'Grace' }],
};

async function serve() {
  const api = createMockApi({ fs: memoryFs(structuredClone(data) as never), endpointPrefix: '/api', preset: 'json-server', logLevel: 'silent' });
  apis.push(api);
  const server = await startServer({ mock: api });
  return `${server.url}/api/graphql`;
}

async function ask(url: string, query: string, variables?: Record<string, unknown>) {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query, variables }) });
  return `${res.status} ${await res.text()}`;
}

// Each group: documents of one shape; the first primes the template on the warm server.
const groups: string[][] = [
  [
    '{ allPosts(perPage: 5, page: 1, filter: { views_gte: 10 }) { id title views User { id name } } }',
    '{ allPosts(perPage: 5, page: 2, filter: { views_gte: 50 }) { id title views User { id name } } }',
    '{ allPosts(perPage: 3, page: 0, filter: { views_gte: -4 }) { id title views User { id name } } }',
    '{ allPosts(perPage: "5", page: 1, filter: { views_gte: 10 }) { id title views User { id name } } }',
    '{ allPosts(perPage: 5.5, page: 1, filter: { views_gte: 10 }) { id title views User { id name } } }',
    '{ allPosts(perPage: 3000000000, page: 1, filter: { views_gte: 10 }) { id title views User { id name } } }',
    '{  allPosts(perPage:5,page:3,filter:{views_gte:1}){id title views User{id name}}}',
  ],
  [
    '{ Post(id: 3) { id title } }',
    '{ Post(id: "4") { id title } }',
    '{ Post(id: 12345678901234567890) { id title } }',
    '{ Post(id: 9.5) { id title } }',
    '{ Post(id: """7""") { id title } }',
  ],
  [
    '{ allPosts(filter: { title: "Post 3" }) { id } }',
    '{ allPosts(filter: { title: "Post \\u0034" }) { id } }',
    '{ allPosts(filter: { title: 4 }) { id } }',
    '{ allPosts(filter: { rating_gte: 2 }) { id rating } }',
  ],
  [
    '{ allPosts(filter: { rating_gte: 1.5 }) { id rating } }',
    '{ allPosts(filter: { rating_gte: 2 }) { id rating } }',
    '{ allPosts(filter: { rating_gte: 1e400 }) { id rating } }',
    '{ allPosts(filter: { rating_gte: "x" }) { id rating } }',
  ],
  [
    // A required field missing on one item: an execution error with locations.
    'query Q { allPosts(perPage: 10, page: 0) { id tag } }',
    'query Q { allPosts(perPage: 10,   page: 0) {\n id\n tag } }',
    'query Q { allPosts(perPage: 4, page: 1) { id tag } }',
  ],
  [
    'query V($p: Int) { allPosts(perPage: 2, page: $p) { id } }',
    'query V($p: Int) { allPosts(perPage: 3, page: $p) { id } }',
  ],
  [
    'query D($p: Int = 1) { allPosts(perPage: 2, page: $p) { id } }',
    'query D($p: Int = 2) { allPosts(perPage: 2, page: $p) { id } }',
  ],
];

describe('GraphQL documents of one shape', () => {
  it('answer as when each is prepared on its own', async () => {
    const warm = await serve();
    for (const group of groups) {
      for (const [i, query] of group.entries()) {
        const variables = query.startsWith('query V') ? { p: 1 } : undefined;
        const got = await ask(warm, query, variables);
        const cold = await serve();
        expect(got, `${query} (#${i} of its shape)`).toBe(await ask(cold, query, variables));
      }
    }
  });
});
