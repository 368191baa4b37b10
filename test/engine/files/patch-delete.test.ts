import { afterAll, describe, expect, it } from 'vitest';
import { createMockApi } from '../../../src/engine/create-mock-api.js';
import { req, see } from '../../helpers/engine-request.js';
import { fsDrivers } from '../../helpers/mock-fs-drivers.js';
import { removeTempDirs } from '../../helpers/temp-dir.js';

afterAll(removeTempDirs);

const TREE = {
  'user.json': { id: 1, name: 'Ann', address: { city: 'Paris', zip: '75001' }, tags: ['a'] },
  'compact.json': '{"a":1}',
  'list.json': '[]',
  'people.json': [{ id: 1, role: 'user' }, { id: 2, role: 'admin' }, { id: 3, role: 'user' }],
  'notes.txt': 'text',
};
const enc = (v: unknown) => new TextEncoder().encode(typeof v === 'string' ? v : JSON.stringify(v));
const patch = (path: string, type: string, body: unknown) => req('PATCH', path, { body: enc(body), headers: { 'content-type': type } });

describe.each(fsDrivers)('PATCH on $name', (driver) => {
  async function engine() {
    const { vfs } = await driver.setup(TREE);
    return { api: createMockApi({ endpointPrefix: '/api', fs: vfs, logLevel: 'silent' }), vfs };
  }
  const text = async (vfs: { read(p: string): Promise<Uint8Array> }, p: string) => new TextDecoder().decode(await vfs.read(p));

  it('a JSON Patch removing the whole document → 409, file untouched and still patchable', async () => {
    const { api, vfs } = await engine();
    const before = await text(vfs, 'user.json');
    const r = await see(await api.handle(patch('/api/user', 'application/json-patch+json', [{ op: 'remove', path: '' }])));
    expect(r.status).toBe(409);
    expect(r.json.message).toMatch(/whole document/);
    expect(await text(vfs, 'user.json')).toBe(before);
    const again = await see(await api.handle(patch('/api/user', 'application/merge-patch+json', { name: 'Bea' })));
    expect(again.status).toBe(200);
    expect(again.json.name).toBe('Bea');
  });

  it('accepts the method in any case ("patch" from a page\'s fetch is not upper-cased)', async () => {
    const { api, vfs } = await engine();
    const r = await see(await api.handle(req('patch', '/api/user', { body: enc({ name: 'Low' }), headers: { 'content-type': 'application/merge-patch+json' } })));
    expect(r.status).toBe(200);
    expect(JSON.parse(await text(vfs, 'user.json')).name).toBe('Low');
  });

  for (const type of ['application/json', 'application/merge-patch+json', 'application/merge-patch+json; charset=utf-8', 'Application/JSON; charset=UTF-8']) {
    it(`merge patch with ${type} → 200 with the new document`, async () => {
      const { api, vfs } = await engine();
      const r = await see(await api.handle(patch('/api/user', type, { name: 'Bea', address: { zip: null }, extra: true })));
      expect(r.status).toBe(200);
      expect(r.headers['content-type']).toBe('application/json; charset=utf-8');
      const expected = { id: 1, name: 'Bea', address: { city: 'Paris' }, tags: ['a'], extra: true };
      expect(r.json).toEqual(expected);
      expect(JSON.parse(await text(vfs, 'user.json'))).toEqual(expected);
      expect((await see(await api.handle(req('GET', '/api/user')))).json).toEqual(expected);
    });
  }

  it('keeps the file style (pretty stays pretty, compact stays compact)', async () => {
    const { api, vfs } = await engine();
    await api.handle(patch('/api/user', 'application/json', { x: 1 }));
    expect(await text(vfs, 'user.json')).toMatch(/^\{\n  "id": 1,/);
    await api.handle(patch('/api/compact', 'application/json', { b: 2 }));
    expect(await text(vfs, 'compact.json')).toBe('{"a":1,"b":2}');
  });

  it('JSON Patch (application/json-patch+json) → 200', async () => {
    const { api } = await engine();
    const r = await see(await api.handle(patch('/api/user', 'application/json-patch+json; charset=utf-8', [
      { op: 'replace', path: '/name', value: 'Cy' },
      { op: 'add', path: '/tags/-', value: 'b' },
      { op: 'remove', path: '/address/zip' },
      { op: 'test', path: '/id', value: 1 },
    ])));
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ id: 1, name: 'Cy', address: { city: 'Paris' }, tags: ['a', 'b'] });
  });

  it('a failed test op → 409 with the reason, file untouched (even after earlier ops succeeded)', async () => {
    const { api, vfs } = await engine();
    const before = await text(vfs, 'user.json');
    const r = await see(await api.handle(patch('/api/user', 'application/json-patch+json', [
      { op: 'replace', path: '/name', value: 'X' },
      { op: 'test', path: '/id', value: 2 },
    ])));
    expect(r.status).toBe(409);
    expect(r.json.message).toMatch(/operation 1 \(test\) failed: test failed at "\/id"/);
    expect(await text(vfs, 'user.json')).toBe(before);
    expect((await see(await api.handle(req('GET', '/api/user')))).json.name).toBe('Ann');
  });

  it('an op on a missing path → 409; an invalid patch document → 422; file untouched', async () => {
    const { api, vfs } = await engine();
    const before = await text(vfs, 'user.json');
    const missing = await see(await api.handle(patch('/api/user', 'application/json-patch+json', [{ op: 'remove', path: '/nope/deeper' }])));
    expect(missing.status).toBe(409);
    expect(missing.json.message).toContain('does not exist');
    for (const bad of [{ op: 'add' }, [{ op: 'jump', path: '/a' }], [{ op: 'add', path: 'no-slash', value: 1 }], [{ op: 'add', path: '/a' }]]) {
      const r = await see(await api.handle(patch('/api/user', 'application/json-patch+json', bad)));
      expect(r.status, JSON.stringify(bad)).toBe(422);
    }
    expect(await text(vfs, 'user.json')).toBe(before);
  });

  it('unsupported or missing Content-Type → 415', async () => {
    const { api } = await engine();
    for (const type of ['text/plain', 'application/xml']) {
      const r = await see(await api.handle(patch('/api/user', type, { a: 1 })));
      expect(r.status).toBe(415);
      expect(r.json.message).toBe('PATCH request content-type unsupported');
    }
    const none = await api.handle(req('PATCH', '/api/user', { body: enc({ a: 1 }) }));
    expect(none!.status).toBe(415);
  });

  it('missing file → 404 Resource to update not found', async () => {
    const { api } = await engine();
    const r = await see(await api.handle(patch('/api/ghost', 'application/json', { a: 1 })));
    expect(r.status).toBe(404);
    expect(r.json.message).toBe('Resource to update not found');
  });

  it('non-JSON file → 400', async () => {
    const { api } = await engine();
    const r = await see(await api.handle(patch('/api/notes.txt', 'application/json', { a: 1 })));
    expect(r.status).toBe(400);
    expect(r.json.message).toBe('Only json file can be processing with PATCH http method');
  });

  it('malformed JSON → 400', async () => {
    const { api } = await engine();
    const r = await see(await api.handle(patch('/api/user', 'application/json', '{"a":')));
    expect(r.status).toBe(400);
  });

  it('forbidden keys anywhere → 400, no prototype is polluted, file untouched', async () => {
    const { api, vfs } = await engine();
    const before = await text(vfs, 'user.json');
    const attempts: Array<[string, string]> = [
      ['application/json', '{"__proto__":{"polluted":"yes"}}'],
      ['application/merge-patch+json', '{"a":{"constructor":{"prototype":{"polluted":"yes"}}}}'],
      ['application/json-patch+json', '[{"op":"add","path":"/__proto__/polluted","value":"yes"}]'],
      ['application/json-patch+json', '[{"op":"add","path":"/constructor/prototype/polluted","value":"yes"}]'],
      ['application/json-patch+json', '[{"op":"add","path":"/x","value":{"__proto__":{"polluted":"yes"}}}]'],
      ['application/json-patch+json', '[{"op":"copy","from":"/__proto__","path":"/x"}]'],
    ];
    for (const [type, body] of attempts) {
      const r = await see(await api.handle(patch('/api/user', type, body)));
      expect(r.status, body).toBe(400);
      expect(r.json.message).toMatch(/Forbidden key/);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((Object.prototype as Record<string, unknown>).polluted).toBeUndefined();
    expect(await text(vfs, 'user.json')).toBe(before);
  });

  it('50 concurrent JSON Patch appends → 50 items', async () => {
    const { api, vfs } = await engine();
    const rs = await Promise.all(Array.from({ length: 50 }, (_, i) => api.handle(patch('/api/list', 'application/json-patch+json', [{ op: 'add', path: '/-', value: i }]))));
    expect(rs.every((r) => r!.status === 200)).toBe(true);
    const items = JSON.parse(await text(vfs, 'list.json')) as number[];
    expect(items).toHaveLength(50);
    expect([...items].sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i));
    const r = await see(await api.handle(req('GET', '/api/list')));
    expect(r.headers['x-total-count']).toBe('50');
  });

  it('concurrent patches: each response is the document right after its own patch', async () => {
    const { api } = await engine();
    const rs = await Promise.all(Array.from({ length: 6 }, (_, i) => api.handle(patch('/api/list', 'application/json-patch+json', [{ op: 'add', path: '/-', value: i }]))));
    const bodies = await Promise.all(rs.map(async (r) => (await r!.json()) as number[]));
    expect(bodies.map((b) => b.length).sort()).toEqual([1, 2, 3, 4, 5, 6]);
    // arrival order is kept
    expect(bodies.at(-1)).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('concurrent patches: a failing one fails alone, the others apply', async () => {
    const { api, vfs } = await engine();
    const ops = [
      [{ op: 'add', path: '/-', value: 'a' }],
      [{ op: 'add', path: '/-', value: 'bad' }, { op: 'test', path: '/0', value: 'nope' }],
      [{ op: 'add', path: '/-', value: 'b' }],
    ];
    const rs = await Promise.all(ops.map((o) => api.handle(patch('/api/list', 'application/json-patch+json', o))));
    expect(rs.map((r) => r!.status)).toEqual([200, 409, 200]);
    expect(JSON.parse(await text(vfs, 'list.json'))).toEqual(['a', 'b']);
  });

  it('concurrent PATCH and PUT: all succeed, the result is one serial order of them', async () => {
    const { api, vfs } = await engine();
    const rs = await Promise.all([
      api.handle(patch('/api/compact', 'application/json', { first: 1 })),
      api.handle(req('PUT', '/api/compact', { json: { replaced: true } })),
      api.handle(patch('/api/compact', 'application/json', { second: 2 })),
    ]);
    expect(rs.map((r) => r!.status)).toEqual([200, 200, 200]);
    const final = JSON.parse(await text(vfs, 'compact.json'));
    expect(final.replaced).toBe(true);
    expect(final.second).toBe(2);
  });

  it('50 concurrent merge patches on distinct keys → all kept', async () => {
    const { api, vfs } = await engine();
    await Promise.all(Array.from({ length: 50 }, (_, i) => api.handle(patch('/api/compact', 'application/json', { [`k${i}`]: i }))));
    expect(Object.keys(JSON.parse(await text(vfs, 'compact.json')))).toHaveLength(51);
  });
});

describe.each(fsDrivers)('DELETE on $name', (driver) => {
  const PAGE = { type: 'query-param' as const, limit: 'limit', sort: 'sort', order: 'order' };
  async function engine(withFilters = false) {
    const { vfs } = await driver.setup(TREE);
    const api = createMockApi({
      endpointPrefix: '/api',
      fs: vfs,
      logLevel: 'silent',
      ...(withFilters ? { filters: { DELETE: { type: 'query-param', filters: [{ key: 'role' }, { key: 'id', valueType: 'number' }] } }, pagination: { DELETE: PAGE } } : {}),
    });
    return { api, vfs };
  }

  it('without filters the file is deleted: 204, X-Deleted-Count 1', async () => {
    const { api, vfs } = await engine();
    const r = await api.handle(req('DELETE', '/api/user'));
    expect(r!.status).toBe(204);
    expect(r!.headers.get('x-deleted-count')).toBe('1');
    expect(await vfs.stat('user.json')).toBeNull();
    expect((await api.handle(req('GET', '/api/user')))!.status).toBe(404);
  });

  it('missing file → 404 Resource to delete not found', async () => {
    const { api } = await engine();
    const r = await see(await api.handle(req('DELETE', '/api/ghost')));
    expect(r.status).toBe(404);
    expect(r.json.message).toBe('Resource to delete not found');
  });

  it('with a body → 400', async () => {
    const { api, vfs } = await engine();
    const r = await see(await api.handle(req('DELETE', '/api/user', { json: { a: 1 } })));
    expect(r.status).toBe(400);
    expect(r.json.message).toBe('DELETE request cannot have a body');
    expect(await vfs.stat('user.json')).not.toBeNull();
  });

  it('an empty body is no body', async () => {
    const { api } = await engine();
    const r = await api.handle(req('DELETE', '/api/user', { body: new Uint8Array(0) }));
    expect(r!.status).toBe(204);
  });

  it('filters remove matching items, the rest stays: 204, X-Deleted-Count N', async () => {
    const { api, vfs } = await engine(true);
    const r = await api.handle(req('DELETE', '/api/people?role=user'));
    expect(r!.status).toBe(204);
    expect(r!.headers.get('x-deleted-count')).toBe('2');
    expect(JSON.parse(new TextDecoder().decode(await vfs.read('people.json')))).toEqual([{ id: 2, role: 'admin' }]);
    expect((await see(await api.handle(req('GET', '/api/people')))).json).toEqual([{ id: 2, role: 'admin' }]);
  });

  it('filters that empty the array delete the file', async () => {
    const { api, vfs } = await engine(true);
    expect((await api.handle(req('DELETE', '/api/people?role=user')))!.headers.get('x-deleted-count')).toBe('2');
    const r = await api.handle(req('DELETE', '/api/people?role=admin'));
    expect(r!.status).toBe(204);
    expect(r!.headers.get('x-deleted-count')).toBe('1');
    expect(await vfs.stat('people.json')).toBeNull();
  });

  it('filters that match nothing → 404 Partial resource to delete not found; file untouched', async () => {
    const { api, vfs } = await engine(true);
    const before = await vfs.read('people.json');
    const r = await see(await api.handle(req('DELETE', '/api/people?role=ghost')));
    expect(r.status).toBe(404);
    expect(r.json.message).toBe('Partial resource to delete not found');
    expect(await vfs.read('people.json')).toEqual(before);
  });

  it('pagination limits what is deleted (sorted page of the matches)', async () => {
    const { api, vfs } = await engine(true);
    const r = await api.handle(req('DELETE', '/api/people?role=user&sort=id&order=desc&limit=1'));
    expect(r!.headers.get('x-deleted-count')).toBe('1');
    expect(JSON.parse(new TextDecoder().decode(await vfs.read('people.json')))).toEqual([{ id: 1, role: 'user' }, { id: 2, role: 'admin' }]);
  });

  it('filters configured but no parameter given: the whole file is deleted', async () => {
    const { api, vfs } = await engine(true);
    const r = await api.handle(req('DELETE', '/api/people'));
    expect(r!.headers.get('x-deleted-count')).toBe('1');
    expect(await vfs.stat('people.json')).toBeNull();
  });

  it('concurrent filtered deletes never lose or duplicate items', async () => {
    const { api, vfs } = await engine(true);
    const rs = await Promise.all([1, 2, 3].map((id) => api.handle(req('DELETE', `/api/people?id=${id}`))));
    expect(rs.map((r) => r!.status)).toEqual([204, 204, 204]);
    expect(await vfs.stat('people.json')).toBeNull();
  });
});
