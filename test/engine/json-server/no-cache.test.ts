/**
 * json-server 0.17's no-cache headers (`Cache-Control: no-cache`, `Pragma: no-cache`, `Expires: -1`)
 * on every answer under the preset (items, queries, writes, 404s), on a real server; not in file
 * mode without the preset. The recorded 0.17 answers are compared in test/node/json-server-fixtures.test.ts.
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

function api(preset: 'json-server' | undefined): MockApi {
  const a = createMockApi({
    endpointPrefix: '/api',
    fs: memoryFs({ 'todos.json': JSON.stringify([{ id: 1, title: 'a' }]), 'profile.json': '{"name":"x"}' }),
    ...(preset ? { preset } : {}),
    logLevel: 'silent',
  });
  apis.push(a);
  return a;
}

const cacheHeaders = (r: Response) => [r.headers.get('cache-control'), r.headers.get('pragma'), r.headers.get('expires')];

describe('no-cache headers', () => {
  it('under the preset: every answer, fast path and writes included', async () => {
    const server = await startServer({ engines: [api('json-server')] });
    for (const [method, path, body] of [['GET', '/api/todos'], ['GET', '/api/todos'], ['GET', '/api/todos/1'], ['GET', '/api/profile'], ['GET', '/api/todos/99'], ['POST', '/api/todos', '{"title":"b"}'], ['PATCH', '/api/todos/1', '{"title":"c"}']] as const) {
      const r = await fetch(`${server.url}${path}`, { method, headers: { 'content-type': 'application/json' }, body });
      expect(cacheHeaders(r), `${method} ${path} ${r.status}`).toEqual(['no-cache', 'no-cache', '-1']);
    }
  });

  it("under the preset, an answer's own Cache-Control (a handler's, a recording's) stays; the rest of the set is added", async () => {
    const a = createMockApi({
      endpointPrefix: '/api',
      fs: memoryFs({ 'todos.json': JSON.stringify([{ id: 1 }]) }),
      preset: 'json-server',
      logLevel: 'silent',
      handlers: [
        { pattern: '/cached', method: 'GET', handle: (_req, res) => { res.set('Cache-Control', 'max-age=60').json({ ok: true }); } },
        { pattern: '/native', method: 'GET', handle: () => new Response('{}', { headers: { 'content-type': 'application/json', 'cache-control': 'no-store' } }) },
      ],
    });
    apis.push(a);
    const server = await startServer({ engines: [a] });
    expect(cacheHeaders(await fetch(`${server.url}/api/cached`))).toEqual(['max-age=60', 'no-cache', '-1']);
    expect(cacheHeaders(await fetch(`${server.url}/api/native`))).toEqual(['no-store', 'no-cache', '-1']);
  });

  it('file mode without the preset: none', async () => {
    const server = await startServer({ engines: [api(undefined)] });
    const r = await fetch(`${server.url}/api/todos`);
    expect(r.status).toBe(200);
    expect(cacheHeaders(r)).toEqual([null, null, null]);
  });
});
