/**
 * Schema-first GraphQL (`graphql: { schema }`, src/engine/graphql/schema-first.ts) on a real
 * server: an SDL file of the mocks folder answers with realistic values stable per id, entities
 * shared between lists, single lookups and relations, mutations that change the state, and a
 * schema file edited while the server runs.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createMockApi, type MockApi } from '../../../src/engine/create-mock-api.js';
import { graphql } from '../../../src/engine/handler-api/operation-handlers.js';
import type { MockApiOptions } from '../../../src/engine/mock-api-options.js';
import { memoryFs } from '../../../src/vfs/memory.js';
import { closeServers, startServer } from '../../helpers/server.js';

const SDL = `
  enum Role { ADMIN EDITOR READER }
  type User { id: ID!  name: String!  email: String!  age: Int  role: Role!  posts: [Post!]!  address: Address }
  type Address { city: String  country: String }
  type Post { id: ID!  title: String!  body: String  price: Float  published: Boolean!  createdAt: String  author: User! }
  input NewUser { name: String!  email: String  role: Role }
  input UserChanges { name: String  age: Int }
  type DeletePayload { user: User }
  type Query { users(first: Int, offset: Int): [User!]!  user(id: ID!): User  posts: [Post!]!  version: String }
  type Mutation {
    createUser(input: NewUser!): User!
    updateUser(id: ID!, changes: UserChanges!): User
    deleteUser(id: ID!): Boolean!
    removeUser(id: ID!): DeletePayload
  }
`;

const apis: MockApi[] = [];
afterEach(async () => {
  await closeServers();
  await Promise.all(apis.splice(0).map((a) => a.close()));
});

async function serve(options: Partial<MockApiOptions> = {}, files: Record<string, unknown> = { 'schema.graphql': SDL }) {
  const fs = memoryFs(files as never);
  const api = createMockApi({ fs, endpointPrefix: '/api', graphql: { schema: 'schema.graphql' }, logLevel: 'silent', ...options });
  apis.push(api);
  const server = await startServer({ mock: api });
  const at = `${server.url}/api/graphql`;
  const ask = async (query: string, variables?: Record<string, unknown>) =>
    (await (await fetch(at, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query, variables }) })).json()) as { data?: any; errors?: any };
  return { ask, fs };
}

describe('schema-first', () => {
  it('answers with realistic values, stable per id, the same entities in lists, lookups and relations', async () => {
    const { ask } = await serve();
    const a = await ask('{ users { id name email age role address { city } } }');
    expect(a.errors).toBeUndefined();
    expect(a.data.users).toHaveLength(10);
    expect(a.data.users.map((u: { id: string }) => u.id)).toEqual(['1', '2', '3', '4', '5', '6', '7', '8', '9', '10']);
    for (const u of a.data.users) {
      expect(u.email).toMatch(/^[^@\s]+@[^@\s]+\.[a-z]+$/);
      expect(u.name).toMatch(/^[A-Z][A-Za-z' -]+$/);
      expect(['ADMIN', 'EDITOR', 'READER']).toContain(u.role);
      expect(u.age).toBeGreaterThanOrEqual(18);
    }
    // Asked again, and by id: the same values.
    expect((await ask('{ users { id name email age role address { city } } }')).data).toEqual(a.data);
    const three = await ask('{ user(id: "3") { name email } }');
    expect(three.data.user).toEqual({ name: a.data.users[2].name, email: a.data.users[2].email });
    // A relation points to an entity of the list.
    const posts = await ask('{ posts { id title published author { id name } } }');
    for (const p of posts.data.posts) expect(a.data.users).toContainEqual(expect.objectContaining({ id: p.author.id, name: p.author.name }));
    // Another engine on the same SDL: the same data (seeded, not random).
    const other = await serve();
    expect((await other.ask('{ users { id name email age role address { city } } }')).data).toEqual(a.data);
    expect((await ask('{ users(first: 2, offset: 1) { id } }')).data.users).toEqual([{ id: '2' }, { id: '3' }]);
  });

  it('mutations change the state: create, update, delete (answers as the return type says)', async () => {
    const { ask } = await serve();
    const created = await ask('mutation($u: NewUser!) { createUser(input: $u) { id name email role } }', { u: { name: 'Ada Lovelace', role: 'ADMIN' } });
    expect(created.data.createUser).toMatchObject({ id: '11', name: 'Ada Lovelace', role: 'ADMIN' });
    expect(created.data.createUser.email).toMatch(/^[^@\s]+@[^@\s]+$/);
    expect((await ask('{ users { id } }')).data.users).toHaveLength(11);
    expect((await ask('{ user(id: "11") { name } }')).data.user).toEqual({ name: 'Ada Lovelace' });
    expect((await ask('mutation { updateUser(id: "11", changes: { age: 36 }) { name age } }')).data.updateUser).toEqual({ name: 'Ada Lovelace', age: 36 });
    expect((await ask('mutation { deleteUser(id: "11") }')).data.deleteUser).toBe(true);
    expect((await ask('{ user(id: "11") { name } }')).data.user).toBeNull();
    expect((await ask('mutation { deleteUser(id: "11") }')).data.deleteUser).toBe(false);
    const removed = await ask('mutation { removeUser(id: "2") { user { id } } }');
    expect(removed.data.removeUser).toEqual({ user: { id: '2' } });
    expect((await ask('{ users { id } }')).data.users.map((u: { id: string }) => u.id)).not.toContain('2');
  });

  it('follows the SDL file while running, keeps the state; a broken file is a 500 naming it; handlers still win', async () => {
    const { ask, fs } = await serve({ handlers: [graphql.query('Version', () => ({ data: { version: 'from a handler' } }))] });
    await ask('mutation { createUser(input: { name: "Kept" }) { id } }');
    await fs.write('schema.graphql', SDL.replace('age: Int', 'age: Int  nickname: String'));
    const r = await ask('{ user(id: "11") { name nickname } }');
    expect(r.data.user.name).toBe('Kept');
    expect(typeof r.data.user.nickname).toBe('string');
    expect((await ask('query Version { version }')).data).toEqual({ version: 'from a handler' });
    await fs.write('schema.graphql', 'type Query {');
    const broken = await ask('{ users { id } }');
    expect(broken).toMatchObject({ status: 500, message: expect.stringContaining('schema.graphql is not a valid GraphQL schema') });
  });

  it('SDL text can be given inline; the option is validated', async () => {
    const api = createMockApi({ fs: memoryFs(), endpointPrefix: '/api', graphql: { schema: 'type Query { hello: String! }' }, logLevel: 'silent' });
    apis.push(api);
    const server = await startServer({ mock: api });
    const r = await fetch(`${server.url}/api/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query":"{ hello }"}' });
    expect(typeof ((await r.json()) as { data: { hello: string } }).data.hello).toBe('string');
    expect(() => createMockApi({ fs: memoryFs(), endpointPrefix: '/api', graphql: { schema: '' } })).toThrow(/mock\.graphql\.schema/);
  });
});
