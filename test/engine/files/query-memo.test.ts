/**
 * The match memo (query.ts): pages of one filter reuse the matches, and nothing stale survives a
 * change to the file, whoever makes it. Each case checks against a plain in-test computation.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createMockApi } from '../../../src/engine/create-mock-api.js';
import type { MockApiOptions } from '../../../src/engine/mock-api-options.js';
import { req, see } from '../../helpers/engine-request.js';
import { fsDrivers } from '../../helpers/mock-fs-drivers.js';
import { removeTempDirs } from '../../helpers/temp-dir.js';

afterAll(removeTempDirs);

interface Person { id: number; name: string; role: string; age: number }
const ROLES = ['admin', 'user', 'guest'];
const PEOPLE: Person[] = Array.from({ length: 300 }, (_, i) => ({ id: i + 1, name: `n${(i * 7919) % 300}`, role: ROLES[i % 3]!, age: 18 + ((i * 31) % 50) }));
const PAGE = { type: 'query-param' as const, limit: 'limit', skip: 'skip', sort: 'sort', order: 'order' };
const OPTIONS: Partial<MockApiOptions> = {
  pagination: { GET: PAGE },
  filters: { GET: { type: 'query-param', filters: [{ key: 'role' }, { key: 'age', valueType: 'number', comparison: 'gte' }] } },
};

function expected(items: Person[], role: string, age: number, sort?: 'name', desc = false): number[] {
  const hits = items.filter((p) => p.role === role && p.age >= age);
  if (sort) hits.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0) * (desc ? -1 : 1));
  return hits.map((p) => p.id);
}

describe.each(fsDrivers)('match memo on $name', (driver) => {
  async function setup(extra: Partial<MockApiOptions> = {}) {
    const { vfs, dir } = await driver.setup({ 'people.json': PEOPLE });
    const api = createMockApi({ endpointPrefix: '/api', fs: vfs, logLevel: 'silent', ...OPTIONS, ...extra });
    const page = async (query: string) => {
      const r = await see(await api.handle(req('GET', `/api/people?${query}`)));
      expect(r.status, r.text).toBe(200);
      return { ids: (r.json as Person[]).map((p) => p.id), total: Number(r.headers['x-total-count']) };
    };
    return { api, page, dir, vfs };
  }

  it('pages through one filter, sorted both ways and unsorted, with the right items and total', async () => {
    const { page } = await setup();
    for (const [sort, desc] of [[undefined, false], ['name', false], ['name', true]] as const) {
      const all = expected(PEOPLE, 'user', 40, sort, desc);
      const order = sort ? `&sort=${sort}&order=${desc ? 'DESC' : 'asc'}` : '';
      const seen: number[] = [];
      for (let skip = 0; skip < all.length + 10; skip += 10) {
        const r = await page(`role=user&age=40&skip=${skip}&limit=10${order}`);
        expect(r.total).toBe(all.length);
        seen.push(...r.ids);
      }
      expect(seen).toEqual(all);
    }
  });

  it('never answers from matches of a file that has changed since (engine write)', async () => {
    const { api, page } = await setup();
    const before = await page('role=admin&age=18&limit=500');
    expect(before.ids).toEqual(expected(PEOPLE, 'admin', 18));
    // Turn person 2 (a user) into an admin through the engine.
    const patch = await api.handle(req('PATCH', '/api/people', { json: [{ op: 'replace', path: '/1/role', value: 'admin' }], headers: { 'content-type': 'application/json-patch+json' } }));
    expect(patch?.status).toBe(200);
    const changed = PEOPLE.map((p) => (p.id === 2 ? { ...p, role: 'admin' } : p));
    const after = await page('role=admin&age=18&limit=500');
    expect(after.ids).toEqual(expected(changed, 'admin', 18));
    expect(after.total).toBe(before.total + 1);
  });

  it('keeps the matches of different filter configs apart, even with the same parameters (an FS handler with its own filters)', async () => {
    const { page, api } = await setup({
      handlers: [{ pattern: '/not-people', method: 'GET', handle: 'FS', rewrite: () => '/people', filters: { GET: { type: 'query-param', filters: [{ key: 'role', comparison: 'neq' }, { key: 'age', valueType: 'number', comparison: 'lte' }] } } }],
    });
    const eq = await page('role=guest');
    const r = await see(await api.handle(req('GET', '/api/not-people?role=guest')));
    const neq = (r.json as Person[]).map((p) => p.id);
    expect(eq.ids).toEqual(PEOPLE.filter((p) => p.role === 'guest').map((p) => p.id));
    expect(neq).toEqual(PEOPLE.filter((p) => p.role !== 'guest').map((p) => p.id));
  });

  it('answers a page asked again with the same bytes and headers; HEAD keeps the length; a refused query stays refused', async () => {
    const { api } = await setup();
    const q = '/api/people?role=user&age=30&skip=5&limit=7&sort=name';
    const first = await see(await api.handle(req('GET', q)));
    const again = await see(await api.handle(req('GET', q)));
    expect(again.text).toBe(first.text);
    expect(again.headers).toEqual(first.headers);
    expect((first.json as Person[]).map((p) => p.id)).toEqual(expected(PEOPLE, 'user', 30, 'name').slice(5, 12));
    expect(first.headers['x-total-count']).toBe(String(expected(PEOPLE, 'user', 30).length));
    const head = await api.handle(req('HEAD', q));
    expect(head?.headers.get('content-length')).toBe(String(new TextEncoder().encode(first.text).byteLength));
    expect(await head?.text()).toBe('');
    for (let i = 0; i < 2; i++) {
      const bad = await see(await api.handle(req('GET', '/api/people?role=user&age=old')));
      expect(bad.status).toBe(400);
    }
  });

  it('keeps pages of different pagination configs apart for one filter config (an FS handler paging with its own parameters)', async () => {
    const { api, page } = await setup({
      handlers: [{ pattern: '/paged', method: 'GET', handle: 'FS', rewrite: () => '/people', pagination: { GET: { type: 'query-param', limit: 'skip', skip: 'limit' } } }],
    });
    // The same query string: `skip=2&limit=3` means skip 2, limit 3 under /people, and limit 2, skip 3 under /paged.
    const plain = await page('role=admin&skip=2&limit=3');
    const swapped = await see(await api.handle(req('GET', '/api/paged?role=admin&skip=2&limit=3')));
    const admins = PEOPLE.filter((p) => p.role === 'admin').map((p) => p.id);
    expect(plain.ids).toEqual(admins.slice(2, 5));
    expect((swapped.json as Person[]).map((p) => p.id)).toEqual(admins.slice(3, 5));
  });

  it.runIf(driver.name === 'disk')('sees an edit made behind the engine\'s back', async () => {
    const { page, dir, vfs } = await setup();
    // Observe the driver's change reports to the engine, to wait for the real event (no sleep).
    let reports = 0;
    let wake: (() => void) | undefined;
    const watch = vfs.watch!.bind(vfs);
    vfs.watch = (path, report) => watch(path, (ended) => {
      report(ended);
      reports++;
      wake?.();
    });
    expect((await page('role=guest&age=18&limit=1000')).total).toBe(100);
    const edited = PEOPLE.map((p) => ({ ...p, role: 'guest' }));
    reports = 0;
    const reported = new Promise<void>((resolve) => (wake = resolve));
    await writeFile(join(dir!, 'people.json'), JSON.stringify(edited));
    if (reports === 0) await reported;
    expect((await page('role=guest&age=18&limit=1000')).total).toBe(300);
  });
});
