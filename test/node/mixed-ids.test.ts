/**
 * A db.json whose ids are mostly numbers with one written as text (`{ "id": "2" }`, an item added
 * by hand): the built `mockyard db.json`, REST and GraphQL. Ids match as text (`/posts/2` finds
 * `"2"`), so the next number must pass the text ids too; before, every POST without an id was
 * answered 409 "An item with id "2" already exists": the mock clashed with its own new id.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
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

it('POST (REST and GraphQL) on ids [1, "2"] creates 3 and 4, and the file holds them', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'mockyard-mixed-ids-'));
  dirs.push(dir);
  await writeFile(join(dir, 'db.json'), JSON.stringify({ posts: [{ id: 1, title: 'one' }, { id: '2', title: 'two, by hand' }] }, null, 2));
  const { url } = await startCli(cli, ['db.json', '--port', '0', '--log-level', 'warn'], dir);

  const rest = await fetch(`${url}/posts`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"title":"rest"}' });
  expect(rest.status).toBe(201);
  expect(await rest.json()).toEqual({ id: 3, title: 'rest' });
  const gql = await fetch(`${url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: 'mutation { createPost(title: "gql") { id title } }' }) });
  expect(await gql.json()).toEqual({ data: { createPost: { id: '4', title: 'gql' } } });
  expect(await (await fetch(`${url}/posts/2`)).json()).toEqual({ id: '2', title: 'two, by hand' });
  await expect.poll(async () => JSON.parse(await readFile(join(dir, 'db.json'), 'utf8')).posts.map((p: { id: unknown }) => p.id)).toEqual([1, '2', 3, 4]);
});
