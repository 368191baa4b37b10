/**
 * The match memo (query.ts): pages of one filter reuse the matches, and nothing stale survives a
 * change to the file, whoever makes it. Each case checks against a plain in-test computation.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createMockApi } from '../../src/engine/create-mock-api.js';
import type { MockApiOptions } from '../../src/engine/types.js';
import { req, see } from '../helpers/engine-request.js';
import { fsDrivers } from '../helpers/mock-fs-drivers.js';
import { removeTempDirs } from '../helpers/temp-dir.js';

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
