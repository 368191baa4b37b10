import { afterAll, describe, expect, it } from 'vitest';
import { createMockApi } from '../../../src/engine/create-mock-api.js';
import type { FilterEntry } from '../../../src/engine/types.js';
import type { MockApiOptions } from '../../../src/engine/mock-api-options.js';
import { req, see } from '../../helpers/engine-request.js';
import { fsDrivers } from '../../helpers/mock-fs-drivers.js';
import { removeTempDirs } from '../../helpers/temp-dir.js';

afterAll(removeTempDirs);

const ITEMS = [
  { id: 1, name: 'Ann', age: 31, active: true, role: 'admin', born: '1993-05-01', address: { city: 'Paris' }, tags: ['Red', 'blue'] },
  { id: 2, name: 'bob', age: 25, active: false, role: 'user', born: '1999-01-15', address: { city: 'Berlin' }, tags: ['green'] },
  { id: 3, name: 'Cid', age: 40, active: true, role: 'user', born: '1984-12-31', address: { city: 'paris' } },
  { id: 4, name: 'Dee', age: 25, active: true, role: 'guest', born: '1999-07-04' },
  { id: 5, name: 'Eve', active: false, role: 'user', born: '2001-02-02', address: { city: 'Rome' }, tags: [] },
];

const FILTERS: FilterEntry[] = [
  { key: 'id', valueType: 'number', comparison: 'eq' },
  { key: 'name', comparison: 'contains' },
  { key: 'role' },
  { key: 'notRole', field: 'role', comparison: 'neq' },
  { key: 'roleNe', field: 'role', comparison: 'ne' },
  { key: 'minAge', field: 'age', valueType: 'number', comparison: 'gte' },
  { key: 'maxAge', field: 'age', valueType: 'number', comparison: 'lt' },
  { key: 'olderThan', field: 'age', valueType: 'number', comparison: 'gt' },
  { key: 'upTo', field: 'age', valueType: 'number', comparison: 'lte' },
  { key: 'active', valueType: 'boolean' },
  { key: 'bornAfter', field: 'born', valueType: 'date', comparison: 'gt' },
  { key: 'city', field: 'address.city', comparison: 'contains' },
  { key: 'ids', field: 'id', valueType: 'number[]', comparison: 'in' },
  { key: 'notIds', field: 'id', valueType: 'number', comparison: 'nin' },
  { key: 'roles', field: 'role', valueType: 'string[]', comparison: 'in' },
  { key: 'tag', field: 'tags', comparison: 'contains' },
  { key: 'proto', field: '__proto__.polluted' },
  { key: 'ctor', field: 'constructor.name' },
];

const PAGE = { type: 'query-param' as const, limit: 'limit', skip: 'skip', sort: 'sort', order: 'order' };
const BASE: Partial<MockApiOptions> = {
  pagination: { GET: PAGE, HEAD: PAGE, DELETE: PAGE, POST: { type: 'body', root: 'query.page', limit: 'limit', skip: 'skip', sort: 'sort', order: 'order' } },
  filters: { ALL: { type: 'query-param', filters: FILTERS }, POST: { type: 'body', root: 'query.where', filters: FILTERS } },
};

