/**
 * GraphQL subscriptions of a session (the built `mockyard db.json`, a real process, the graphql-ws
 * client over real WebSockets): a socket opened with the session (its header, or the cookie the
 * Playwright fixture and the devtools' "Use in this browser" set) hears that session's writes and
 * not the shared data's, as its queries read that session's data; a socket without a session
 * hears the shared data's. Before, every socket listened to the shared data: a test's own write
 * (`mockyard.data('todos').update(…)`) never reached its page's subscription.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createClient, type Client } from 'graphql-ws';
import { afterEach, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startCli, stopCliProcesses } from '../../helpers/cli-process.js';

const cli = fileURLToPath(new URL('../../../dist/node/cli.js', import.meta.url));
const dirs: string[] = [];
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.dispose()));
  await stopCliProcesses();
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

/** A graphql-ws client whose handshake carries `headers`; resolves once its subscription is live. */
async function subscriber(url: string, headers: Record<string, string>, heard: string[]): Promise<Client> {
  const impl = class extends WebSocket {
    constructor(address: string, protocols?: string | string[]) {
      super(address, protocols, { headers });
    }
  };
  const client = createClient({ url: `${url.replace(/^http/, 'ws')}/graphql`, webSocketImpl: impl, retryAttempts: 0 });
  clients.push(client);
  client.subscribe<{ postUpdated: { title: string } }>({ query: 'subscription { postUpdated { title } }' }, { next: ({ data }) => heard.push(data!.postUpdated.title), error: (e) => heard.push(`error ${String(e)}`), complete: () => undefined });
  // A query on the same socket is answered after the subscription is set up; it reads the socket's data.
  const first = await new Promise<unknown>((resolve, reject) => client.subscribe({ query: '{ Post(id: 1) { title } }' }, { next: ({ data }) => resolve(data), error: reject, complete: () => undefined }));
  heard.push(`read ${JSON.stringify(first)}`);
  return client;
}

it("a session's socket hears that session's writes and reads its data; a socket without one hears the shared data", async () => {
  const dir = await mkdtemp(join(tmpdir(), 'mockyard-session-subs-'));
  dirs.push(dir);
  await writeFile(join(dir, 'db.json'), JSON.stringify({ posts: [{ id: 1, title: 'one' }, { id: 2, title: 'two' }] }));
  const { url } = await startCli(cli, ['db.json', '--port', '0', '--log-level', 'warn'], dir);
  const admin = `${url}/_mockyard/api`;
  const patch = (path: string, body: unknown) => fetch(`${admin}/${path}`, { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  // The session's copy differs before the sockets open: a socket's queries read it.
  expect((await patch('data/posts/1?session=t1', { title: 'one, in t1' })).status).toBe(200);
  const byHeader: string[] = [];
  const byCookie: string[] = [];
  const shared: string[] = [];
  await subscriber(url, { 'X-Mockyard-Session': 't1' }, byHeader);
  await subscriber(url, { Cookie: 'X-Mockyard-Session=t1' }, byCookie);
  await subscriber(url, {}, shared);

  expect((await patch('data/posts/2?session=t1', { title: 'two, in t1' })).status).toBe(200);
  expect((await patch('data/posts/2', { title: 'two, shared' })).status).toBe(200);
  await expect.poll(() => byHeader.length + byCookie.length + shared.length).toBe(6);
  await new Promise((r) => setTimeout(r, 200)); // nothing more arrives
  expect(byHeader).toEqual(['read {"Post":{"title":"one, in t1"}}', 'two, in t1']);
  expect(byCookie).toEqual(['read {"Post":{"title":"one, in t1"}}', 'two, in t1']);
  expect(shared).toEqual(['read {"Post":{"title":"one"}}', 'two, shared']);
});

it('a handshake with a malformed session id gets the 400 a request gets, and the server goes on', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'mockyard-session-subs-'));
  dirs.push(dir);
  await writeFile(join(dir, 'db.json'), JSON.stringify({ posts: [{ id: 1, title: 'one' }] }));
  const app = await startCli(cli, ['db.json', '--port', '0', '--log-level', 'warn'], dir);
  const refused = await new Promise<string>((resolve) => {
    const ws = new WebSocket(`${app.url.replace(/^http/, 'ws')}/graphql`, 'graphql-transport-ws', { headers: { 'X-Mockyard-Session': 'bad id!' } });
    ws.on('open', () => resolve('open'));
    ws.on('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c)).on('end', () => resolve(`${res.statusCode} ${JSON.parse(body).message}`));
    });
    ws.on('error', () => undefined);
  });
  expect(refused).toMatch(/^400 Invalid session id "bad id!"/);
  expect((await fetch(`${app.url}/posts/1`)).status).toBe(200);
  expect(app.output()).not.toContain('failed');
});
