/** json-server's query syntax (preset) on arrays, and the mock API's CORS option. */
import { describe, expect, it } from 'vitest';
import { createMockApi } from '../../../src/engine/create-mock-api.js';
import { parseJsonServerQuery } from '../../../src/engine/collections/json-server-query.js';
import { runQuery } from '../../../src/engine/store/query.js';
import { memoryFs } from '../../../src/vfs/memory.js';
import { req, see } from '../../helpers/engine-request.js';

const items = [
  { id: 1, name: 'Ada', age: 36, tags: ['math'], address: { city: 'London' } },
  { id: 2, name: 'Alan', age: 41, tags: ['crypto', 'math'] },
  { id: 3, name: 'Grace', age: 85, address: { city: 'New York' } },
  { id: '4', name: 'linus', age: 9 },
];
const run = (qs: string) => runQuery(items, parseJsonServerQuery(new URLSearchParams(qs)));
const ids = (qs: string) => run(qs).items.map((i: any) => i.id);

describe('json-server query syntax', () => {
  it('equality as text, repeated = OR, dot paths, array fields', () => {
    expect(ids('id=4')).toEqual(['4']);
    expect(ids('id=1&id=3')).toEqual([1, 3]);
    expect(ids('address.city=London')).toEqual([1]);
    expect(ids('tags=crypto')).toEqual([2]);
  });
  it('ranges numerically on numbers, _ne keeps missing fields, _like is a case-insensitive RegExp', () => {
    expect(ids('age_gte=36&age_lte=41')).toEqual([1, 2]);
    expect(ids('age_gt=36')).toEqual([2, 3]);
    expect(ids('age:lt=36')).toEqual(['4']);
    expect(ids('address.city_ne=London')).toEqual([2, 3, '4']);
    expect(ids('name_like=^a')).toEqual([1, 2]);
    expect(() => run('name_like=(')).toThrow(/regular expression/);
  });
  it('q searches every value, nested too, any case', () => {
    expect(ids('q=YORK')).toEqual([3]);
    expect(ids('q=crypto')).toEqual([2]);
  });
  it('sorts by comma lists (asc/desc, -field), stable, missing values last', () => {
    expect(ids('_sort=address.city&_order=desc')).toEqual([3, 1, 2, '4']);
    expect(ids('_sort=-age')).toEqual([3, 2, 1, '4']);
    expect(ids('_sort=name&_order=ASC')).toEqual([1, 2, 3, '4']);
    expect(ids('_sort=age&_order=up')).toEqual(['4', 1, 2, 3]); // json-server 0.17: an unknown order is ascending
  });
  it('pages and slices as json-server 0.17 reads numbers (parseInt, never refused); total counts before paging', () => {
    expect(run('_page=2&_limit=3')).toEqual({ items: [items[3]], total: 4 });
    expect(ids('_start=1&_end=3')).toEqual([2, 3]);
    expect(ids('_start=2&_limit=1')).toEqual([3]);
    expect(ids('_limit=2')).toEqual([1, 2]);
    expect(ids('_page=0&_limit=3')).toEqual([1, 2, 3]); // page 1
    expect(ids('_page=abc&_limit=3')).toEqual([1, 2, 3]);
    expect(ids('_limit=-1')).toEqual([1, 2, 3]); // Array.slice(0, -1)
    expect(ids('_limit=x')).toEqual([]);
  });
  it("1.x: _page with _per_page answers the envelope; page clamped into range", () => {
    expect(run('_page=1&_per_page=3').envelope).toEqual({ first: 1, prev: null, next: 2, last: 2, pages: 2, items: 4, data: items.slice(0, 3) });
    expect(run('_page=9&_per_page=3').envelope).toMatchObject({ prev: 1, next: null, data: [items[3]] });
  });
  it('1.x operators: :in, :contains, :startsWith, :endsWith (any case), :eq on nested fields', () => {
    expect(ids('id:in=1,4')).toEqual([1, '4']);
    expect(ids('name:contains=LA')).toEqual([2]);
    expect(ids('name:startsWith=a')).toEqual([1, 2]);
    expect(ids('name:endsWith=E')).toEqual([3]);
    expect(ids('address.city:eq=London')).toEqual([1]);
    expect(ids('age:gte=41')).toEqual([2, 3]);
  });
  it('_where: or / and lists, operators, nested objects; it replaces the field filters; not JSON is a 400', () => {
    const where = (w: unknown, more = '') => ids(`_where=${encodeURIComponent(JSON.stringify(w))}${more}`);
    expect(where({ or: [{ age: { gt: 80 } }, { name: { eq: 'Ada' } }] })).toEqual([1, 3]);
    expect(where({ and: [{ age: { gt: 20 } }, { age: { lt: 50 } }] })).toEqual([1, 2]);
    expect(where({ address: { city: { startsWith: 'new' } } })).toEqual([3]);
    expect(where({ name: 'linus' }, '&name=Ada')).toEqual(['4']);
    expect(() => run('_where={nope')).toThrow(/_where must be a JSON object/);
  });
  it('0.17: an equality filter on a field no item has is ignored (operators are not)', () => {
    expect(ids('nothing=1')).toEqual([1, 2, 3, '4']);
    expect(ids('nothing=1&id=2')).toEqual([2]);
    expect(ids('nothing_gte=1')).toEqual([]);
  });
});

