/**
 * Writes in file mode with a proxy behind it (src/engine/files/unmocked-write.ts): a write naming
 * something the mock files hold stays local; anything else reaches the real upstream, which a
 * node:http server started here plays.
 */
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { closeServers, startServer } from '../helpers/server.js';
import { makeTempDir, removeTempDirs } from '../helpers/temp-dir.js';
import { closeUpstreams, startUpstream, type Upstream } from '../helpers/upstream.js';

afterEach(async () => {
  await closeServers();
  await closeUpstreams();
  await removeTempDirs();
});

async function setup(withProxy = true) {
  const upstream: Upstream = await startUpstream((req, res, body) => {
    void body().then((b) => {
      res.writeHead(req.method === 'POST' ? 201 : 200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ upstream: `${req.method} ${req.url}`, got: b.toString() }));
    });
  });
  const dir = join(await makeTempDir(), 'mocks');
  await mkdir(join(dir, 'users'), { recursive: true });
  await writeFile(join(dir, 'users', '1.json'), JSON.stringify({ id: 1, name: 'Ada' }));
  await writeFile(join(dir, 'settings.json'), JSON.stringify({ theme: 'dark' }));
  await writeFile(join(dir, 'notes.json'), JSON.stringify([{ id: 1 }]));
  const server = await startServer({
    mock: { endpointPrefix: '/api', fsDir: dir, logLevel: 'silent', ...(withProxy ? { proxy: { target: upstream.url } } : {}) },
  });
  const send = (method: string, path: string, body?: unknown, type = 'application/json') =>
    fetch(`${server.url}/api${path}`, { method, headers: body === undefined ? {} : { 'content-type': type }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { upstream, dir, send };
}

describe('writes in file mode with a proxy', () => {
  it('a write to a resource with no mock file reaches the upstream and creates no file', async () => {
    const { upstream, dir, send } = await setup();
    const r = await send('POST', '/orders', { item: 'tea' });
    expect(r.status).toBe(201);
    expect(await r.json()).toEqual({ upstream: 'POST /api/orders', got: JSON.stringify({ item: 'tea' }) });
    const put = await send('PUT', '/profile', { bio: 'x' });
    expect(await put.json()).toMatchObject({ upstream: 'PUT /api/profile' });
    // PATCH / DELETE of an item the mocks do not hold: where a GET of it would go, the upstream.
    expect(await (await send('PATCH', '/users/2', { name: 'B' }, 'application/merge-patch+json')).json()).toMatchObject({ upstream: 'PATCH /api/users/2' });
    expect(await (await send('DELETE', '/users/3')).json()).toMatchObject({ upstream: 'DELETE /api/users/3' });
    expect(upstream.seen.map((s) => `${s.method} ${s.url}`)).toEqual(['POST /api/orders', 'PUT /api/profile', 'PATCH /api/users/2', 'DELETE /api/users/3']);
    expect((await readdir(dir)).sort()).toEqual(['notes.json', 'settings.json', 'users']);
    expect(await readdir(join(dir, 'users'))).toEqual(['1.json']);
  });

  it('writes to mock files, and new items of a mocked collection, stay local', async () => {
    const { upstream, dir, send } = await setup();
    const patched = await send('PATCH', '/users/1', { name: 'Ada L.' }, 'application/merge-patch+json');
    expect(patched.status).toBe(200);
    expect(await patched.json()).toEqual({ id: 1, name: 'Ada L.' });
    expect((await send('PUT', '/settings', { theme: 'light' })).status).toBe(200);
    expect(JSON.parse(await readFile(join(dir, 'settings.json'), 'utf8'))).toEqual({ theme: 'light' });
    // users/ is mocked: a new item is a new file there.
    expect((await send('POST', '/users/7', { id: 7 })).status).toBe(201);
    expect(JSON.parse(await readFile(join(dir, 'users', '7.json'), 'utf8'))).toEqual({ id: 7 });
    // POST to an existing JSON file is file mode's own answer (409), never the upstream's.
    expect((await send('POST', '/notes', { id: 2 })).status).toBe(409);
    expect((await send('DELETE', '/users/7')).status).toBe(204);
    expect(upstream.seen).toEqual([]);
  });

  it('without a proxy, file mode still answers every write (creates the file)', async () => {
    const { dir, send } = await setup(false);
    expect((await send('POST', '/orders', { item: 'tea' })).status).toBe(201);
    expect(JSON.parse(await readFile(join(dir, 'orders.json'), 'utf8'))).toEqual({ item: 'tea' });
    expect((await send('PATCH', '/users/2', { name: 'B' }, 'application/merge-patch+json')).status).toBe(404);
  });
});
