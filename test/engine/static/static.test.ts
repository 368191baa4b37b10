/**
 * `static` (src/engine/static/): files beside the API, served after it, in any host (here
 * `api.handle`, what every host calls; the CLI's `--static` is in test/node/json-server-flags.test.ts).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createMockApi, type MockApi } from '../../../src/engine/create-mock-api.js';
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

describe('static', () => {
  it('serves a Vfs folder beside the API (the API first), index.html at /, ranges', async () => {
    const a = api({ static: memoryFs({ 'index.html': '<h1>hi</h1>', 'posts': 'shadowed', 'img/x.svg': '<svg/>' }) });
    const home = await see(await a.handle(req('GET', '/')));
    expect([home.status, home.headers['content-type'], home.text]).toEqual([200, 'text/html; charset=utf-8', '<h1>hi</h1>']);
    expect((await see(await a.handle(req('GET', '/img/x.svg')))).headers['content-type']).toBe('image/svg+xml; charset=utf-8');
    expect((await see(await a.handle(req('GET', '/posts')))).json).toEqual(DB.posts);
    const part = await see(await a.handle(req('GET', '/index.html', { headers: { Range: 'bytes=-3' } })));
    expect([part.status, part.text, part.headers['content-range']]).toEqual([206, 'h1>', 'bytes 8-10/11']);
    expect((await see(await a.handle(req('POST', '/index.html', { json: {} })))).status).not.toBe(200);
  });
});
