/**
 * A json-server user's routes.json (`"/api/*": "/$1"`) in front of `mockyard db.json` (the built
 * command, a real process): the app's GraphQL client sends its queries over HTTP and its
 * subscriptions over a WebSocket to the same URL, `/api/graphql`. The rewrite must reach both:
 * before, the query was answered and the socket's handshake got a 404. And the devtools journal
 * and the request log name what the client sent (before: the rewritten path, so a request the
 * user sent could not be found by its URL).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createClient } from 'graphql-ws';
import { afterEach, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startCli, stopCliProcesses } from '../helpers/cli-process.js';

const cli = fileURLToPath(new URL('../../dist/node/cli.js', import.meta.url));
const dirs: string[] = [];
afterEach(async () => {
  await stopCliProcesses();
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

it('routes.json rewrites a WebSocket upgrade as it rewrites a request: subscriptions at /api/graphql', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'mockyard-routes-ws-'));
  dirs.push(dir);
  await writeFile(join(dir, 'db.json'), JSON.stringify({ posts: [{ id: 1, title: 'one' }] }));
  await writeFile(join(dir, 'routes.json'), JSON.stringify({ '/api/*': '/$1' }));
  const { url } = await startCli(cli, ['--watch', 'db.json', '--routes', 'routes.json', '--port', '0'], dir);

  const query = await fetch(`${url}/api/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ allPosts { title } }' }) });
  expect(await query.json()).toEqual({ data: { allPosts: [{ title: 'one' }] } });

  const client = createClient({ url: `${url.replace(/^http/, 'ws')}/api/graphql`, webSocketImpl: WebSocket, retryAttempts: 0 });
  try {
    const created = new Promise((resolve, reject) => client.subscribe({ query: 'subscription { postCreated { title } }' }, { next: resolve, error: reject, complete: () => undefined }));
    await new Promise((resolve, reject) => client.subscribe({ query: '{ _allPostsMeta { count } }' }, { next: () => undefined, error: reject, complete: () => resolve(undefined) }));
    expect((await fetch(`${url}/api/posts`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"title":"two"}' })).status).toBe(201);
    expect(await created).toEqual({ data: { postCreated: { title: 'two' } } });
  } finally {
    await client.dispose();
  }
  // The unrewritten URL keeps working.
  const direct = createClient({ url: `${url.replace(/^http/, 'ws')}/graphql`, webSocketImpl: WebSocket, retryAttempts: 0 });
  try {
    const meta = await new Promise((resolve, reject) => direct.subscribe({ query: '{ _allPostsMeta { count } }' }, { next: resolve, error: reject, complete: () => undefined }));
    expect(meta).toEqual({ data: { _allPostsMeta: { count: 2 } } });
  } finally {
    await direct.dispose();
  }
});

it('the journal and the request log name the URL as the client sent it, not what routes.json made of it', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'mockyard-routes-journal-'));
  dirs.push(dir);
  await writeFile(join(dir, 'db.json'), JSON.stringify({ posts: [{ id: 1, title: 'one' }] }));
  await writeFile(join(dir, 'routes.json'), JSON.stringify({ '/api/*': '/$1' }));
  const app = await startCli(cli, ['db.json', '--routes', 'routes.json', '--port', '0'], dir);
  expect(await (await fetch(`${app.url}/api/posts/1?v=2`)).json()).toEqual({ id: 1, title: 'one' });
  const { entries } = (await (await fetch(`${app.url}/_mockyard/api/requests?limit=1`)).json()) as { entries: Array<{ url: string; answeredBy: unknown }> };
  expect(entries[0]).toMatchObject({ url: '/api/posts/1?v=2', answeredBy: { layer: 'collections', detail: 'posts.json#1' } });
  await app.printed(/GET\s+\/api\/posts\/1\?v=2\s+200/);
});
