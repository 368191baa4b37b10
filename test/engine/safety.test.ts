import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createMockApi } from '../../src/engine/create-mock-api.js';
import { diskFs } from '../../src/vfs/disk.js';
import { memoryFs } from '../../src/vfs/memory.js';
import { req, see } from '../helpers/engine-request.js';
import { seedDir } from '../helpers/mock-fs-drivers.js';
import { makeTempDir, removeTempDirs } from '../helpers/temp-dir.js';

afterAll(removeTempDirs);

const SECRET = 'TOP-SECRET-CONTENT';
/**
 * Every trick with the outcome it must get, for every method: `400` (the path module refuses it)
 * or `'not mine'` (the URL parser already resolved the dots, so the path left the prefix and the
 * engine answers undefined: the host forwards it or answers its own 404).
 */
const TRICKS: Array<[string, 400 | 'not mine']> = [
  ['/api/..%2fsecret.json', 400],
  ['/api/%2e%2e/secret.json', 'not mine'],
  ['/api/%2e%2e%2fsecret.json', 400],
  ['/api/..%5csecret.json', 400],
  ['/api/%5c..%5csecret.json', 400],
  ['/api/users/..%2f..%2fsecret.json', 400],
  ['/api/%2fetc%2fpasswd', 400],
  ['/api/C:%5cwindows', 400],
  ['/api/users%00.json', 400],
  // Double encoding: one decode gives the name "..%2fsecret.json", which a second decode (by any
  // layer that decodes again) would turn into a traversal. Refused, never stored as a name.
  ['/api/..%252fsecret.json', 400],
  ['/api/%252e%252e/secret.json', 400],
  ['/api/users/%252e%252e%252f%252e%252e%252fsecret.json', 400],
  ['/api/..%255csecret.json', 400],
  ['/api/../secret.json', 'not mine'],
  ['/api/users/../../secret.json', 'not mine'],
  ['/api/%E0%A4%A', 400],
];
const METHODS = ['GET', 'HEAD', 'DELETE', 'PATCH', 'PUT', 'POST'];

describe('path traversal never reads a file outside the root (disk)', () => {
  it('a secret file next to the root is never served, whatever the trick: every request gets its outcome', async () => {
    const parent = await makeTempDir();
    const root = join(parent, 'mocks');
    await mkdir(root);
    await writeFile(join(parent, 'secret.json'), JSON.stringify({ secret: SECRET }));
    await writeFile(join(parent, 'secret'), SECRET);
    await seedDir(root, { 'users.json': [{ id: 1 }] });
    const api = createMockApi({ endpointPrefix: '/api', fs: diskFs(root), logLevel: 'silent' });
    let asserted = 0;
    for (const [path, expected] of TRICKS) {
      for (const method of METHODS) {
        const init = method === 'PATCH' || method === 'PUT' || method === 'POST' ? { json: { a: 1 } } : {};
        const res = await api.handle(req(method, path, init));
        const what = `${method} ${path}`;
        if (expected === 'not mine') {
          expect(res, what).toBeUndefined();
        } else {
          expect(res, what).toBeDefined();
          expect(res!.status, what).toBe(expected);
          const body = await res!.text();
          expect(body, what).not.toContain(SECRET);
          if (method !== 'HEAD') expect(JSON.parse(body), what).toMatchObject({ status: 400, error: 'BAD_REQUEST' });
        }
        asserted++;
      }
    }
    expect(asserted).toBe(TRICKS.length * METHODS.length);
    // The secret files are untouched and nothing was written inside or outside the root.
    const { readFile, readdir } = await import('node:fs/promises');
    expect(JSON.parse(await readFile(join(parent, 'secret.json'), 'utf8'))).toEqual({ secret: SECRET });
    expect((await readdir(parent)).sort()).toEqual(['mocks', 'secret', 'secret.json']);
    expect(await readdir(root)).toEqual(['users.json']);
  });

  it('encoded traversal → 400 with a message that holds no absolute path', async () => {
    const parent = await makeTempDir();
    await seedDir(join(parent, 'mocks'), { 'a.json': {} });
    const api = createMockApi({ endpointPrefix: '/api', fs: diskFs(join(parent, 'mocks')), logLevel: 'silent' });
    const r = await see(await api.handle(req('GET', '/api/..%2fsecret.json')));
    expect(r.status).toBe(400);
    expect(r.text).not.toContain(parent);
  });

  it('the default disk factory roots at root/fsDir and serves nothing above it', async () => {
    const parent = await makeTempDir();
    await writeFile(join(parent, 'secret.json'), JSON.stringify({ secret: SECRET }));
    await seedDir(join(parent, 'mocks'), { 'ok.json': { ok: true } });
    const { nodeRuntime } = await import('../../src/node/runtime.js');
    const api = createMockApi({ endpointPrefix: '/api', fsDir: 'mocks', root: parent, logLevel: 'silent' }, nodeRuntime);
    expect((await see(await api.handle(req('GET', '/api/ok')))).json).toEqual({ ok: true });
    for (const p of ['/api/..%2fsecret.json', '/api/..%2fsecret']) {
      expect(await (await api.handle(req('GET', p)))!.text()).not.toContain(SECRET);
    }
    await api.close();
  });
});

