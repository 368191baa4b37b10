/**
 * `--read-only` (json-server's flag, `readOnly`) and GraphQL: a query does not write, so GraphQL
 * queries sent by POST are answered; mutations are refused with json-server's read-only status
 * (403) and a GraphQL `errors` entry (`extensions.code: FORBIDDEN`), over HTTP and over the
 * graphql-ws socket, also when a GraphQL handler would answer them; the data is unchanged and
 * REST writes are refused as before. Through `mockyard db.json --read-only` (the CLI) and a
 * real WebSocket client.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createClient, type Client } from 'graphql-ws';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createMockApi, type MockApi } from '../../../src/engine/create-mock-api.js';
import { graphql } from '../../../src/engine/handler-api/operation-handlers.js';
import { memoryFs } from '../../../src/vfs/memory.js';
import { runCli, stopClis } from '../../helpers/cli-run.js';
import { closeServers, startServer } from '../../helpers/server.js';
import { makeTempDir, removeTempDirs } from '../../helpers/temp-dir.js';

const clients: Client[] = [];
const apis: MockApi[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.dispose()));
  await stopClis();
  await closeServers();
  await Promise.all(apis.splice(0).map((a) => a.close()));
  await removeTempDirs();
});

const FORBIDDEN = { errors: [{ message: 'Mutations are not allowed: the mock API is read-only', extensions: { code: 'FORBIDDEN' } }], data: null };

const post = (url: string, query: string) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) });

function collect(url: string, query: string): Promise<unknown[]> {
  const c = createClient({ url: url.replace(/^http/, 'ws'), webSocketImpl: WebSocket, retryAttempts: 0, lazy: true });
  clients.push(c);
  const got: unknown[] = [];
  return new Promise((resolve, reject) => c.subscribe({ query }, { next: (v) => got.push(v), error: reject, complete: () => resolve(got) }));
}

describe('GraphQL under --read-only', () => {
  it('mockyard db.json --read-only: POSTed queries answered, mutations 403 with errors (HTTP and socket), data unchanged', async () => {
    const dir = await makeTempDir();
    await writeFile(join(dir, 'db.json'), JSON.stringify({ posts: [{ id: 1, title: 'Hello', user_id: 1 }], users: [{ id: 1, name: 'Ada' }] }));
    const r = await runCli(['db.json', '--read-only', '--port', '0'], dir);
    const base = /listening on (http:\/\/[\d.]+:\d+)/.exec(r.out)![1]!;
    const gql = `${base}/graphql`;

    const query = await post(gql, 'query Titles { allPosts { title User { name } } }');
    expect(query.status).toBe(200);
    expect(await query.json()).toEqual({ data: { allPosts: [{ title: 'Hello', User: { name: 'Ada' } }] } });
    // Anonymous shorthand query and GET keep working too.
    expect(await (await post(gql, '{ _allPostsMeta { count } }')).json()).toEqual({ data: { _allPostsMeta: { count: 1 } } });
    expect((await fetch(`${gql}?query=${encodeURIComponent('{ Post(id: 1) { title } }')}`)).status).toBe(200);

    const mutation = await post(gql, 'mutation { createPost(title: "x", user_id: 1) { id } }');
    expect(mutation.status).toBe(403);
    expect(await mutation.json()).toEqual(FORBIDDEN);
    expect(await collect(gql, 'mutation Add { createPost(title: "y", user_id: 1) { id } }')).toEqual([FORBIDDEN]);
    expect(await collect(gql, '{ _allPostsMeta { count } }')).toEqual([{ data: { _allPostsMeta: { count: 1 } } }]);

    // Nothing was written; REST writes are refused as json-server refuses them.
    expect(await (await fetch(`${base}/posts`)).json()).toEqual([{ id: 1, title: 'Hello', user_id: 1 }]);
    const rest = await fetch(`${base}/posts`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"title":"z"}' });
    expect(rest.status).toBe(403);
  });

  it('readOnly also refuses a mutation a GraphQL handler would answer; query handlers still answer', async () => {
    const api = createMockApi({
      endpointPrefix: '/api',
      preset: 'json-server',
      readOnly: true,
      logLevel: 'silent',
      fs: memoryFs({ 'posts.json': [{ id: 1, title: 'Hello' }] }),
      handlers: [graphql.mutation('Login', () => ({ data: { login: 'token' } })), graphql.query('Me', () => ({ data: { me: 'Ada' } }))],
    });
    apis.push(api);
    const server = await startServer({ mock: api });
    const gql = `${server.url}/api/graphql`;
    const login = await post(gql, 'mutation Login { login }');
    expect(login.status).toBe(403);
    expect(await login.json()).toEqual(FORBIDDEN);
    expect(await (await post(gql, 'query Me { me }')).json()).toEqual({ data: { me: 'Ada' } });
    // Only the GraphQL endpoint takes POSTs: any other POST is still the REST 403.
    expect((await fetch(`${server.url}/api/posts`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).status).toBe(403);
  });
});