describe('without the preset', () => {
  it('query parameters keep the configured meaning (no json-server filters)', async () => {
    const api = createMockApi({ endpointPrefix: '/api', fs: memoryFs({ 'users.json': items }), collections: true, logLevel: 'silent' });
    expect((await see(await api.handle(req('GET', '/api/users?name=Ada&_limit=1')))).json).toHaveLength(4);
    await api.close();
  });
});

describe('mock.cors', () => {
  it('is off by default: OPTIONS is the spec 405, no CORS headers', async () => {
    const api = createMockApi({ endpointPrefix: '/api', fs: memoryFs({ 'a.json': [] }), logLevel: 'silent' });
    const r = await api.handle(req('OPTIONS', '/api/a', { headers: { origin: 'http://x.test', 'access-control-request-method': 'GET' } }));
    expect(r!.status).toBe(405);
    expect((await api.handle(req('GET', '/api/a', { headers: { origin: 'http://x.test' } })))!.headers.get('access-control-allow-origin')).toBeNull();
    await api.close();
  });
  it('reflects allowed origins on every answer (fast path and errors too) and refuses the others', async () => {
    const api = createMockApi({ endpointPrefix: '/api', fs: memoryFs({ 'a.json': [] }), logLevel: 'silent', cors: { origins: ['http://app.test'], credentials: true } });
    await api.handle(req('GET', '/api/a'));
    const fast = api.handleCached(req('GET', '/api/a', { headers: { origin: 'http://app.test' } }));
    expect(fast!.headers.get('access-control-allow-origin')).toBe('http://app.test');
    expect(fast!.headers.get('access-control-allow-credentials')).toBe('true');
    const missing = await api.handle(req('GET', '/api/nope', { headers: { origin: 'http://app.test' } }));
    expect(missing!.status).toBe(404);
    expect(missing!.headers.get('access-control-allow-origin')).toBe('http://app.test');
    const pre = await api.handle(req('OPTIONS', '/api/a', { headers: { origin: 'http://other.test', 'access-control-request-method': 'PUT' } }));
    expect(pre!.status).toBe(403);
    expect(await api.handle(req('OPTIONS', '/elsewhere', { headers: { origin: 'http://app.test', 'access-control-request-method': 'PUT' } }))).toBeUndefined();
    await api.close();
  });
  it('never combines credentials with every origin', () => {
    expect(() => createMockApi({ endpointPrefix: '/api', fs: memoryFs(), cors: { origins: '*', credentials: true } })).toThrow(/mock\.cors\.credentials/);
  });
});