describe('bad input', () => {
  it('a body above bodyLimit → 413 (JSON error body), nothing written', async () => {
    const fs = memoryFs({});
    const api = createMockApi({ endpointPrefix: '/api', fs, logLevel: 'silent', bodyLimit: 1024 });
    const big = new TextEncoder().encode(JSON.stringify({ data: 'x'.repeat(2000) }));
    for (const method of ['POST', 'PUT', 'PATCH']) {
      if (method === 'PATCH') await fs.write('big.json', '{}');
      const r = await see(await api.handle(req(method, '/api/big', { body: big, headers: { 'content-type': 'application/json' } })));
      expect(r.status, method).toBe(413);
      expect(r.json.error).toBe('PAYLOAD_TOO_LARGE');
    }
    expect(new TextDecoder().decode(await fs.read('big.json'))).toBe('{}');
  });

  it('a streamed body without Content-Length above the limit → 413', async () => {
    const api = createMockApi({ endpointPrefix: '/api', fs: memoryFs({}), logLevel: 'silent', bodyLimit: 100 });
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        for (let i = 0; i < 10; i++) c.enqueue(new Uint8Array(50).fill(32));
        c.close();
      },
    });
    const request = new Request('http://x/api/s', { method: 'POST', body: stream, headers: { 'content-type': 'application/json' }, duplex: 'half' } as RequestInit);
    expect((await api.handle(request))!.status).toBe(413);
  });

  it('the default body limit is 10 MiB', async () => {
    const api = createMockApi({ endpointPrefix: '/api', fs: memoryFs({}), logLevel: 'silent' });
    expect(api.options.bodyLimit).toBe(10 * 1024 * 1024);
    const big = new Uint8Array(10 * 1024 * 1024 + 1).fill(32);
    expect((await api.handle(req('PUT', '/api/huge.txt', { body: big, headers: { 'content-type': 'text/plain' } })))!.status).toBe(413);
  });

  it('malformed JSON → 400 for POST, PUT (JSON type) and PATCH', async () => {
    const api = createMockApi({ endpointPrefix: '/api', fs: memoryFs({ 'a.json': {} }), logLevel: 'silent' });
    for (const [method, path] of [['POST', '/api/b'], ['PUT', '/api/c'], ['PATCH', '/api/a']]) {
      const r = await see(await api.handle(req(method!, path!, { body: new TextEncoder().encode('{nope'), headers: { 'content-type': 'application/json' } })));
      expect(r.status, method).toBe(400);
      expect(r.json.message).toMatch(/Malformed/);
    }
  });

  it('an I/O failure → 500 with a generic message (no path leak)', async () => {
    const fs = memoryFs({ 'a.json': { a: 1 } });
    const broken = { ...fs, read: async () => { throw new Error('EACCES /very/secret/abs/path'); } };
    const api = createMockApi({ endpointPrefix: '/api', fs: broken, logLevel: 'silent' });
    const r = await see(await api.handle(req('GET', '/api/a')));
    expect(r.status).toBe(500);
    expect(r.json.message).toBe('Internal Server Error');
    expect(r.text).not.toContain('/very/secret');
  });
});
