/**
 * The mock API engine end to end through `serve()`: a real temp dir on disk, real HTTP. Engine
 * semantics are tested in test/engine; here: what only the HTTP layer can show (GET/DELETE with a
 * body from a raw client, HEAD lengths, body limits on the wire, traversal attempts in raw
 * request targets, writes reaching the disk, the error body shape).
 */
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { MockApiOptions } from '../../src/engine/mock-api-options.js';
import { closeServers, rawRequest, startServer } from '../helpers/server.js';
import { makeTempDir, removeTempDirs } from '../helpers/temp-dir.js';

afterEach(async () => {
  await closeServers();
  await removeTempDirs();
});

async function setup(extra: Partial<MockApiOptions> = {}) {
  const root = await makeTempDir();
  const dir = join(root, 'mocks');
  await mkdir(join(dir, 'users'), { recursive: true });
  await writeFile(join(dir, 'users.json'), JSON.stringify([{ id: 1, role: 'admin', age: 40 }, { id: 2, role: 'viewer', age: 20 }, { id: 3, role: 'admin', age: 25 }]));
  await writeFile(join(dir, 'users', '1.json'), JSON.stringify({ id: 1, name: 'Ada' }));
  await writeFile(join(dir, 'note.txt'), 'hello');
  await writeFile(join(root, 'secret.json'), '{"secret":true}');
  const server = await startServer({ mock: { endpointPrefix: '/api', fsDir: dir, logLevel: 'silent', ...extra } });
  return { root, dir, server, url: server.url };
}

describe('mock API over HTTP', () => {
  it('GET and HEAD agree on Content-Length; X-Total-Count for arrays', async () => {
    const { url } = await setup();
    const get = await rawRequest(url, { path: '/api/users' });
    const head = await rawRequest(url, { method: 'HEAD', path: '/api/users' });
    expect(get.status).toBe(200);
    expect(head.status).toBe(200);
    expect(head.body.byteLength).toBe(0);
    expect(head.headers['content-length']).toBe(String(get.body.byteLength));
    expect(get.headers['x-total-count']).toBe('3');
    expect(get.headers['content-type']).toBe('application/json; charset=utf-8');
    const txt = await fetch(`${url}/api/note.txt`);
    expect(txt.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await txt.text()).toBe('hello');
  });

  it('a file edited, replaced or deleted behind the server\'s back is served by the very next request', async () => {
    const { url, dir } = await setup();
    const file = join(dir, 'users', '1.json');
    const get = async () => {
      const r = await fetch(`${url}/api/users/1`);
      return r.status === 200 ? ((await r.json()) as { v?: number }).v : r.status;
    };
    // Cached and watched (no stat per request): every outside change must still show at once.
    for (let v = 1; v <= 20; v++) {
      await get();
      if (v % 3 === 0) {
        await writeFile(`${file}.tmp`, JSON.stringify({ v }));
        await rename(`${file}.tmp`, file);
      } else await writeFile(file, JSON.stringify({ v }));
      expect(await get()).toBe(v);
    }
    await rm(file);
    expect(await get()).toBe(404);
    await writeFile(file, JSON.stringify({ v: 99 }));
    expect(await get()).toBe(99);
  });

  it('GET with a body (only a raw client can send one) → 400 with the spec message', async () => {
    const { url } = await setup();
    const res = await rawRequest(url, { method: 'GET', path: '/api/users/1', headers: { 'Content-Type': 'application/json', 'Content-Length': 2 }, body: '{}' });
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body.toString())).toMatchObject({ status: 400, error: 'BAD_REQUEST', message: 'GET request cannot have a body in File System API mode', path: '/api/users/1' });
  });

  it('DELETE with a body → 400 and the file stays', async () => {
    const { url, dir } = await setup();
    const res = await rawRequest(url, { method: 'DELETE', path: '/api/users/1', headers: { 'Content-Length': 2 }, body: '{}' });
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body.toString()).message).toBe('DELETE request cannot have a body');
    expect(JSON.parse(await readFile(join(dir, 'users', '1.json'), 'utf8'))).toEqual({ id: 1, name: 'Ada' });
  });

  it('POST creates a file on disk (201 + Location); a second POST → 409', async () => {
    const { url, dir } = await setup();
    const res = await fetch(`${url}/api/projects/alpha`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"Alpha"}' });
    expect(res.status).toBe(201);
    const location = res.headers.get('location')!;
    expect(location.startsWith('/api/projects/alpha')).toBe(true);
    expect(await (await fetch(`${url}${location}`)).json()).toEqual({ name: 'Alpha' });
    expect(JSON.parse(await readFile(join(dir, 'projects', 'alpha.json'), 'utf8'))).toEqual({ name: 'Alpha' });
    const again = await fetch(`${url}/api/projects/alpha`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"Alpha"}' });
    expect(again.status).toBe(409);
    expect((await again.json()).message).toBe('File at /api/projects/alpha already exists');
  });

  it('PATCH merge-patch with a charset parameter updates the disk file', async () => {
    const { url, dir } = await setup();
    const res = await fetch(`${url}/api/users/1`, { method: 'PATCH', headers: { 'content-type': 'application/merge-patch+json; charset=utf-8' }, body: '{"age":42,"name":null}' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ id: 1, age: 42 });
    expect(JSON.parse(await readFile(join(dir, 'users', '1.json'), 'utf8'))).toEqual({ id: 1, age: 42 });
  });

  it('a body over bodyLimit → 413 on the wire, file untouched', async () => {
    const { url, dir } = await setup({ bodyLimit: 1024 });
    const res = await rawRequest(url, { method: 'PUT', path: '/api/users/1', headers: { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' }, body: [`{"pad":"${'x'.repeat(800)}`, `${'y'.repeat(800)}"}`] });
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body.toString())).toMatchObject({ status: 413, error: 'PAYLOAD_TOO_LARGE' });
    expect(JSON.parse(await readFile(join(dir, 'users', '1.json'), 'utf8'))).toEqual({ id: 1, name: 'Ada' });
  });

  it.each([
    '/api/../secret.json',
    '/api/%2e%2e/secret.json',
    '/api/..%2fsecret.json',
    '/api/users/..%5c..%5csecret.json',
    '/api/%2e%2e%2f%2e%2e%2fsecret',
    '/api/users%00.json',
  ])('never serves a file outside fsDir: %s', async (target) => {
    const { url } = await setup();
    const res = await rawRequest(url, { path: target });
    expect([400, 404]).toContain(res.status);
    expect(res.body.toString()).not.toContain('"secret":true');
    expect(JSON.parse(res.body.toString())).toMatchObject({ status: res.status });
  });

  it('OPTIONS → 405; a path outside the prefix → the host\'s JSON 404', async () => {
    const { url } = await setup();
    const opt = await fetch(`${url}/api/users`, { method: 'OPTIONS' });
    expect(opt.status).toBe(405);
    expect((await opt.json()).message).toBe('Method OPTIONS not allowed in File System API mode');
    const outside = await fetch(`${url}/elsewhere`);
    expect(outside.status).toBe(404);
    expect(await outside.json()).toMatchObject({ status: 404, error: 'NOT_FOUND', path: '/elsewhere' });
  });

  it('pagination and filters through query parameters', async () => {
    const { url } = await setup({
      pagination: { GET: { type: 'query-param', limit: 'limit', skip: 'skip', sort: 'sort', order: 'order' } },
      filters: { GET: { type: 'query-param', filters: [{ key: 'role', comparison: 'eq' }, { key: 'age', valueType: 'number', comparison: 'gte' }] } },
    });
    const res = await fetch(`${url}/api/users?role=admin&age=20&sort=age&order=DESC&limit=1`);
    expect(res.headers.get('x-total-count')).toBe('2');
    expect(await res.json()).toEqual([{ id: 1, role: 'admin', age: 40 }]);
  });
});

