/**
 * The collection store (src/engine/store/): `req.app.store` in handlers over a real server, one
 * queue with the REST collection routes, change events for every write whatever made it (REST,
 * the store, file-mode writes, files edited on disk behind the server's back, db.json edits).
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { MockApi } from '../../../src/engine/create-mock-api.js';
import { createNodeMockApi as createMockApi } from '../../../src/node/engines.js'; // the `mockyard` entry under Node: fsDir on disk
import type { StoreChange } from '../../../src/engine/store/store.js';
import { findRelations } from '../../../src/engine/store/relations.js';
import { runListQuery } from '../../../src/engine/store/list-query.js';
import { memoryFs } from '../../../src/vfs/memory.js';
import { closeServers, startServer } from '../../helpers/server.js';
import { makeTempDir, removeTempDirs } from '../../helpers/temp-dir.js';

const apis: MockApi[] = [];
afterEach(async () => {
  await closeServers();
  await Promise.all(apis.splice(0).map((a) => a.close()));
  await removeTempDirs();
});

function track(api: MockApi): MockApi {
  apis.push(api);
  return api;
}

/** Resolves once `n` changes arrived (no timing: it waits for the events themselves). */
function collect(events: StoreChange[], n: number): Promise<StoreChange[]> {
  return new Promise((resolve) => {
    const check = () => (events.length >= n ? resolve(events.slice(0, n)) : setImmediate(check));
    check();
  });
}

const posts = [{ id: 1, title: 'One', userId: 1 }, { id: 2, title: 'Two', userId: 2 }];

describe('req.app.store in handlers', () => {
  it('lists, gets, inserts, updates and removes; REST sees each write at once', async () => {
    const fs = memoryFs({ 'posts.json': posts } as never);
    const api = track(createMockApi({
      fs, logLevel: 'silent', endpointPrefix: '/api', collections: true,
      handlers: [
        { pattern: '/store/posts', method: 'GET', handle: async (req, res) => res.json(await req.app.store.list('posts', { filter: { title_neq: 'Two' } })) },
        { pattern: '/store/posts', method: 'POST', handle: async (req, res) => res.status(201).json(await req.app.store.insert('posts', req.body as Record<string, unknown>)) },
        { pattern: '/store/posts/:id', method: 'PATCH', handle: async (req, res) => res.json((await req.app.store.update('posts', req.params.id, req.body as Record<string, unknown>)) ?? null) },
        { pattern: '/store/posts/:id', method: 'DELETE', handle: async (req, res) => res.json((await req.app.store.remove('posts', req.params.id)) ?? null) },
        { pattern: '/store/posts/:id', method: 'GET', handle: async (req, res) => res.json((await req.app.store.get('posts', req.params.id)) ?? null) },
        { pattern: '/store/missing', method: 'GET', handle: async (req, res) => res.json(await req.app.store.list('nope')) },
      ],
    }));
    const server = await startServer({ mock: api });
    const base = `${server.url}/api`;
    const json = (init?: RequestInit) => ({ ...init, headers: { 'content-type': 'application/json' } });
    expect(await (await fetch(`${base}/store/posts`)).json()).toEqual({ items: [posts[0]], total: 1 });
    const created = await (await fetch(`${base}/store/posts`, json({ method: 'POST', body: JSON.stringify({ title: 'Three' }) }))).json();
    expect(created).toEqual({ id: 3, title: 'Three' });
    expect(await (await fetch(`${base}/posts/3`)).json()).toEqual({ id: 3, title: 'Three' });
    expect(await (await fetch(`${base}/store/posts/3`, json({ method: 'PATCH', body: JSON.stringify({ title: 'Drei', id: 99 }) }))).json()).toEqual({ id: 3, title: 'Drei' });
    expect(await (await fetch(`${base}/posts/3`)).json()).toEqual({ id: 3, title: 'Drei' });
    expect(await (await fetch(`${base}/store/posts/3`, { method: 'DELETE' })).json()).toEqual({ id: 3, title: 'Drei' });
    expect((await fetch(`${base}/posts/3`)).status).toBe(404);
    expect(await (await fetch(`${base}/store/posts/1`)).json()).toEqual(posts[0]);
    const missing = await fetch(`${base}/store/missing`);
    expect(missing.status).toBe(404);
    expect((await missing.json()).message).toBe('No collection "nope"');
  });

  it('store writes and REST writes share one queue: 40 concurrent inserts each way, none lost, ids unique', async () => {
    const fs = memoryFs({ 'posts.json': [] } as never);
    const api = track(createMockApi({ fs, logLevel: 'silent', endpointPrefix: '/api', collections: true }));
    const server = await startServer({ mock: api });
    const rest = Array.from({ length: 40 }, (_, i) => fetch(`${server.url}/api/posts`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ from: 'rest', i }) }));
    const direct = Array.from({ length: 40 }, (_, i) => api.app.store.insert('posts', { from: 'store', i }));
    await Promise.all([...rest, ...direct]);
    const all = (await (await fetch(`${server.url}/api/posts`)).json()) as Array<{ id: number }>;
    expect(all).toHaveLength(80);
    expect(new Set(all.map((p) => p.id)).size).toBe(80);
  });

  it('a transaction is one write: a failing step leaves nothing of it', async () => {
    const fs = memoryFs({ 'posts.json': posts } as never);
    const api = track(createMockApi({ endpointPrefix: '/api', fs, logLevel: 'silent', collections: true }));
    await expect(api.app.store.transaction('posts', (tx) => {
      tx.insert({ title: 'kept?' });
      tx.insert({ id: 1, title: 'duplicate id' });
    })).rejects.toThrow(/already exists/);
    expect(await api.app.store.all('posts')).toEqual(posts);
    const moved = await api.app.store.transaction('posts', (tx) => {
      const p = tx.remove(1)!;
      return tx.insert({ ...p, id: 10 });
    });
    expect(moved).toEqual({ id: 10, title: 'One', userId: 1 });
    expect((await api.app.store.all('posts'))!.map((p) => p.id)).toEqual([2, 10]);
  });
});

