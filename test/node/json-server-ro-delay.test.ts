/**
 * `mockyard db.json --read-only --delay MS`, the built CLI as a real process: one rule for both
 * surfaces (docs/json-server.md, docs/graphql.md): the API's answers wait the delay, the read-only
 * refusal does not, whether a REST write's 403 or a GraphQL mutation's. Told by order, not by a
 * clock: with a delay far longer than the test, a read sent first is still waiting when each
 * refusal has arrived (before, the mutation's 403 waited the delay as a query does).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, it } from 'vitest';
import { startCli, stopCliProcesses } from '../helpers/cli-process.js';

const cli = fileURLToPath(new URL('../../dist/node/cli.js', import.meta.url));
const dirs: string[] = [];
afterEach(async () => {
  await stopCliProcesses();
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

const gql = (query: string, signal?: AbortSignal): RequestInit => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }), signal });

it('under --read-only with --delay, a GraphQL mutation is refused without waiting, as the REST write is; reads wait', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'mockyard-ro-delay-'));
  dirs.push(dir);
  await writeFile(join(dir, 'db.json'), JSON.stringify({ posts: [{ id: 1, title: 'one' }] }));
  const { url } = await startCli(cli, ['db.json', '--read-only', '--delay', '20000', '--port', '0', '--quiet'], dir);

  const stop = new AbortController();
  const waiting = (p: Promise<Response>) => p.then(() => 'answered', () => 'aborted');
  // Reads sent first: held back by the delay (REST and GraphQL).
  const restRead = waiting(fetch(`${url}/posts/1`, { signal: stop.signal }));
  const gqlRead = waiting(fetch(`${url}/graphql`, gql('{ allPosts { title } }', stop.signal)));
  try {
    const first = await Promise.race([
      restRead.then(() => 'a REST read'),
      gqlRead.then(() => 'a GraphQL query'),
      (async () => {
        const rest = await fetch(`${url}/posts`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"title":"x"}' });
        expect(rest.status).toBe(403);
        const mutation = await fetch(`${url}/graphql`, gql('mutation { createPost(title: "x") { id } }'));
        expect(mutation.status).toBe(403);
        expect(await mutation.json()).toEqual({ errors: [{ message: 'Mutations are not allowed: the mock API is read-only', extensions: { code: 'FORBIDDEN' } }], data: null });
        return 'both refusals';
      })(),
    ]);
    expect(first).toBe('both refusals');
  } finally {
    stop.abort();
  }
  expect(await restRead).toBe('aborted'); // the reads were still waiting their delay
  expect(await gqlRead).toBe('aborted');
}, 30_000);