describe.each(fsDrivers)('pagination and filters on $name', (driver) => {
  async function engine(extra: Partial<MockApiOptions> = {}) {
    const { vfs } = await driver.setup({ 'people.json': ITEMS, 'object.json': { id: 1, role: 'x' }, 'notes.txt': 'hello' });
    return createMockApi({ endpointPrefix: '/api', fs: vfs, logLevel: 'silent', ...BASE, ...extra });
  }
  const ids = async (api: Awaited<ReturnType<typeof engine>>, query: string) => {
    const r = await see(await api.handle(req('GET', `/api/people?${query}`)));
    expect(r.status, r.text).toBe(200);
    return { ids: (r.json as Array<{ id: number }>).map((p) => p.id), total: r.headers['x-total-count'] };
  };

  it('limit and skip page the array; X-Total-Count counts before paging', async () => {
    const api = await engine();
    expect(await ids(api, 'limit=2')).toEqual({ ids: [1, 2], total: '5' });
    expect(await ids(api, 'limit=2&skip=2')).toEqual({ ids: [3, 4], total: '5' });
    expect(await ids(api, 'skip=4')).toEqual({ ids: [5], total: '5' });
    expect(await ids(api, 'skip=9')).toEqual({ ids: [], total: '5' });
    expect(await ids(api, 'limit=0')).toEqual({ ids: [], total: '5' });
  });

  it('X-Total-Count is the count after filters and before paging', async () => {
    const api = await engine();
    expect(await ids(api, 'role=user&limit=1')).toEqual({ ids: [2], total: '3' });
    expect(await ids(api, 'role=user&limit=1&skip=1')).toEqual({ ids: [3], total: '3' });
  });

  it('without any parameter the file is served as stored', async () => {
    const api = await engine();
    const r = await see(await api.handle(req('GET', '/api/people?unrelated=1')));
    expect(r.json).toEqual(ITEMS);
    expect(r.text).toBe(JSON.stringify(ITEMS, null, 2));
    expect(r.headers['x-total-count']).toBe('5');
  });

  it('invalid limit or skip → 400 naming the parameter', async () => {
    const api = await engine();
    for (const q of ['limit=-1', 'limit=abc', 'limit=1.5', 'skip=-3', 'skip=x']) {
      const r = await see(await api.handle(req('GET', `/api/people?${q}`)));
      expect(r.status, q).toBe(400);
      expect(r.json.message).toMatch(/pagination parameter "(limit|skip)": expected a non-negative integer/);
    }
  });

  it('sorts by a field, asc/desc in any case and 1/-1; stable; missing values last', async () => {
    const api = await engine();
    expect((await ids(api, 'sort=age')).ids).toEqual([2, 4, 1, 3, 5]);
    expect((await ids(api, 'sort=age&order=asc')).ids).toEqual([2, 4, 1, 3, 5]);
    expect((await ids(api, 'sort=age&order=1')).ids).toEqual([2, 4, 1, 3, 5]);
    expect((await ids(api, 'sort=age&order=DESC')).ids).toEqual([3, 1, 2, 4, 5]);
    expect((await ids(api, 'sort=age&order=-1')).ids).toEqual([3, 1, 2, 4, 5]);
    expect((await ids(api, 'sort=address.city')).ids).toEqual([2, 1, 5, 3, 4]);
    expect((await ids(api, 'sort=name&order=desc&limit=2')).ids).toEqual([2, 5]);
    // repeated requests (cached sort views) agree
    expect((await ids(api, 'sort=age&order=desc')).ids).toEqual([3, 1, 2, 4, 5]);
  });

  it('invalid order → 400', async () => {
    const api = await engine();
    const r = await see(await api.handle(req('GET', '/api/people?sort=age&order=up')));
    expect(r.status).toBe(400);
    expect(r.json.message).toContain('"order"');
  });

  it('comparisons: eq, neq, ne, gt, gte, lt, lte', async () => {
    const api = await engine();
    expect((await ids(api, 'id=3')).ids).toEqual([3]);
    expect((await ids(api, 'role=user')).ids).toEqual([2, 3, 5]);
    expect((await ids(api, 'notRole=user')).ids).toEqual([1, 4]);
    expect((await ids(api, 'roleNe=user')).ids).toEqual([1, 4]);
    expect((await ids(api, 'olderThan=30')).ids).toEqual([1, 3]);
    expect((await ids(api, 'minAge=31')).ids).toEqual([1, 3]);
    expect((await ids(api, 'maxAge=31')).ids).toEqual([2, 4]);
    expect((await ids(api, 'upTo=31')).ids).toEqual([1, 2, 4]);
  });

  it('contains is case-insensitive, on strings and on arrays of strings; dot paths', async () => {
    const api = await engine();
    expect((await ids(api, 'name=B')).ids).toEqual([2]);
    expect((await ids(api, 'city=PARIS')).ids).toEqual([1, 3]);
    expect((await ids(api, 'tag=RED')).ids).toEqual([1]);
  });

  it('in / nin: comma-separated or repeated parameters; nin keeps items without the field', async () => {
    const api = await engine();
    expect((await ids(api, 'ids=1,3')).ids).toEqual([1, 3]);
    expect((await ids(api, 'ids=1&ids=4')).ids).toEqual([1, 4]);
    expect((await ids(api, 'roles=admin,guest')).ids).toEqual([1, 4]);
    expect((await ids(api, 'notIds=1,2,3')).ids).toEqual([4, 5]);
  });

  it('boolean and date value types', async () => {
    const api = await engine();
    expect((await ids(api, 'active=true')).ids).toEqual([1, 3, 4]);
    expect((await ids(api, 'active=false')).ids).toEqual([2, 5]);
    expect((await ids(api, 'bornAfter=1999-01-01')).ids).toEqual([2, 4, 5]);
  });

  it('a value of the wrong type → 400 naming the filter', async () => {
    const api = await engine();
    for (const q of ['id=abc', 'active=maybe', 'bornAfter=not-a-date', 'ids=1,x']) {
      const r = await see(await api.handle(req('GET', `/api/people?${q}`)));
      expect(r.status, q).toBe(400);
      expect(r.json.message).toMatch(/for filter "/);
    }
  });

  it('filters AND together and combine with sort and paging', async () => {
    const api = await engine();
    expect(await ids(api, 'role=user&active=true')).toEqual({ ids: [3], total: '1' });
    expect(await ids(api, 'active=true&sort=age&order=desc&limit=2')).toEqual({ ids: [3, 1], total: '3' });
  });

  it('dot paths only follow own properties (no prototype walk)', async () => {
    const api = await engine();
    expect((await ids(api, 'proto=yes')).ids).toEqual([]);
    expect((await ids(api, 'ctor=Object')).ids).toEqual([]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('HEAD answers the filtered page headers', async () => {
    const api = await engine();
    const get = await api.handle(req('GET', '/api/people?role=user&limit=1'));
    const head = await api.handle(req('HEAD', '/api/people?role=user&limit=1'));
    expect(head!.headers.get('x-total-count')).toBe('3');
    expect(head!.headers.get('content-length')).toBe(get!.headers.get('content-length'));
    expect(await head!.text()).toBe('');
  });

  it('HEAD uses the GET configuration when it has none; ALL applies to every method', async () => {
    const { vfs } = await driver.setup({ 'people.json': ITEMS });
    const api = createMockApi({
      endpointPrefix: '/api', fs: vfs, logLevel: 'silent',
      pagination: { GET: PAGE }, filters: { ALL: { type: 'query-param', filters: [{ key: 'role' }] } },
    });
    const head = await api.handle(req('HEAD', '/api/people?role=user&limit=1'));
    expect(head!.headers.get('x-total-count')).toBe('3');
    const get = await api.handle(req('GET', '/api/people?role=user&limit=1'));
    expect(head!.headers.get('content-length')).toBe(get!.headers.get('content-length'));
    const del = await api.handle(req('DELETE', '/api/people?role=admin'));
    expect(del!.headers.get('x-deleted-count')).toBe('1');
  });

  it('a JSON object with filters configured is returned as is', async () => {
    const api = await engine();
    const r = await see(await api.handle(req('GET', '/api/object')));
    expect(r.json).toEqual({ id: 1, role: 'x' });
    const r2 = await see(await api.handle(req('GET', '/api/object?role=y&limit=1')));
    expect(r2.json).toEqual({ id: 1, role: 'x' });
  });

  it('non-JSON files are not filtered', async () => {
    const api = await engine();
    expect((await see(await api.handle(req('GET', '/api/notes.txt?limit=1')))).text).toBe('hello');
  });

  it('without configuration, parameters are ignored', async () => {
    const api = await engine({ pagination: null, filters: null });
    const r = await see(await api.handle(req('GET', '/api/people?limit=1&role=user')));
    expect(r.json).toHaveLength(5);
  });

  describe('POST on an existing JSON array with POST pagination/filters (body type, root)', () => {
    it('answers 200 with the filtered page and leaves the file unchanged', async () => {
      const api = await engine();
      const r = await see(await api.handle(req('POST', '/api/people', { json: { query: { where: { role: 'user' }, page: { limit: 2, skip: 1, sort: 'age', order: 'desc' } } } })));
      expect(r.status).toBe(200);
      expect(r.headers['x-total-count']).toBe('3');
      expect((r.json as Array<{ id: number }>).map((p) => p.id)).toEqual([2, 5]);
      expect((await see(await api.handle(req('GET', '/api/people')))).json).toEqual(ITEMS);
    });

    it('in with a JSON array value', async () => {
      const api = await engine();
      const r = await see(await api.handle(req('POST', '/api/people', { json: { query: { where: { ids: [2, 4] } } } })));
      expect((r.json as Array<{ id: number }>).map((p) => p.id)).toEqual([2, 4]);
    });

    it('without parameters answers the whole array', async () => {
      const api = await engine();
      const r = await see(await api.handle(req('POST', '/api/people', { json: {} })));
      expect(r.status).toBe(200);
      expect(r.json).toEqual(ITEMS);
    });

    it('invalid body pagination → 400', async () => {
      const api = await engine();
      const r = await see(await api.handle(req('POST', '/api/people', { json: { query: { page: { limit: -2 } } } })));
      expect(r.status).toBe(400);
    });

    it('on an absent file, still creates it (201)', async () => {
      const api = await engine();
      const r = await see(await api.handle(req('POST', '/api/new-people', { json: [{ id: 9 }] })));
      expect(r.status).toBe(201);
      expect((await see(await api.handle(req('GET', '/api/new-people')))).json).toEqual([{ id: 9 }]);
    });

    it('on an existing JSON object → 409', async () => {
      const api = await engine();
      const r = await see(await api.handle(req('POST', '/api/object', { json: { a: 1 } })));
      expect(r.status).toBe(409);
      expect(r.json.message).toBe('File at /api/object already exists');
    });
  });

  it('sorting is deterministic for mixed value types', async () => {
    const { vfs } = await driver.setup({ 'mixed.json': [{ id: 1, v: 'b' }, { id: 2, v: 3 }, { id: 3, v: null }, { id: 4 }, { id: 5, v: true }, { id: 6, v: 'a' }, { id: 7, v: 1 }, { id: 8, v: { x: 1 } }, { id: 9, v: false }] });
    const api = createMockApi({ endpointPrefix: '/api', fs: vfs, logLevel: 'silent', pagination: { GET: PAGE } });
    const asc = await see(await api.handle(req('GET', '/api/mixed?sort=v')));
    expect((asc.json as Array<{ id: number }>).map((p) => p.id)).toEqual([7, 2, 6, 1, 9, 5, 8, 3, 4]);
    const desc = await see(await api.handle(req('GET', '/api/mixed?sort=v&order=desc')));
    expect((desc.json as Array<{ id: number }>).map((p) => p.id)).toEqual([2, 7, 1, 6, 5, 9, 8, 3, 4]);
  });
});
