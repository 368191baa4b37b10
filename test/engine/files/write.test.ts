import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createMockApi } from '../../../src/engine/create-mock-api.js';
import { req, see } from '../../helpers/engine-request.js';
import { fsDrivers } from '../../helpers/mock-fs-drivers.js';
import { removeTempDirs } from '../../helpers/temp-dir.js';

afterAll(removeTempDirs);

const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 255, 13, 10, 26]);
const TREE = { 'users.json': [{ id: 1 }], 'users/1.json': { id: 1 }, 'notes.txt': 'note', 'pics/old.png': png };

function form(entries: Array<[string, string | Blob, string?]>): FormData {
  const fd = new FormData();
  for (const [k, v, name] of entries) {
    if (typeof v === 'string') fd.append(k, v);
    else fd.append(k, v, name);
  }
  return fd;
}

describe.each(fsDrivers)('POST and PUT on $name', (driver) => {
  async function engine(extra: Record<string, unknown> = {}) {
    const { vfs, dir } = await driver.setup(TREE);
    const api = createMockApi({ endpointPrefix: '/api', fs: vfs, logLevel: 'silent', ...extra });
    return { api, vfs, dir };
  }

  describe('POST', () => {
    it('an upload named like a drive letter under a folder path → 400, nothing written', async () => {
      const { api, vfs } = await engine();
      for (const name of ['C:', 'c:', '..', 'a\\..\\..']) {
        const r = await see(await api.handle(new Request('http://mock.test/api/pics/', { method: 'POST', body: form([['file', new Blob([png], { type: 'image/png' }), name]]) })));
        expect(r.status, name).toBe(400);
      }
      expect((await vfs.readdir('pics')).map((e) => e.name)).toEqual(['old.png']);
    });

    it('JSON body on an absent path → 201, stored as <path>.json byte-for-byte, Location', async () => {
      const { api, vfs } = await engine();
      const body = '{ "id": 2,\n  "name": "Zoé" }';
      const r = await see(await api.handle(req('POST', '/api/users/2', { body: new TextEncoder().encode(body), headers: { 'content-type': 'application/json' } })));
      expect(r.status).toBe(201);
      expect(r.headers.location).toBe('/api/users/2.json');
      expect(r.json).toEqual({ id: 2, name: 'Zoé' });
      expect(new TextDecoder().decode(await vfs.read('users/2.json'))).toBe(body);
      expect((await see(await api.handle(req('GET', '/api/users/2')))).json).toEqual({ id: 2, name: 'Zoé' });
    });

    it('non-ASCII and space names round-trip (decoded on disk, encoded in Location)', async () => {
      const { api, vfs } = await engine();
      const r = await api.handle(req('POST', '/api/caf%C3%A9%20menu', { json: { ok: 1 } }));
      expect(r!.status).toBe(201);
      expect(r!.headers.get('location')).toBe('/api/caf%C3%A9%20menu.json');
      expect(await vfs.stat('café menu.json')).not.toBeNull();
      expect((await see(await api.handle(req('GET', r!.headers.get('location')!)))).json).toEqual({ ok: 1 });
      expect((await see(await api.handle(req('GET', '/api/caf%C3%A9%20menu')))).json).toEqual({ ok: 1 });
    });

    it('a URL that already ends with .json is not doubled', async () => {
      const { api, vfs } = await engine();
      expect((await api.handle(req('POST', '/api/x/y.json', { json: { a: 1 } })))!.status).toBe(201);
      expect(await vfs.stat('x/y.json')).not.toBeNull();
    });

    it('existing file without pagination/filters → 409 with the URL path (not the disk path)', async () => {
      const { api } = await engine();
      const r = await see(await api.handle(req('POST', '/api/users/1', { json: { id: 1 } })));
      expect(r.status).toBe(409);
      expect(r.json.message).toBe('File at /api/users/1 already exists');
    });

    it('existing non-JSON file → 400', async () => {
      const { api } = await engine();
      const r = await see(await api.handle(req('POST', '/api/notes', { json: { a: 1 } })));
      expect(r.status).toBe(400);
      expect(r.json.message).toBe('POST request for not json file is not allowed');
    });

    it('one uploaded file → written byte-for-byte, extension from the part type', async () => {
      const { api, vfs } = await engine();
      const r = await api.handle(req('POST', '/api/pics/logo', { body: form([['file', new Blob([png], { type: 'image/png' }), 'whatever.bin']]) }));
      expect(r!.status).toBe(201);
      expect(r!.headers.get('location')).toBe('/api/pics/logo.png');
      expect(await vfs.read('pics/logo.png')).toEqual(png);
      const g = await api.handle(req('GET', '/api/pics/logo.png'));
      expect(g!.headers.get('content-type')).toBe('image/png');
      expect(new Uint8Array(await g!.arrayBuffer())).toEqual(png);
    });

    it('uploaded file: the URL extension wins', async () => {
      const { api, vfs } = await engine();
      const r = await api.handle(req('POST', '/api/pics/a.data', { body: form([['f', new Blob([png], { type: 'image/png' }), 'x.png']]) }));
      expect(r!.status).toBe(201);
      expect(await vfs.read('pics/a.data')).toEqual(png);
    });

    it('uploaded file to a folder path keeps its own name', async () => {
      const { api, vfs } = await engine();
      const r = await api.handle(req('POST', '/api/pics/', { body: form([['f', new Blob([png], { type: 'image/png' }), 'cat.png']]) }));
      expect(r!.status).toBe(201);
      expect(await vfs.read('pics/cat.png')).toEqual(png);
    });

    it('multiple files → 400', async () => {
      const { api } = await engine();
      const r = await see(await api.handle(req('POST', '/api/pics/two', { body: form([['a', new Blob(['1']), 'a.txt'], ['b', new Blob(['2']), 'b.txt']]) })));
      expect(r.status).toBe(400);
      expect(r.json.message).toBe('POST request with multiple file is not allowed');
    });

    it('a file and body fields → 400', async () => {
      const { api } = await engine();
      const r = await see(await api.handle(req('POST', '/api/pics/both', { body: form([['a', new Blob(['1']), 'a.txt'], ['name', 'x']]) })));
      expect(r.status).toBe(400);
      expect(r.json.message).toBe('POST request with file and body is not allowed');
    });

    it('no data → 400', async () => {
      const { api } = await engine();
      const r = await see(await api.handle(req('POST', '/api/empty', { headers: { 'content-type': 'application/json' } })));
      expect(r.status).toBe(400);
      expect(r.json.message).toBe('No data provided');
    });

    it('malformed JSON → 400; forbidden keys → 400 and nothing stored', async () => {
      const { api, vfs } = await engine();
      const bad = await see(await api.handle(req('POST', '/api/bad', { body: new TextEncoder().encode('{"a":'), headers: { 'content-type': 'application/json' } })));
      expect(bad.status).toBe(400);
      expect(bad.json.message).toMatch(/^Malformed JSON body/);
      const evil = await see(await api.handle(req('POST', '/api/evil', { body: new TextEncoder().encode('{"a":{"__proto__":{"polluted":1}}}'), headers: { 'content-type': 'application/json' } })));
      expect(evil.status).toBe(400);
      expect(evil.json.message).toContain('__proto__');
      expect(await vfs.stat('evil.json')).toBeNull();
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });

    it('form fields without a file are stored as a JSON object', async () => {
      const { api } = await engine();
      const r = await api.handle(req('POST', '/api/forms/a', { body: form([['name', 'x'], ['tag', '1'], ['tag', '2']]) }));
      expect(r!.status).toBe(201);
      expect((await see(await api.handle(req('GET', '/api/forms/a')))).json).toEqual({ name: 'x', tag: ['1', '2'] });
    });

    it('concurrent POSTs to one path: exactly one 201, the rest 409', async () => {
      const { api } = await engine();
      const rs = await Promise.all(Array.from({ length: 10 }, (_, i) => api.handle(req('POST', '/api/race', { json: { i } }))));
      const statuses = rs.map((r) => r!.status).sort();
      expect(statuses.filter((s) => s === 201)).toHaveLength(1);
      expect(statuses.filter((s) => s === 409)).toHaveLength(9);
    });
  });

  describe('PUT', () => {
    it('creates (201 + Location) then replaces (200)', async () => {
      const { api, vfs } = await engine();
      const a = await see(await api.handle(req('PUT', '/api/things/1', { json: { v: 1 } })));
      expect(a.status).toBe(201);
      expect(a.headers.location).toBe('/api/things/1.json');
      const b = await see(await api.handle(req('PUT', '/api/things/1', { json: { v: 2 } })));
      expect(b.status).toBe(200);
      expect(b.headers.location).toBeUndefined();
      expect(JSON.parse(new TextDecoder().decode(await vfs.read('things/1.json')))).toEqual({ v: 2 });
      expect((await see(await api.handle(req('GET', '/api/things/1')))).json).toEqual({ v: 2 });
    });

    it('replaces the file the path resolves to (users/1 → users/1.json)', async () => {
      const { api, vfs } = await engine();
      const r = await api.handle(req('PUT', '/api/users/1', { json: { id: 1, name: 'new' } }));
      expect(r!.status).toBe(200);
      expect(JSON.parse(new TextDecoder().decode(await vfs.read('users/1.json')))).toEqual({ id: 1, name: 'new' });
    });

    it('a non-JSON body is stored raw, extension from Content-Type', async () => {
      const { api, vfs } = await engine();
      const r = await api.handle(req('PUT', '/api/docs/readme', { body: new TextEncoder().encode('a,b'), headers: { 'content-type': 'text/csv' } }));
      expect(r!.status).toBe(201);
      expect(r!.headers.get('location')).toBe('/api/docs/readme.csv');
      expect(new TextDecoder().decode(await vfs.read('docs/readme.csv'))).toBe('a,b');
    });

    it('one uploaded file replaces the content byte-for-byte', async () => {
      const { api, vfs } = await engine();
      const r = await api.handle(req('PUT', '/api/pics/old.png', { body: form([['f', new Blob([new Uint8Array([1, 2, 3])], { type: 'image/png' }), 'n.png']]) }));
      expect(r!.status).toBe(200);
      expect(await vfs.read('pics/old.png')).toEqual(new Uint8Array([1, 2, 3]));
    });

    it('no body and no file → 400 No data provided', async () => {
      const { api } = await engine();
      const r = await see(await api.handle(req('PUT', '/api/things/2', { headers: { 'content-type': 'application/json' } })));
      expect(r.status).toBe(400);
      expect(r.json.message).toBe('No data provided');
    });

    it('multiple files → 400', async () => {
      const { api } = await engine();
      const r = await see(await api.handle(req('PUT', '/api/things/3', { body: form([['a', new Blob(['1']), 'a.txt'], ['b', new Blob(['2']), 'b.txt']]) })));
      expect(r.status).toBe(400);
      expect(r.json.message).toBe('PUT request with multiple file is not allowed');
    });

    it('Content-Type is required', async () => {
      const { api } = await engine();
      const r = await see(await api.handle(req('PUT', '/api/things/4', { body: new TextEncoder().encode('{}') })));
      expect(r.status).toBe(400);
      expect(r.json.message).toBe('PUT request requires a Content-Type header');
    });

    it('a .json target only accepts valid JSON without forbidden keys', async () => {
      const { api, vfs } = await engine();
      const before = await vfs.read('users.json');
      const r = await api.handle(req('PUT', '/api/users.json', { body: new TextEncoder().encode('not json'), headers: { 'content-type': 'text/plain' } }));
      expect(r!.status).toBe(400);
      const r2 = await api.handle(req('PUT', '/api/users', { body: new TextEncoder().encode('{"constructor":{"prototype":{"x":1}}}'), headers: { 'content-type': 'application/json' } }));
      expect(r2!.status).toBe(400);
      expect(await vfs.read('users.json')).toEqual(before);
    });
  });

  it('a path that runs through a file: 404 for reads, 409 for writes, never 500', async () => {
    const { api } = await engine();
    const expected: Record<string, [number, string]> = {
      GET: [404, 'Not Found'],
      HEAD: [404, ''],
      POST: [409, 'Cannot write /api/users.json/x: a parent path is a file'],
      PUT: [409, 'Cannot write /api/users.json/x: a parent path is a file'],
      PATCH: [404, 'Resource to update not found'],
      DELETE: [404, 'Resource to delete not found'],
    };
    for (const [method, [status, message]] of Object.entries(expected)) {
      const init = method === 'POST' || method === 'PUT' || method === 'PATCH' ? { json: { a: 1 } } : {};
      const r = await see(await api.handle(req(method, '/api/users.json/x', init)));
      expect(r.status, method).toBe(status);
      if (message) expect(r.json.message, method).toBe(message);
    }
  });

  it('PUT onto a folder → 409; a non-JSON PUT to a folder URL needs a file name → 400', async () => {
    const { vfs } = await driver.setup({ 'box.json/inner.txt': 'x' });
    const api = createMockApi({ endpointPrefix: '/api', fs: vfs, logLevel: 'silent' });
    const r = await see(await api.handle(req('PUT', '/api/box.json', { json: {} })));
    expect(r.status).toBe(409);
    expect(r.json.message).toBe('Cannot replace a folder: /api/box.json');
    const dir = await see(await api.handle(req('PUT', '/api/box.json/', { body: new TextEncoder().encode('x'), headers: { 'content-type': 'text/plain' } })));
    expect(dir.status).toBe(400);
  });

  if (driver.name === 'disk') {
    it('writes land on disk under the root (atomic rename leaves no temp file)', async () => {
      const { api, dir } = await engine();
      await api.handle(req('PUT', '/api/users/1', { json: { id: 1, disk: true } }));
      expect(JSON.parse(await readFile(join(dir!, 'users/1.json'), 'utf8'))).toEqual({ id: 1, disk: true });
      const { readdir } = await import('node:fs/promises');
      expect((await readdir(join(dir!, 'users'))).filter((n) => n.includes('tmp'))).toEqual([]);
    });
  }
});