describe('a missing fsDir', () => {
  it('library/serve(): file routing is off while the folder is missing and on once it appears on disk', async () => {
    const root = await makeTempDir();
    const dir = join(root, 'later', 'mocks');
    const warnings: string[] = [];
    const logger = { debug() {}, info() {}, warn: (m: string) => warnings.push(m), error() {} };
    const server = await startServer({
      mock: { endpointPrefix: '/api', fsDir: dir, logger, handlers: [{ method: 'GET', pattern: '/hello', handle: (_req, res) => res.json({ hi: true }) }] },
    });
    expect((await fetch(`${server.url}/api/users`)).status).toBe(404);
    const put = await fetch(`${server.url}/api/users/1`, { method: 'PUT', body: '{"id":1}', headers: { 'content-type': 'application/json' } });
    expect(put.status).toBe(404); // the spec: no folder, no file routing (the library creates nothing)
    expect(await (await fetch(`${server.url}/api/hello`)).json()).toEqual({ hi: true }); // handlers still work
    expect(warnings.join('\n')).toMatch(/does not exist/);
    // the folder appears behind the server's back: the next request is served from it
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'users.json'), JSON.stringify([{ id: 7 }]));
    const res = await fetch(`${server.url}/api/users`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual([{ id: 7 }]);
    const created = await fetch(`${server.url}/api/things/1`, { method: 'PUT', body: '{"id":1}', headers: { 'content-type': 'application/json' } });
    expect(created.status).toBe(201);
    expect(JSON.parse(await readFile(join(dir, 'things', '1.json'), 'utf8'))).toEqual({ id: 1 });
  });
});
