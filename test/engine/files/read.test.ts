import { afterAll, describe, expect, it } from 'vitest';
import { kHasBody } from '../../../src/core/body.js';
import { createMockApi } from '../../../src/engine/create-mock-api.js';
import { MSG } from '../../../src/engine/file-cache/messages.js';
import { req, see } from '../../helpers/engine-request.js';
import { fsDrivers } from '../../helpers/mock-fs-drivers.js';
import { removeTempDirs } from '../../helpers/temp-dir.js';

afterAll(removeTempDirs);

const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
const TREE = {
  'users.json': '[\n  {"id":1,"name":"Ann"},\n  {"id":2,"name":"Bob"}\n]',
  'users/1.json': { id: 1, name: 'Ann' },
  'users/index-less/readme.txt': 'no index here',
  'teams/index.json': [{ id: 't1' }],
  'teams.json': [{ id: 'shadowed' }],
  'index.json': { root: true },
  'report.xml': '<r/>',
  'report.txt': 'text report',
  'report.csv': 'a,b',
  'page.html': '<p>hi</p>',
  'page.zzz': 'unlisted',
  'page.aaa': 'unlisted a',
  'odd.zzz': 'z',
  'odd.aaa': 'a',
  'logo.png': png,
  'plain.txt': 'héllo',
  'empty-obj.json': '{}',
  'broken.json': '[1, 2',
  'broken-object.json': '{bad',
};