describe('change events', () => {
  it('REST writes, store writes and file-mode writes all announce created / updated / removed', async () => {
    const fs = memoryFs({ 'posts.json': posts } as never);
    const api = track(createMockApi({ fs, logLevel: 'silent', endpointPrefix: '/api', collections: true }));
    const server = await startServer({ mock: api });
    const events: StoreChange[] = [];
    const stop = await api.app.store.subscribe((c) => events.push(c));
    const send = (method: string, path: string, body?: unknown) => fetch(`${server.url}/api${path}`, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    await send('POST', '/posts', { title: 'Three' });
    await send('PATCH', '/posts/1', { title: 'Uno' });
    await send('DELETE', '/posts/2');
    await api.app.store.insert('posts', { id: 9, title: 'Nine' });
    await send('PUT', '/posts', [{ id: 9, title: 'Nine, replaced whole' }]); // file mode: the whole file
    const got = await collect(events, 7);
    expect(got.map((e) => `${e.type} ${e.collection}#${e.id}`)).toEqual([
      'created posts#3', 'updated posts#1', 'removed posts#2', 'created posts#9',
      // the whole-file PUT keeps only #9
      'updated posts#9', 'removed posts#1', 'removed posts#3',
    ]);
    expect(got[1]).toMatchObject({ item: { id: 1, title: 'Uno', userId: 1 }, previous: posts[0] });
    stop();
    await send('POST', '/posts', { title: 'unheard' });
    expect(events).toHaveLength(got.length);
  });

  it('a collection file edited on disk behind the server\'s back is announced item by item', async () => {
    const dir = await makeTempDir();
    await writeFile(join(dir, 'posts.json'), JSON.stringify(posts));
    const api = track(createMockApi({ endpointPrefix: '/api', fsDir: dir, logLevel: 'silent', collections: true }));
    await api.ready();
    const events: StoreChange[] = [];
    await api.app.store.subscribe((c) => events.push(c));
    await writeFile(join(dir, 'posts.json'), JSON.stringify([{ ...posts[0], title: 'edited' }, { id: 5, title: 'new' }]));
    const got = await collect(events, 3);
    expect(got.map((e) => `${e.type} #${e.id}`).sort()).toEqual(['created #5', 'removed #2', 'updated #1']);
  });

  it('a collection file caught half-written (not JSON yet) is not announced as emptied', async () => {
    // An editor that truncates, then writes: a change report can land in between. The half-written
    // file is no version of the collection; only the finished one is compared with the last.
    const fs = memoryFs({ 'posts.json': posts } as never);
    const api = track(createMockApi({ fs, logLevel: 'silent', endpointPrefix: '/api', collections: true }));
    await api.ready();
    const events: StoreChange[] = [];
    await api.app.store.subscribe((c) => events.push(c));
    await fs.write('posts.json', new TextEncoder().encode('[{"id":1,"title":"One","userId":1},{"id"'));
    // The store's queue for the file runs after the report's comparison: once this settles, the
    // half-written version has been seen.
    await api.app.store.transaction('posts', () => undefined).catch(() => undefined);
    await fs.write('posts.json', new TextEncoder().encode(JSON.stringify([posts[0], { id: 7, title: 'Seven' }])));
    const got = await collect(events, 2);
    expect(got.map((e) => `${e.type} #${e.id}`).sort()).toEqual(['created #7', 'removed #2']);
    await api.app.store.transaction('posts', () => undefined);
    expect(events).toHaveLength(2);
  });

  it('db.json edited on disk is announced per collection', async () => {
    const dir = await makeTempDir();
    await writeFile(join(dir, 'db.json'), JSON.stringify({ posts, users: [{ id: 1, name: 'Ada' }] }, null, 2));
    const { diskFs } = await import('../../../src/vfs/disk.js');
    const api = track(createMockApi({ endpointPrefix: '/api', fs: diskFs(dir), db: 'db.json', logLevel: 'silent', preset: 'json-server' }));
    await api.ready();
    const events: StoreChange[] = [];
    await api.app.store.subscribe((c) => events.push(c));
    await writeFile(join(dir, 'db.json'), JSON.stringify({ posts, users: [{ id: 1, name: 'Ada L.' }, { id: 2, name: 'Bob' }] }, null, 2));
    const got = await collect(events, 2);
    expect(got.map((e) => `${e.type} ${e.collection}#${e.id}`).sort()).toEqual(['created users#2', 'updated users#1']);
  });
});

describe('relation naming', () => {
  const shapes = new Map<string, string[]>([
    ['posts', ['id', 'title', 'userId', 'category_id', 'editor']],
    ['users', ['id', 'name']],
    ['categories', ['id']],
    ['comments', ['id', 'post_id', 'postId', 'ghostId']],
  ]);
  const pairs = (naming: Parameters<typeof findRelations>[0]) => findRelations(naming, shapes).map((r) => `${r.child}.${r.field}→${r.parent}`).sort();

  it('both conventions by default; a foreign key naming no collection is a plain field', () => {
    expect(pairs({ convention: 'both', declared: {} })).toEqual(['comments.postId→posts', 'comments.post_id→posts', 'posts.category_id→categories', 'posts.userId→users']);
  });
  it('one convention at a time, and declared relations on top', () => {
    expect(pairs({ convention: 'json-server', declared: {} })).toEqual(['comments.postId→posts', 'posts.userId→users']);
    expect(pairs({ convention: 'json-graphql-server', declared: { posts: { editor: 'users' } } })).toEqual(['comments.post_id→posts', 'posts.category_id→categories', 'posts.editor→users']);
    expect(pairs({ convention: 'none', declared: { posts: { editor: 'users' } } })).toEqual(['posts.editor→users']);
  });
  it('the option is validated at start-up', () => {
    expect(() => createMockApi({ endpointPrefix: '/api', fs: memoryFs(), store: { relations: 'camel' as never } })).toThrow(/mock\.store\.relations/);
    expect(() => createMockApi({ endpointPrefix: '/api', fs: memoryFs(), store: { relations: { posts: { editor: 3 as never } } } })).toThrow(/mock\.store\.relations\.posts\.editor/);
  });
});

describe('list queries', () => {
  const items = [
    { id: 1, title: 'Lorem Ipsum', views: 254, tags: ['a', 'b'] },
    { id: 2, title: 'Sic Dolor amet', views: 65, tags: ['b'] },
    { id: 3, title: 'Third', views: 65 },
  ];
  const ids = (q: Parameters<typeof runListQuery>[2]) => runListQuery(items, 'id', q).items.map((i) => i.id);
  it('equality (number and text alike), ranges, _neq, ids, q, lists, sort, slices', () => {
    expect(ids({ filter: { views: '65' } })).toEqual([2, 3]);
    expect(ids({ filter: { views_gt: 65 } })).toEqual([1]);
    expect(ids({ filter: { views_lte: 65, title_neq: 'Third' } })).toEqual([2]);
    expect(ids({ filter: { ids: ['1', 3], views: 0 } })).toEqual([1, 3]);
    expect(ids({ filter: { q: 'DOLOR' } })).toEqual([2]);
    expect(ids({ filter: { tags: ['a'] } })).toEqual([1]);
    expect(ids({ filter: { views: [254, 999] } })).toEqual([1]);
    expect(ids({ sort: { field: 'title', order: 'desc' } })).toEqual([3, 2, 1]);
    expect(runListQuery(items, 'id', { sort: { field: 'views' }, offset: 1, limit: 1 })).toEqual({ items: [items[2]], total: 3 });
    expect(() => runListQuery(items, 'id', { limit: -1 })).toThrow(/limit must be an integer/);
  });
});
