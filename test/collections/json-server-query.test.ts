/** json-server's query syntax (preset) on arrays, and the mock API's CORS option. */
import { describe, expect, it } from 'vitest';
import { createMockApi } from '../../src/engine/create-mock-api.js';
import { parseJsonServerQuery, runJsonServerQuery } from '../../src/engine/collections/json-server-query.js';
import { memoryFs } from '../../src/vfs/memory.js';
import { req, see } from '../helpers/engine-request.js';

const items = [
  { id: 1, name: 'Ada', age: 36, tags: ['math'], address: { city: 'London' } },
  { id: 2, name: 'Alan', age: 41, tags: ['crypto', 'math'] },
  { id: 3, name: 'Grace', age: 85, address: { city: 'New York' } },
  { id: '4', name: 'linus', age: 9 },
];
const run = (qs: string) => runJsonServerQuery(items, parseJsonServerQuery(new URLSearchParams(qs)));
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
    expect(() => run('_sort=age&_order=up')).toThrow(/_order/);
  });
  it('pages and slices; total counts before paging; bad numbers are 400s', () => {
    expect(run('_page=2&_limit=3')).toEqual({ items: [items[3]], total: 4 });
    expect(ids('_start=1&_end=3')).toEqual([2, 3]);
    expect(ids('_start=2&_limit=1')).toEqual([3]);
    expect(ids('_limit=2')).toEqual([1, 2]);
    expect(ids('_page=1&_per_page=1')).toEqual([1]);
    expect(() => run('_page=0')).toThrow(/_page must be an integer >= 1/);
    expect(() => run('_limit=x')).toThrow(/_limit/);
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
