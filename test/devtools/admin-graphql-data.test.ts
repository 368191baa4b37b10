/**
 * The admin data routes over a schema-first GraphQL API's types, through a real node:http server
 * with an SDL file in the mocks folder: each entity type is listed (`graphql:Post`, labelled as
 * GraphQL's), paged, sorted and filtered on the server with the values a GraphQL query answers;
 * edits, adds, duplicates, deletes, import and reset change the state the schema's own mutations
 * change, so a GraphQL query over HTTP reads them; a value the SDL's field type cannot hold is a
 * 400 naming the field and nothing changes; a stale If-Match is 412. A session's state is its own and starts from the seed.
 */
import { afterEach, expect, it } from 'vitest';
import { memoryFs } from '../../src/vfs/memory.js';
import { closeServers, startServer } from '../helpers/server.js';

afterEach(closeServers);

const A = '/_mockyard/api';
const POST = encodeURIComponent('graphql:Post');
const SDL = `
  enum Status { DRAFT PUBLISHED }
  type User { id: ID!  name: String!  email: String!  posts: [Post!]! }
  type Post { id: ID!  title: String!  views: Int!  status: Status!  tags: [String!]!  author: User! }
  input NewPost { title: String!  views: Int }
  type Query { posts(first: Int): [Post!]!  post(id: ID!): Post  users: [User!]! }
  type Mutation { createPost(input: NewPost!): Post!  updatePost(id: ID!, title: String): Post  deletePost(id: ID!): Boolean! }
`;

