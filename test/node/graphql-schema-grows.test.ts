/**
 * `mockyard db.json`, the built CLI as a real process: the GraphQL schema read at start never
 * loses a type or a field while the server runs. Every comment deleted through REST, a query
 * naming `Post.Comments` (and `Comment.Post`) still validates and answers `[]` — whether or not
 * GraphQL was asked anything before the deletes.
 */
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { startCli, stopCliProcesses } from '../helpers/cli-process.js';
import { makeTempDir, removeTempDirs } from '../helpers/temp-dir.js';

const cli = resolve('dist/node/cli.js');

afterEach(async () => {
  await stopCliProcesses();
  await removeTempDirs();
});

const DB = {
  posts: [
    { id: 1, title: 'one' },
    { id: 2, title: 'two' },
  ],
  comments: [
    { id: 1, body: 'a', postId: 1 },
    { id: 2, body: 'b', postId: 2 },
  ],
};

const QUERY = '{ allPosts { id title Comments { id body } } allComments { id Post { id } } }';

async function gql(url: string, query: string): Promise<{ status: number; body: any }> {
  const r = await fetch(`${url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) });
  return { status: r.status, body: await r.json() };
}

async function served(): Promise<string> {
  const dir = await makeTempDir();
  await writeFile(join(dir, 'db.json'), `${JSON.stringify(DB, null, 2)}\n`);
  return (await startCli(cli, ['db.json', '--port', '0'], dir)).url;
}

async function deleteEveryComment(url: string): Promise<void> {
  for (const { id } of DB.comments) expect((await fetch(`${url}/comments/${id}`, { method: 'DELETE' })).status).toBe(200);
  expect(await (await fetch(`${url}/comments`)).json()).toEqual([]);
}

it.each([
  ['asked before the deletes', true],
  ['first asked after the deletes', false],
])('a query naming Post.Comments stays valid once every comment is deleted through REST (GraphQL %s)', async (_when, askFirst) => {
  const url = await served();
  if (askFirst) {
    const before = await gql(url, QUERY);
    expect(before.status).toBe(200);
    expect(before.body.data.allPosts).toEqual([
      { id: '1', title: 'one', Comments: [{ id: '1', body: 'a' }] },
      { id: '2', title: 'two', Comments: [{ id: '2', body: 'b' }] },
    ]);
  }
  await deleteEveryComment(url);
  const after = await gql(url, QUERY);
  expect(after.status).toBe(200);
  expect(after.body).toEqual({
    data: {
      allPosts: [
        { id: '1', title: 'one', Comments: [] },
        { id: '2', title: 'two', Comments: [] },
      ],
      allComments: [],
    },
  });
  // And a comment created again (through GraphQL, the emptied type's fields still there) is seen under its post.
  expect((await gql(url, 'mutation { createComment(body: "c", postId: 1) { id } }')).status).toBe(200);
  expect((await gql(url, '{ Post(id: 1) { Comments { body } } }')).body).toEqual({ data: { Post: { Comments: [{ body: 'c' }] } } });
});
