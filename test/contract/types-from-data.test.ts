/**
 * `mockyard export SOURCE --types FILE` on data (the built CLI): a db.json and a folder of mocks
 * give one type per collection and object, judged by `tsc --strict` on code that uses them right
 * and, under `@ts-expect-error`, wrong — plugged into createMockApi<Api>, defineConfig<Api>,
 * handlers by route, api.use, interceptFetch's requestsTo and the Playwright fixture's overrides.
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

import { afterAll, describe, expect, it } from 'vitest';
import { makeTempDir as tempDir, removeTempDirs } from '../helpers/temp-dir.js';
import { typecheck } from '../helpers/tsc.js';

const run = promisify(execFile);
const CLI = resolve(import.meta.dirname, '../../dist/node/cli.js');
const FIXTURES = resolve(import.meta.dirname, '../fixtures/contract');

async function exportTypes(source: string, dir: string): Promise<string> {
  await run(process.execPath, [CLI, 'export', source, '--types', join(dir, 'api.d.ts')], { cwd: dir });
  return readFile(join(dir, 'api.d.ts'), 'utf8');
}

afterAll(removeTempDirs);

describe('types from data', () => {
  it('db.json: one type per collection and object, optional fields, unions, relations as the related id, plugged into the mock API', async () => {
    const dir = await tempDir();
    const text = await exportTypes(join(FIXTURES, 'db.json'), dir);
    expect(text).toContain('export interface Todo {');
    expect(text).toContain('  done?: boolean;');
    expect(text).toContain('  userId: User["id"];');
    expect(text).toContain('  due?: string | null;');
    expect(text).toContain('export interface Profile {');
    expect(text).not.toMatch(/"Write"|"Ship"/); // no literal unions guessed from the values
    const usage = `
import { createMockApi, defineConfig, memoryFs } from 'mockyard';
import { interceptFetch } from 'mockyard/test';
import { testFor } from 'mockyard/playwright';
import type { Api, Profile, Todo, User } from './api.js';

const api = createMockApi<Api>({
  endpointPrefix: '/api',
  fs: memoryFs({}),
  handlers: [
    { route: 'GET /todos/:id', handle: async (req) => (await req.app.store.get('todos', req.params.id))! },
    { route: 'POST /todos', handle: (req, res) => res.status(201).json({ ...req.body, id: 9 }) },
    { route: 'GET /profile', handle: () => ({ name: 'x' }) },
    { pattern: '/anything', handle: (req) => req.params },
  ],
});
const todos: readonly Todo[] | undefined = await api.app.store.all('todos');
const owner: User['id'] = todos![0]!.userId;
const tags: string[] = todos![0]!.tags;
const done: boolean | undefined = todos![0]!.done;
const created: Todo = await api.app.store.insert('todos', { title: 't', userId: owner, tags });
const page: Todo[] = (await api.app.store.list('todos', { limit: 2 })).items;
api.use({ route: 'GET /users/:id', handle: (req) => ({ id: Number(req.params.id), name: 'x' }) });
api.use({ route: 'PATCH /todos/:id', handle: (req, res) => { const d: boolean | undefined = req.body.done; res.json({ ...created, done: d }); } });
defineConfig<Api>({ mock: { endpointPrefix: '/api', handlers: [{ route: 'DELETE /todos/:id', handle: () => created }] } });
export const used: unknown[] = [done, page, api];
export type P = Profile;

// @ts-expect-error not a collection
await api.app.store.all('todoz');
// @ts-expect-error a title is a string
export const n: number = todos![0]!.title;
// @ts-expect-error an item needs its title
await api.app.store.insert('todos', { userId: 1, tags: [] });
// @ts-expect-error the answer lacks the user's name
api.use({ route: 'GET /users/:id', handle: () => ({ id: 1 }) });
// @ts-expect-error no such route
api.use({ route: 'GET /nothing', handle: () => 1 });
// @ts-expect-error res.json takes the route's answer
api.use({ route: 'GET /todos/:id', handle: (_req, res) => { res.json({ id: 1 }); } });
// @ts-expect-error req.params of /todos/:id has no userId
api.use({ route: 'GET /todos/:id', handle: (req) => req.params.userId });
// @ts-expect-error the config's handlers are checked too
defineConfig<Api>({ mock: { endpointPrefix: '/api', handlers: [{ route: 'GET /profile', handle: () => ({ nom: 'x' }) }] } });

// interceptFetch: the recorded requests of a known route have its body type (Api inferred from the engine).
const mocked = interceptFetch(api);
const posted: { title: string } = await mocked.requestsTo('POST /todos')[0]!.json();
// @ts-expect-error not a route of Api
mocked.requestsTo('POST /todoz');
// @ts-expect-error a posted todo's tags are strings
export const badTags: number[] = (await mocked.requestsTo('POST /todos')[0]!.json()).tags;
export const p = posted;

// The Playwright fixture: overrides name the routes and give their answers.
const test = testFor<Api>();
test('typed overrides', async ({ mockyard }) => {
  await mockyard.use({ path: '/todos/:id', body: created });
  await mockyard.use({ method: 'PATCH', path: '/todos/:id', body: created, status: 200 });
  await mockyard.use({ path: '/profile', body: { name: 'x' } });
  // @ts-expect-error the answer of GET /profile is a Profile
  await mockyard.use({ path: '/profile', body: { nom: 'x' } });
  // @ts-expect-error no such route
  await mockyard.use({ path: '/nowhere', body: 1 });
});
`;
    const untyped = `
import { createMockApi, memoryFs, type StoreItem as Item } from 'mockyard';
import { interceptFetch } from 'mockyard/test';
// Without Api: today's types (any collection name, items as records).
const api = createMockApi({ endpointPrefix: '/api', fs: memoryFs({}), handlers: [{ pattern: '/x', handle: (req) => req.app.store.all('whatever') }] });
export const items: readonly Item[] | undefined = await api.app.store.all('anything');
api.use({ route: 'GET /x/:id', handle: (req) => req.params.id });
export const any: unknown = await interceptFetch(api).requestsTo('PUT /anything/:id')[0]?.json();
`;
    const result = await typecheck(dir, { 'api.d.ts': text, 'use.ts': usage, 'untyped.ts': untyped, 'package.json': '{"type":"module"}' });
    expect(result.output).toBe('');
    expect(result.code).toBe(0);
  }, 60_000);

  it('a folder of mocks: collections by file, string ids, nested objects, number unions, relations by the store rule', async () => {
    const dir = await tempDir();
    const text = await exportTypes(join(FIXTURES, 'mocks'), dir);
    expect(text).toContain('export interface Post {');
    expect(text).toContain('  id: string;');
    expect(text).toContain('  views: number;');
    expect(text).toContain('  postId: Post["id"];');
    expect(text).toContain('export interface Settings {');
    expect(text).toContain('export interface V1Tag {'); // a collection in a subfolder
    expect(text).not.toContain('file mode'); // users/7.json is a file-mode resource, not a collection
    expect(text).not.toMatch(/interface User\b/);
    const usage = `
import type { Api, Comment, Post, Settings } from './api.js';
const post: Post = { id: 'p9', title: 't', views: 1.5, author: { name: 'a' } };
const comment: Comment = { id: 3, body: 'b', postId: post.id };
const settings: Settings = { theme: 'dark', pageSize: 1, flags: { beta: false } };
type Answer = Api['routes']['GET /posts/:id']['response'];
export const a: Answer = post;
const tag: Api['collections']['v1/tags'] = { id: 1, label: 'news', postId: post.id };
export const all = [comment, settings, tag];
// @ts-expect-error a post's id is a string
export const wrong: Comment = { id: 4, body: 'b', postId: 7 };
// @ts-expect-error the author needs a name
export const noName: Post = { id: 'p', title: 't', views: 1, author: {} };
// @ts-expect-error site is a string when present
export const site: Post = { id: 'p', title: 't', views: 1, author: { name: 'n', site: 1 } };
`;
    const result = await typecheck(dir, { 'api.d.ts': text, 'use.ts': usage, 'package.json': '{"type":"module"}' });
    expect(result.output).toBe('');
    expect(result.code).toBe(0);
  }, 60_000);
});