async function call(url: string, method = 'GET', body?: unknown, headers: Record<string, string> = {}) {
  const r = await fetch(url, { method, headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await r.text();
  return { status: r.status, headers: r.headers, json: text ? JSON.parse(text) : undefined };
}

function start() {
  return startServer({ mock: { endpointPrefix: '/api', logLevel: 'silent', fs: memoryFs({ 'schema.graphql': SDL }), graphql: { schema: 'schema.graphql' } } });
}

async function gql(url: string, query: string, headers: Record<string, string> = {}) {
  const r = await call(`${url}/api/graphql`, 'POST', { query }, headers);
  expect(r.status).toBe(200);
  expect(r.json.errors).toBeUndefined();
  return r.json.data;
}

it('lists the entity types, pages them with the values GraphQL answers, and edits them as the mutations do', async () => {
  const s = await start();
  const list = await call(`${s.url}${A}/data`);
  expect(list.status).toBe(200);
  expect(list.json.collections).toEqual([
    { name: 'graphql:User', count: 10, backend: 'graphql' },
    { name: 'graphql:Post', count: 10, backend: 'graphql' },
  ]);

  const page = await call(`${s.url}${A}/data/${POST}?offset=2&limit=3`);
  expect(page.json).toMatchObject({ scope: { session: null, backend: 'graphql' }, total: 10, offset: 2, limit: 3, idField: 'id' });
  expect(page.json.items.map((p: any) => p.id)).toEqual(['3', '4', '5']);
  // What a query answers for the same posts (object fields are not columns).
  const queried = await gql(s.url, '{ posts { id title views status tags } }');
  expect(page.json.items).toEqual(queried.posts.slice(2, 5));

  // Sorted and filtered on the server.
  const sorted = await call(`${s.url}${A}/data/${POST}?sort=views&order=desc&limit=10`);
  const views = sorted.json.items.map((p: any) => p.views);
  expect(views).toEqual([...views].sort((a: number, b: number) => b - a));
  const title = queried.posts[6].title as string;
  const filtered = await call(`${s.url}${A}/data/${POST}?q=${encodeURIComponent(title)}`);
  expect(filtered.json.items.map((p: any) => p.id)).toContain('7');

  // An edit of a cell: a GraphQL query reads it; a mutation then sees the same state.
  const one = await call(`${s.url}${A}/data/${POST}/3`);
  expect(one.status).toBe(200);
  const edited = await call(`${s.url}${A}/data/${POST}/3`, 'PATCH', { title: 'Edited', views: 7 }, { 'If-Match': one.headers.get('etag')! });
  expect(edited.status).toBe(200);
  expect(edited.json).toEqual({ ...one.json, title: 'Edited', views: 7 });
  expect((await gql(s.url, '{ post(id: "3") { title views status } }')).post).toEqual({ title: 'Edited', views: 7, status: one.json.status });
  await gql(s.url, 'mutation { updatePost(id: "3", title: "By mutation") { id } }');
  expect((await call(`${s.url}${A}/data/${POST}/3`)).json).toMatchObject({ title: 'By mutation', views: 7 });
  // A stale tag: 412, nothing written.
  expect((await call(`${s.url}${A}/data/${POST}/3`, 'PATCH', { title: 'Lost' }, { 'If-Match': one.headers.get('etag')! })).status).toBe(412);

  // The SDL's field types decide: a wrong type, an unknown field, an object field, a null for a non-null field → 400, nothing changed.
  for (const [changes, message] of [
    [{ views: 'many' }, /Post\.views: Int cannot represent/],
    [{ status: 'GONE' }, /Post\.status: Value "GONE" does not exist in "Status" enum/],
    [{ nope: 1 }, /Post has no field "nope"/],
    [{ author: '1' }, /Post\.author is an object field/],
    [{ title: null }, /Post\.title: Expected non-nullable type "String!" not to be null/],
  ] as const) {
    const bad = await call(`${s.url}${A}/data/${POST}/3`, 'PATCH', changes);
    expect(bad.status, JSON.stringify(changes)).toBe(400);
    expect(bad.json.message).toMatch(message);
  }
  expect((await gql(s.url, '{ post(id: "3") { title views } }')).post).toEqual({ title: 'By mutation', views: 7 });

  // The whole item (PUT), an add (the next id, as createPost gives), a duplicate, a delete.
  const whole = await call(`${s.url}${A}/data/${POST}/3`, 'PUT', { ...edited.json, title: 'Whole', tags: ['a', 'b'] });
  expect(whole.json).toMatchObject({ id: '3', title: 'Whole', tags: ['a', 'b'] });
  const added = await call(`${s.url}${A}/data/${POST}`, 'POST', { title: 'New', views: 1, status: 'DRAFT', tags: [] });
  expect(added.status).toBe(201);
  expect(added.json).toEqual({ id: '11', title: 'New', views: 1, status: 'DRAFT', tags: [] });
  expect((await gql(s.url, 'mutation { createPost(input: { title: "Next" }) { id title } }')).createPost).toEqual({ id: '12', title: 'Next' });
  const copy = await call(`${s.url}${A}/data/${POST}/11/duplicate`, 'POST');
  expect(copy.json).toEqual({ ...added.json, id: '13' });
  expect((await call(`${s.url}${A}/data/${POST}/11`, 'DELETE')).status).toBe(204);
  expect((await gql(s.url, '{ post(id: "11") { id } }')).post).toBeNull();
  expect((await call(`${s.url}${A}/data/${POST}/11`)).status).toBe(404);
  expect((await gql(s.url, '{ posts { id } }')).posts.map((p: any) => p.id)).toEqual(['1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '12', '13']);

  // Export; import replaces the type's entities (checked first: one bad item changes nothing); reset brings the seed back.
  const exported = await call(`${s.url}${A}/data/${POST}?export=true`);
  expect(exported.headers.get('content-disposition')).toMatch(/Post\.json/);
  expect(exported.json).toHaveLength(12);
  expect((await call(`${s.url}${A}/data/${POST}`, 'PUT', [{ id: '1', title: 'One' }, { views: 'x' }])).status).toBe(400);
  expect((await gql(s.url, '{ posts { id } }')).posts).toHaveLength(12);
  const imported = await call(`${s.url}${A}/data/${POST}`, 'PUT', [{ id: '5', title: 'Five' }, { title: 'No id' }]);
  expect(imported.json).toMatchObject({ count: 2 });
  expect((await gql(s.url, '{ posts { id title } }')).posts).toEqual([{ id: '5', title: 'Five' }, { id: '6', title: 'No id' }]);
  const reset = await call(`${s.url}${A}/data/${POST}/reset`, 'POST');
  expect(reset.json).toMatchObject({ count: 10 });
  expect((await gql(s.url, '{ posts { id title views status tags } }')).posts).toEqual(queried.posts);

  // Reset everything (memory filesystem): the schema-first state goes back to its seed too.
  await call(`${s.url}${A}/data/${POST}/4`, 'PATCH', { title: 'Before the reset' });
  await gql(s.url, 'mutation { createPost(input: { title: "Gone after the reset" }) { id } }');
  expect((await call(`${s.url}${A}/reset`, 'POST')).status).toBe(200);
  expect((await gql(s.url, '{ posts { id title views status tags } }')).posts).toEqual(queried.posts);
});

it("a session's state is its own: edited there, seen only by that session's requests", async () => {
  const s = await start();
  const seeded = (await call(`${s.url}${A}/data/${POST}/1`)).json;
  expect((await call(`${s.url}${A}/data/${POST}/1`, 'PATCH', { title: 'Shared only' })).status).toBe(200);
  const inSession = await call(`${s.url}${A}/data?session=s1`);
  expect(inSession.json.scope).toEqual({ session: 's1' });
  expect(inSession.json.collections).toContainEqual({ name: 'graphql:Post', count: 10, backend: 'graphql' });
  const edited = await call(`${s.url}${A}/data/${POST}/2?session=s1`, 'PATCH', { title: 'Only s1' });
  expect(edited.status).toBe(200);
  expect((await call(`${s.url}${A}/data/${POST}?session=s1&limit=2`)).json.scope).toEqual({ session: 's1', backend: 'graphql' });
  expect((await gql(s.url, '{ post(id: "2") { title } }', { 'X-Mockyard-Session': 's1' })).post.title).toBe('Only s1');
  expect((await gql(s.url, '{ post(id: "2") { title } }')).post.title).not.toBe('Only s1');
  expect((await call(`${s.url}${A}/data/${POST}/2`)).json.title).not.toBe('Only s1');
  expect((await call(`${s.url}${A}/data/${encodeURIComponent('graphql:Nope')}`)).status).toBe(404);
  // The session's state started from the seed, not from the shared state.
  expect((await call(`${s.url}${A}/data/${POST}/1?session=s1`)).json).toEqual(seeded);
});
