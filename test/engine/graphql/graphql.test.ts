/**
 * GraphQL over the collections (src/engine/graphql/) on a real server with real clients: fetch
 * POSTs and GETs of GraphQL documents, one store shared with REST, a schema that follows the
 * files, errors with `extensions.code`, and subscriptions with the `graphql-ws` client over a
 * real WebSocket, pushed for REST writes, GraphQL mutations and files edited on disk.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createClient, type Client } from 'graphql-ws';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { MockApi } from '../../../src/engine/create-mock-api.js';
import { createNodeMockApi as createMockApi } from '../../../src/node/engines.js'; // the `mockyard` entry under Node: fsDir on disk
import type { MockApiOptions } from '../../../src/engine/mock-api-options.js';
import { memoryFs } from '../../../src/vfs/memory.js';
import { closeServers, startServer } from '../../helpers/server.js';
import { makeTempDir, removeTempDirs } from '../../helpers/temp-dir.js';

const apis: MockApi[] = [];
const clients: Client[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.dispose();
  await closeServers();
  await Promise.all(apis.splice(0).map((a) => a.close()));
  await removeTempDirs();
});

const data = {
  'posts.json': [
    { id: 1, title: 'Lorem Ipsum', views: 254, userId: 123, published: true },
    { id: 2, title: 'Sic Dolor amet', views: 65, userId: 456, published: false },
  ],
  'users.json': [{ id: 123, name: 'John Doe' }, { id: 456, name: 'Jane Doe' }],
  'comments.json': [
    { id: 987, post_id: 1, body: 'Consectetur adipiscing elit' },
    { id: 995, post_id: 1, body: 'Nam molestie pellentesque dui' },
  ],
};

async function serve(options: Partial<MockApiOptions> = {}) {
  const api = createMockApi({ fs: memoryFs(structuredClone(data) as never), endpointPrefix: '/api', preset: 'json-server', logLevel: 'silent', ...options });
  apis.push(api);
  const server = await startServer({ mock: api });
  return { api, url: server.url, gql: `${server.url}/api/graphql` };
}

async function gql(url: string, query: string, variables?: Record<string, unknown>, headers: Record<string, string> = {}) {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ query, variables }) });
  return { status: res.status, type: res.headers.get('content-type'), body: (await res.json()) as { data?: any; errors?: any } };
}

describe('queries and mutations over HTTP', () => {
  it('is on with the json-server preset at <prefix>/graphql; relations from userId and post_id both ways', async () => {
    const { gql: at } = await serve();
    const r = await gql(at, '{ Post(id: 1) { id title User { name } Comments { body } } User(id: 456) { Posts { id } } }');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      data: {
        Post: { id: '1', title: 'Lorem Ipsum', User: { name: 'John Doe' }, Comments: [{ body: 'Consectetur adipiscing elit' }, { body: 'Nam molestie pellentesque dui' }] },
        User: { Posts: [{ id: '2' }] },
      },
    });
  });

  it('lists with page, perPage, sortField, sortOrder and filters; _allPostsMeta counts', async () => {
    const { gql: at } = await serve();
    const r = await gql(at, '{ a: allPosts(sortField: "views") { id } b: allPosts(page: 1, perPage: 1) { id } c: allPosts(filter: { published: false }) { id } d: allPosts(filter: { views_gt: 100, title_neq: "x" }) { id } _allPostsMeta(filter: { q: "dolor" }) { count } }');
    expect(r.body.data).toEqual({ a: [{ id: '2' }, { id: '1' }], b: [{ id: '2' }], c: [{ id: '2' }], d: [{ id: '1' }], _allPostsMeta: { count: 1 } });
  });

  it('documents that differ only in literals are each checked: a wrong literal is a validation error even after the right one passed', async () => {
    const { gql: at } = await serve();
    expect((await gql(at, '{ allPosts(page: 0, perPage: 1) { id } }')).body).toEqual({ data: { allPosts: [{ id: '1' }] } });
    expect((await gql(at, '{ allPosts(page: 1, perPage: 1) { id } }')).body).toEqual({ data: { allPosts: [{ id: '2' }] } });
    const wrong = await gql(at, '{ allPosts(page: "one", perPage: 1) { id } }');
    expect(wrong.body.errors[0]).toMatchObject({ message: expect.stringContaining('Int cannot represent non-integer value'), extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } });
    const float = await gql(at, '{ allPosts(page: 1.5, perPage: 1) { id } }');
    expect(float.body.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });

  it('GET runs queries; a mutation by GET is 405; other methods 405 with Allow', async () => {
    const { gql: at } = await serve();
    const get = await fetch(`${at}?query=${encodeURIComponent('query Titles { allPosts { title } }')}&operationName=Titles`);
    expect(await get.json()).toEqual({ data: { allPosts: [{ title: 'Lorem Ipsum' }, { title: 'Sic Dolor amet' }] } });
    const mutation = await fetch(`${at}?query=${encodeURIComponent('mutation { removePost(id: 1) { id } }')}`);
    expect(mutation.status).toBe(405);
    const put = await fetch(at, { method: 'PUT', body: '{}' });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, POST');
  });

  it('a request that is not GraphQL is the JSON 400; a document that cannot run answers { errors } with codes', async () => {
    const { gql: at } = await serve();
    const bad = await fetch(at, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query": 3}' });
    expect(bad.status).toBe(400);
    expect((await bad.json()).message).toBe('Missing GraphQL "query"');
    const vars = await fetch(at, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query": "{ allPosts { id } }", "variables": [1]}' });
    expect(vars.status).toBe(400);
    const invalid = await gql(at, '{ Post(id: 1) { nope } }');
    expect(invalid.status).toBe(200);
    expect(invalid.body.errors[0]).toMatchObject({ message: expect.stringContaining('Cannot query field "nope"'), extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } });
    const syntax = await gql(at, '{ Post(id: 1) { ', undefined, { accept: 'application/graphql-response+json' });
    expect(syntax.status).toBe(400);
    expect(syntax.type).toMatch(/^application\/graphql-response\+json/);
    expect(syntax.body.errors[0].extensions.code).toBe('GRAPHQL_PARSE_FAILED');
  });

  it('mutations: create (ids assigned, ID arguments stored as the numbers they were), createMany, update, remove; store errors carry their code', async () => {
    const { gql: at, url } = await serve();
    const created = await gql(at, 'mutation { createPost(title: "New", views: 1, userId: 123, published: true) { id User { name } } }');
    expect(created.body.data.createPost).toEqual({ id: '3', User: { name: 'John Doe' } });
    expect(await (await fetch(`${url}/api/posts/3`)).json()).toEqual({ id: 3, title: 'New', views: 1, userId: 123, published: true });
    const many = await gql(at, 'mutation($d: [UserInput]) { createManyUser(data: $d) { id name } }', { d: [{ name: 'A' }, { name: 'B' }] });
    expect(many.body.data.createManyUser).toEqual([{ id: '457', name: 'A' }, { id: '458', name: 'B' }]);
    const updated = await gql(at, 'mutation { updatePost(id: 3, views: 2) { id title views } }');
    expect(updated.body.data.updatePost).toEqual({ id: '3', title: 'New', views: 2 });
    expect((await gql(at, 'mutation { updatePost(id: 99, views: 2) { id } }')).body.data.updatePost).toBeNull();
    expect((await gql(at, 'mutation { removePost(id: 3) { id } }')).body.data.removePost).toEqual({ id: '3' });
    expect((await fetch(`${url}/api/posts/3`)).status).toBe(404);
  });
});

describe('one store for REST and GraphQL', () => {
  it('a REST write is seen by the next GraphQL query, a GraphQL mutation by the next REST GET', async () => {
    const { gql: at, url } = await serve();
    await fetch(`${url}/api/posts`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ title: 'From REST', views: 0, userId: 456, published: true }) });
    expect((await gql(at, '{ Post(id: 3) { title User { name } } }')).body.data.Post).toEqual({ title: 'From REST', User: { name: 'Jane Doe' } });
    await gql(at, 'mutation { updatePost(id: 3, title: "From GraphQL") { id } }');
    expect(await (await fetch(`${url}/api/posts/3`)).json()).toMatchObject({ id: 3, title: 'From GraphQL' });
    await fetch(`${url}/api/posts/3`, { method: 'DELETE' });
    expect((await gql(at, '{ Post(id: 3) { id } _allPostsMeta { count } }')).body.data).toEqual({ Post: null, _allPostsMeta: { count: 2 } });
  });

  it('a query asked again is never answered from before a write (REST, GraphQL, a file edited on disk)', async () => {
    const dir = await makeTempDir();
    await writeFile(join(dir, 'posts.json'), JSON.stringify([{ id: 1, title: 'one' }]));
    const api = createMockApi({ fsDir: dir, endpointPrefix: '/api', preset: 'json-server', logLevel: 'silent' });
    apis.push(api);
    const server = await startServer({ mock: api });
    const at = `${server.url}/api/graphql`;
    const titles = async () => ((await gql(at, '{ allPosts { title } }')).body.data.allPosts as Array<{ title: string }>).map((p) => p.title);
    expect(await titles()).toEqual(['one']);
    expect(await titles()).toEqual(['one']);
    await fetch(`${server.url}/api/posts/1`, { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: '{"title":"rest"}' });
    expect(await titles()).toEqual(['rest']);
    await gql(at, 'mutation { updatePost(id: 1, title: "graphql") { id } }');
    expect(await titles()).toEqual(['graphql']);
    await writeFile(join(dir, 'posts.json'), JSON.stringify([{ id: 1, title: 'editor' }]));
    let now;
    do now = await titles(); // disk: the edit is seen once the watcher reported it (no timing asserted)
    while (now[0] === 'graphql');
    expect(now).toEqual(['editor']);
  });

  it('concurrent REST POSTs and GraphQL creates share one queue: none lost, ids unique', async () => {
    const { gql: at, url } = await serve();
    await Promise.all([
      ...Array.from({ length: 25 }, (_, i) => fetch(`${url}/api/users`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: `rest ${i}` }) })),
      ...Array.from({ length: 25 }, (_, i) => gql(at, `mutation { createUser(name: "gql ${i}") { id } }`)),
    ]);
    const all = (await (await fetch(`${url}/api/users`)).json()) as Array<{ id: number }>;
    expect(all).toHaveLength(52);
    expect(new Set(all.map((u) => u.id)).size).toBe(52);
  });
});

describe('the schema follows the data', () => {
  it('a new collection file and a new field appear without a restart (folder on disk)', async () => {
    const dir = await makeTempDir();
    await mkdir(join(dir, 'mocks'));
    await writeFile(join(dir, 'mocks', 'posts.json'), JSON.stringify([{ id: 1, title: 'a' }]));
    const api = createMockApi({ root: dir, fsDir: 'mocks', endpointPrefix: '/api', graphql: true, collections: true, logLevel: 'silent' });
    apis.push(api);
    const server = await startServer({ mock: api });
    const at = `${server.url}/api/graphql`;
    expect((await gql(at, '{ allTags { id } }')).body.errors[0].message).toMatch(/Cannot query field "allTags"/);
    await writeFile(join(dir, 'mocks', 'tags.json'), JSON.stringify([{ id: 't1', label: 'news' }]));
    await writeFile(join(dir, 'mocks', 'posts.json'), JSON.stringify([{ id: 1, title: 'a', tag_id: 't1' }]));
    // Disk: a new file is found on the next lookup (at most the lookup TTL later); poll without timing assertions.
    let r;
    do r = await gql(at, '{ allPosts { title Tag { label } } allTags { Posts { id } } }');
    while (r.body.errors);
    expect(r.body.data).toEqual({ allPosts: [{ title: 'a', Tag: { label: 'news' } }], allTags: [{ Posts: [{ id: '1' }] }] });
  });

  it('an empty collection (a file holding [], or its last item deleted) leaves every query answering', async () => {
    const { url, gql: at } = await serve({ fs: memoryFs({ ...structuredClone(data), 'tags.json': [] } as never) });
    expect((await gql(at, '{ allTags { id } _allTagsMeta { count } allUsers { name } }')).body).toEqual({ data: { allTags: [], _allTagsMeta: { count: 0 }, allUsers: [{ name: 'John Doe' }, { name: 'Jane Doe' }] } });
    expect((await gql(at, 'mutation { createTag { id } }')).body).toEqual({ data: { createTag: { id: '1' } } });
    for (const id of [123, 456]) expect((await fetch(`${url}/api/users/${id}`, { method: 'DELETE' })).status).toBe(200);
    const r = await gql(at, '{ allUsers { id } allPosts { id } }');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ data: { allUsers: [], allPosts: [] } }); // the cascade took the posts too
  });

  it('graphql: { path } moves it; graphql: false turns it off; bad options are refused at start-up', async () => {
    const { url } = await serve({ graphql: { path: 'gql' } });
    expect((await gql(`${url}/api/gql`, '{ allUsers { name } }')).body.data.allUsers).toHaveLength(2);
    const query = `?query=${encodeURIComponent('{ allUsers { name } }')}`;
    expect((await fetch(`${url}/api/graphql${query}`)).status).toBe(404);
    const off = await serve({ graphql: false });
    expect((await fetch(`${off.url}/api/graphql${query}`)).status).toBe(404);
    expect(() => createMockApi({ endpointPrefix: '/api', fs: memoryFs(), graphql: { path: '../x' } })).toThrow(/mock\.graphql\.path/);
    expect(() => createMockApi({ endpointPrefix: '/api', fs: memoryFs(), graphql: 'yes' as never })).toThrow(/mock\.graphql/);
  });
});

describe('subscriptions with graphql-ws over a real WebSocket', () => {
  function client(url: string): Client {
    const c = createClient({ url: url.replace(/^http/, 'ws'), webSocketImpl: WebSocket, retryAttempts: 0, lazy: true });
    clients.push(c);
    return c;
  }

  /** Subscribes and resolves once the server holds the subscription (acknowledged by a first query). */
  function subscribe(c: Client, query: string): { next(): Promise<any>; stop(): void } {
    const queued: any[] = [];
    const waiting: Array<(v: any) => void> = [];
    const stop = c.subscribe({ query }, {
      next: (v) => (waiting.length > 0 ? waiting.shift()!(v) : queued.push(v)),
      error: (e) => waiting.shift()?.({ error: e }),
      complete: () => undefined,
    });
    return { next: () => (queued.length > 0 ? Promise.resolve(queued.shift()) : new Promise((r) => waiting.push(r))), stop };
  }

  /** The server has set up every subscription sent before: a query on the same socket answers after them. */
  async function settled(c: Client): Promise<void> {
    await new Promise<void>((resolve, reject) => c.subscribe({ query: '{ _allPostsMeta { count } }' }, { next: () => undefined, error: reject, complete: resolve }));
  }

  it('postCreated / postUpdated / postRemoved for REST writes, GraphQL mutations and a file edited on disk', async () => {
    const dir = await makeTempDir();
    await writeFile(join(dir, 'posts.json'), JSON.stringify([{ id: 1, title: 'one', views: 1 }]));
    const api = createMockApi({ fsDir: dir, endpointPrefix: '/api', preset: 'json-server', logLevel: 'silent' });
    apis.push(api);
    const server = await startServer({ mock: api });
    const c = client(`${server.url}/api/graphql`);
    const created = subscribe(c, 'subscription { postCreated { id title } }');
    const updated = subscribe(c, 'subscription { postUpdated { id title } }');
    const removed = subscribe(c, 'subscription { postRemoved { id } }');
    await settled(c);

    await fetch(`${server.url}/api/posts`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ title: 'by REST', views: 0 }) });
    expect(await created.next()).toEqual({ data: { postCreated: { id: '2', title: 'by REST' } } });

    await gql(`${server.url}/api/graphql`, 'mutation { updatePost(id: 2, title: "by GraphQL") { id } }');
    expect(await updated.next()).toEqual({ data: { postUpdated: { id: '2', title: 'by GraphQL' } } });

    // Behind the server's back: an editor rewrites the file.
    await writeFile(join(dir, 'posts.json'), JSON.stringify([{ id: 2, title: 'by GraphQL', views: 0 }, { id: 7, title: 'by an editor', views: 0 }]));
    expect(await created.next()).toEqual({ data: { postCreated: { id: '7', title: 'by an editor' } } });
    expect(await removed.next()).toEqual({ data: { postRemoved: { id: '1' } } });

    // A completed subscription hears nothing more; the others keep going.
    created.stop();
    await fetch(`${server.url}/api/posts/7`, { method: 'DELETE' });
    expect(await removed.next()).toEqual({ data: { postRemoved: { id: '7' } } });
  });

  it('queries and mutations run over the socket too; a document that cannot run is an error message', async () => {
    const { url } = await serve();
    const c = client(`${url}/api/graphql`);
    const result = await new Promise((resolve, reject) => {
      let got: unknown;
      c.subscribe({ query: 'mutation { createUser(name: "ws") { id name } }' }, { next: (v) => (got = v), error: reject, complete: () => resolve(got) });
    });
    expect(result).toEqual({ data: { createUser: { id: '457', name: 'ws' } } });
    const error = await new Promise((resolve) => c.subscribe({ query: '{ nope }' }, { next: () => undefined, error: resolve, complete: () => resolve('completed') }));
    expect((error as Array<{ extensions: { code: string } }>)[0]!.extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });

  it('speaks the protocol: ack, pong, 4401 before init, 4400 on garbage', async () => {
    const { url } = await serve();
    const ws = `${url.replace(/^http/, 'ws')}/api/graphql`;
    const open = (protocol = 'graphql-transport-ws') => new Promise<WebSocket>((resolve, reject) => {
      const s = new WebSocket(ws, protocol);
      s.once('open', () => resolve(s));
      s.once('error', reject);
    });
    const nextMessage = (s: WebSocket) => new Promise<any>((resolve) => s.once('message', (d) => resolve(JSON.parse(String(d)))));
    const closed = (s: WebSocket) => new Promise<number>((resolve) => s.once('close', (code) => resolve(code)));
    const a = await open();
    expect(a.protocol).toBe('graphql-transport-ws');
    a.send(JSON.stringify({ type: 'connection_init' }));
    expect(await nextMessage(a)).toEqual({ type: 'connection_ack' });
    a.send(JSON.stringify({ type: 'ping' }));
    expect(await nextMessage(a)).toEqual({ type: 'pong' });
    const aClosed = closed(a);
    a.send(JSON.stringify({ type: 'connection_init' }));
    expect(await aClosed).toBe(4429);
    const b = await open();
    const bClosed = closed(b);
    b.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query: '{ allPosts { id } }' } }));
    expect(await bClosed).toBe(4401);
    const c = await open();
    const cClosed = closed(c);
    c.send('not json');
    expect(await cClosed).toBe(4400);
  });
});
