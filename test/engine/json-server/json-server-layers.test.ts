/**
 * The json-server layers as options of the engine, in any host (here `api.handle`, what every host
 * calls; the node CLI is tested in test/node/json-server-*.test.ts): `routes` (rewrites reaching
 * items, filters, POST appends and queries; the fast path too), `readOnly`, Express-style
 * `middlewares` (headers after next(), answering, gatewayTimeout). `static`: test/engine/static/.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createMockApi, type MockApi } from '../../../src/engine/create-mock-api.js';
import type { MiddlewareFunction } from '../../../src/engine/types.js';
import { memoryFs } from '../../../src/vfs/memory.js';
import { req, see } from '../../helpers/engine-request.js';

const DB = { posts: [{ id: 1, title: 'a', category: 'js' }, { id: 2, title: 'b', category: 'go' }], comments: [{ id: 1, postId: 1 }] };
const apis: MockApi[] = [];
afterEach(async () => {
  await Promise.all(apis.splice(0).map((a) => a.close()));
});

function api(extra: Record<string, unknown>): MockApi {
  const a = createMockApi({ endpointPrefix: '/', fs: memoryFs({ 'db.json': DB }), db: 'db.json', preset: 'json-server', ...extra });
  apis.push(a);
  return a;
}

describe('routes', () => {
  it('rewrites before collections: items, filters, POST appends and queries, on both walks', async () => {
    const a = api({ routes: { '/api/*': '/$1', '/cat/:c': '/posts?category=:c', '/articles?id=:id': '/posts/:id' } });
    expect((await see(await a.handle(req('GET', '/api/posts/2')))).json).toEqual(DB.posts[1]);
    await a.ready();
    // The synchronous walk (hosts' handleCached) rewrites too, and its answer is the same.
    const cached = a.handleCached(req('GET', '/api/posts/2'));
    if (cached) expect((await see(cached)).json).toEqual(DB.posts[1]);
    expect((await see(await a.handle(req('GET', '/cat/go')))).json).toEqual([DB.posts[1]]);
    expect((await see(await a.handle(req('GET', '/articles?id=1')))).json).toEqual(DB.posts[0]);
    expect((await see(await a.handle(req('GET', '/api/posts?_sort=id&_order=desc&_limit=1')))).json).toEqual([DB.posts[1]]);
    const created = await see(await a.handle(req('POST', '/api/comments', { json: { postId: 2 } })));
    expect(created.status).toBe(201);
    expect((await see(await a.handle(req('GET', '/api/posts/2/comments')))).json).toEqual([{ id: 2, postId: 2 }]);
    expect((await see(await a.handle(req('GET', '/__rules')))).json).toEqual({ '/api/*': '/$1', '/cat/:c': '/posts?category=:c', '/articles?id=:id': '/posts/:id' });
  });

  // Their validation: options.test.ts.
});

describe('readOnly and middlewares', () => {
  it('readOnly: 403 for writes, reads answer', async () => {
    const a = api({ readOnly: true });
    expect((await see(await a.handle(req('DELETE', '/posts/1')))).status).toBe(403);
    expect((await see(await a.handle(req('GET', '/posts/1')))).json).toEqual(DB.posts[0]);
  });

  it('headers set before next() reach every answer; a middleware may answer; one that hangs gets a 504 after gatewayTimeout', async () => {
    const hello: MiddlewareFunction = (_req, res, next) => {
      res.header('X-Hello', 'World');
      next();
    };
    const gate: MiddlewareFunction = (r, res, next) => (r.query.stop ? res.status(418).json({ stopped: true }) : r.query.hang ? undefined : next());
    const a = api({ middlewares: [hello, gate], gatewayTimeout: 50 });
    const ok = await see(await a.handle(req('GET', '/posts/1')));
    expect(ok.headers['x-hello']).toBe('World');
    expect(ok.json).toEqual(DB.posts[0]);
    expect((await see(await a.handle(req('GET', '/nothing')))).headers['x-hello']).toBe('World');
    const stopped = await see(await a.handle(req('GET', '/posts?stop=1')));
    expect([stopped.status, stopped.json, stopped.headers['x-hello']]).toEqual([418, { stopped: true }, 'World']);
    expect((await see(await a.handle(req('GET', '/posts?hang=1')))).status).toBe(504);
    expect(() => api({ middlewares: [42] })).toThrow(/middlewares\[0\]/);
  });
});