describe.each(fsDrivers)('GET/HEAD on $name', (driver) => {
  async function engine(extra: Record<string, unknown> = {}) {
    const { vfs } = await driver.setup(TREE);
    return createMockApi({ endpointPrefix: '/api', fs: vfs, logLevel: 'silent', ...extra });
  }

  it('serves a JSON array as stored, with Content-Type, Content-Length and X-Total-Count', async () => {
    const api = await engine();
    const r = await see(await api.handle(req('GET', '/api/users')));
    expect(r.status).toBe(200);
    expect(r.text).toBe(TREE['users.json']);
    expect(r.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(r.headers['content-length']).toBe(String(new TextEncoder().encode(TREE['users.json']).byteLength));
    expect(r.headers['x-total-count']).toBe('2');
  });

  it('X-Total-Count is 1 for a JSON object, absent for non-JSON', async () => {
    const api = await engine();
    expect((await see(await api.handle(req('GET', '/api/users/1')))).headers['x-total-count']).toBe('1');
    expect((await see(await api.handle(req('GET', '/api/empty-obj')))).headers['x-total-count']).toBe('1');
    expect((await see(await api.handle(req('GET', '/api/plain.txt')))).headers['x-total-count']).toBeUndefined();
  });

  it('serves a malformed JSON object file as stored, without X-Total-Count', async () => {
    const api = await engine();
    const r = await see(await api.handle(req('GET', '/api/broken-object')));
    expect(r.status).toBe(200);
    expect(r.text).toBe('{bad');
    expect(r.headers['x-total-count']).toBeUndefined();
    expect((await see(await api.handle(req('GET', '/api/empty-obj')))).headers['x-total-count']).toBe('1');
  });

  it('serves a malformed JSON file as stored', async () => {
    const api = await engine();
    const r = await see(await api.handle(req('GET', '/api/broken')));
    expect(r.status).toBe(200);
    expect(r.text).toBe('[1, 2');
  });

  it('HEAD answers the GET headers (same Content-Length) and no body', async () => {
    const api = await engine();
    for (const path of ['/api/users', '/api/logo.png', '/api/plain.txt']) {
      const get = await api.handle(req('GET', path));
      const head = await api.handle(req('HEAD', path));
      expect(head!.status).toBe(200);
      expect(head!.headers.get('content-length')).toBe(get!.headers.get('content-length'));
      expect(head!.headers.get('content-type')).toBe(get!.headers.get('content-type'));
      expect(head!.headers.get('x-total-count')).toBe(get!.headers.get('x-total-count'));
      expect((await head!.arrayBuffer()).byteLength).toBe(0);
      expect(Number(get!.headers.get('content-length'))).toBe((await get!.arrayBuffer()).byteLength);
    }
  });

  it('serves binary files byte-for-byte with their media type', async () => {
    const api = await engine();
    const res = await api.handle(req('GET', '/api/logo.png'));
    expect(res!.headers.get('content-type')).toBe('image/png');
    expect(new Uint8Array(await res!.arrayBuffer())).toEqual(png);
  });

  it('text files get a charset', async () => {
    const api = await engine();
    const r = await see(await api.handle(req('GET', '/api/plain.txt')));
    expect(r.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(r.text).toBe('héllo');
  });

  describe('lookup', () => {
    it('exact file first', async () => {
      const api = await engine();
      expect((await see(await api.handle(req('GET', '/api/users.json')))).text).toBe(TREE['users.json']);
      expect((await see(await api.handle(req('GET', '/api/report.txt')))).text).toBe('text report');
    });

    it('a directory (or trailing slash) serves its index.json before <path>.json', async () => {
      const api = await engine();
      expect((await see(await api.handle(req('GET', '/api/teams')))).json).toEqual([{ id: 't1' }]);
      expect((await see(await api.handle(req('GET', '/api/teams/')))).json).toEqual([{ id: 't1' }]);
    });

    it('the prefix itself serves the root index.json', async () => {
      const api = await engine();
      expect((await see(await api.handle(req('GET', '/api')))).json).toEqual({ root: true });
      expect((await see(await api.handle(req('GET', '/api/')))).json).toEqual({ root: true });
    });

    it('a directory without index.json does not hide <path>.json', async () => {
      const api = await engine();
      // users/ exists (users/1.json) without index.json; users.json wins.
      expect((await see(await api.handle(req('GET', '/api/users')))).json).toEqual([{ id: 1, name: 'Ann' }, { id: 2, name: 'Bob' }]);
      expect((await see(await api.handle(req('GET', '/api/users/')))).json).toEqual([{ id: 1, name: 'Ann' }, { id: 2, name: 'Bob' }]);
    });

    it('<path>.json, then the other extensions in the documented order', async () => {
      const api = await engine();
      expect((await see(await api.handle(req('GET', '/api/users/1')))).json).toEqual({ id: 1, name: 'Ann' });
      // report.xml before report.txt before report.csv
      expect((await see(await api.handle(req('GET', '/api/report')))).text).toBe('<r/>');
      // page.html (listed) before unlisted extensions
      expect((await see(await api.handle(req('GET', '/api/page')))).text).toBe('<p>hi</p>');
      // only unlisted extensions: smallest name, whatever the listing order
      expect((await see(await api.handle(req('GET', '/api/odd')))).text).toBe('a');
    });

    it('a directory without index.json and no sibling file is not found', async () => {
      const api = await engine();
      const r = await see(await api.handle(req('GET', '/api/users/index-less')));
      expect(r.status).toBe(404);
    });
  });

  it('GET or HEAD of a missing file → 404 JSON error body', async () => {
    const api = await engine();
    const r = await see(await api.handle(req('GET', '/api/nope')));
    expect(r.status).toBe(404);
    expect(r.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(r.json).toMatchObject({ status: 404, error: 'NOT_FOUND', message: 'Not Found', path: '/api/nope' });
    expect(typeof r.json.timestamp).toBe('string');
    const h = await api.handle(req('HEAD', '/api/nope'));
    expect(h!.status).toBe(404);
    expect(await h!.text()).toBe('');
  });

  it('GET with a body → 400 (spec message)', async () => {
    const api = await engine();
    const request = req('GET', '/api/users');
    (request as unknown as Record<symbol, unknown>)[kHasBody] = true;
    const r = await see(await api.handle(request));
    expect(r.status).toBe(400);
    expect(r.json.message).toBe('GET request cannot have a body in File System API mode');
    expect(MSG.getWithBody).toBe('GET request cannot have a body in File System API mode');
  });

  it('HEAD with a body → 400', async () => {
    const api = await engine();
    const request = req('HEAD', '/api/users');
    (request as unknown as Record<symbol, unknown>)[kHasBody] = true;
    expect((await api.handle(request))!.status).toBe(400);
  });

  it('OPTIONS → 405 with the spec message, whether the file exists or not', async () => {
    const api = await engine();
    for (const path of ['/api/users', '/api/nope']) {
      const r = await see(await api.handle(req('OPTIONS', path)));
      expect(r.status).toBe(405);
      expect(r.json.message).toBe('Method OPTIONS not allowed in File System API mode');
      expect(r.headers.allow).toContain('GET');
    }
  });

  it('unknown methods are not handled by file mode (404 or forward)', async () => {
    const api = await engine();
    expect((await api.handle(req('PROPFIND', '/api/users')))!.status).toBe(404);
    const fwd = await engine({ noHandledRestFsRequestsAction: 'forward' });
    expect(await fwd.handle(req('PROPFIND', '/api/users'))).toBeUndefined();
  });
});
