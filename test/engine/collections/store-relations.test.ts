/**
 * The collections layer names relations through the store (`mock.store.relations`, store/relations.ts):
 * a declared field links a child collection to its parent for `_embed`, `_expand`, the nested
 * routes and the delete cascade, through a real server; json-server's `postId` ⇄ `posts` stays
 * the preset's default.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createMockApi, type MockApi } from '../../../src/engine/create-mock-api.js';
import { memoryFs } from '../../../src/vfs/memory.js';
import { closeServers, startServer } from '../../helpers/server.js';

const apis: MockApi[] = [];
afterEach(async () => {
  await closeServers();
  await Promise.all(apis.splice(0).map((a) => a.close()));
});

function data() {
  return memoryFs({
    'posts.json': [{ id: 1, title: 'One' }, { id: 2, title: 'Two' }],
    'comments.json': [{ id: 10, article: 1, body: 'a' }, { id: 11, article: 2, body: 'b' }, { id: 12, postId: 2, body: 'by convention' }],
  } as never);
}

async function serverFor(store?: unknown): Promise<string> {
  const api = createMockApi({ fs: data(), endpointPrefix: '/api', preset: 'json-server', logLevel: 'silent', ...(store ? { store } : {}) } as never);
  apis.push(api);
  return `${(await startServer({ mock: api })).url}/api`;
}

const json = async (r: Promise<Response>) => (await r).json();

describe('declared relations (mock.store.relations) in the collections layer', () => {
  it('_embed, _expand, nested GET and POST, and the cascade follow the declared field', async () => {
    const base = await serverFor({ relations: { comments: { article: 'posts' } } });
    expect(await json(fetch(`${base}/posts/1?_embed=comments`))).toEqual({ id: 1, title: 'One', comments: [{ id: 10, article: 1, body: 'a' }] });
    expect(await json(fetch(`${base}/posts?_embed=comments&id=2`))).toEqual([{ id: 2, title: 'Two', comments: [{ id: 11, article: 2, body: 'b' }] }]);
    expect(await json(fetch(`${base}/comments/10?_expand=post`))).toEqual({ id: 10, article: 1, body: 'a', post: { id: 1, title: 'One' } });
    expect(await json(fetch(`${base}/posts/2/comments`))).toEqual([{ id: 11, article: 2, body: 'b' }]);
    const created = await fetch(`${base}/posts/2/comments`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ body: 'c' }) });
    expect(created.status).toBe(201);
    expect(await created.json()).toEqual({ id: 13, body: 'c', article: 2 });
    expect((await fetch(`${base}/posts/2`, { method: 'DELETE' })).status).toBe(200);
    // The declared field's children went; the comment that only matches the convention stayed.
    expect(await json(fetch(`${base}/comments`))).toEqual([{ id: 10, article: 1, body: 'a' }, { id: 12, postId: 2, body: 'by convention' }]);
  });

  it('without a declaration the preset keeps json-server\'s postId ⇄ posts', async () => {
    const base = await serverFor();
    expect(await json(fetch(`${base}/posts/2?_embed=comments`))).toEqual({ id: 2, title: 'Two', comments: [{ id: 12, postId: 2, body: 'by convention' }] });
    expect(await json(fetch(`${base}/posts/2/comments`))).toEqual([{ id: 12, postId: 2, body: 'by convention' }]);
    expect(await json(fetch(`${base}/comments/12?_expand=post`))).toEqual({ id: 12, postId: 2, body: 'by convention', post: { id: 2, title: 'Two' } });
  });
});
