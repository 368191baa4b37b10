/**
 * `store.list` runs on the store's compiled scan (scan.ts `listEntry`, with the match memo) and
 * answers exactly what the plain filter-sort-slice (`runListQuery`) answers, on items of every
 * JSON type, non-objects among them; and through the store of a real mock API.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createMockApi, type MockApi } from '../../../src/engine/create-mock-api.js';
import { buildEntry } from '../../../src/engine/file-cache/file-cache.js';
import type { ListQuery } from '../../../src/engine/store-contract/contract.js';
import { runListQuery } from '../../../src/engine/store/list-query.js';
import { listEntry } from '../../../src/engine/store/scan.js';
import { memoryFs } from '../../../src/vfs/memory.js';

const apis: MockApi[] = [];
afterEach(async () => {
  await Promise.all(apis.splice(0).map((a) => a.close()));
});

const values = [0, 1, 30, 30.5, 65, -2, '30', '65', '', 'admin', 'Admin', 'b', 'a', null, true, false, [30, 'admin'], { x: 1 }];
const pick = (i: number, k: number) => values[(i * 7 + k * 13 + ((i * k) % 5)) % values.length];

function entryOf(items: unknown[]) {
  const bytes = new TextEncoder().encode(JSON.stringify(items));
  return buildEntry('posts.json', { kind: 'file', size: bytes.byteLength, mtimeMs: 1 } as never, bytes);
}

const queries: ListQuery[] = [
  {},
  { filter: { views: '65' } },
  { filter: { views: 65 } },
  { filter: { views_gt: 29 } },
  { filter: { views_lte: '30', role_neq: 'admin' } },
  { filter: { role: ['admin', 'b'] } },
  { filter: { ids: ['1', 3, 7] } },
  { filter: { q: 'ADM' } },
  { filter: { q: 'adm', views_gte: 0 }, sort: { field: 'views', order: 'desc' } },
  { sort: { field: 'role' } },
  { sort: { field: 'views', order: 'desc' }, offset: 3, limit: 5 },
  { filter: { views_lt: 31 }, offset: 2 },
  { filter: { views_lt: 31 }, limit: 0 },
  { filter: { missing: 1 } },
];

describe('store.list on the scan', () => {
  it('answers what runListQuery answers, twice (the second time from the match memo)', () => {
    const items: unknown[] = Array.from({ length: 60 }, (_, i) => ({ id: i, views: pick(i, 1), role: pick(i, 2) }));
    const mixed: unknown[] = [...items.slice(0, 20), null, 3, 'text', [1], ...items.slice(20)];
    for (const data of [items, mixed]) {
      const entry = entryOf(data);
      for (const q of queries) {
        const expected = runListQuery(entry.array!, 'id', q);
        expect(listEntry(entry, 'id', q), JSON.stringify(q)).toEqual(expected);
        expect(listEntry(entry, 'id', q), `again ${JSON.stringify(q)}`).toEqual(expected);
      }
    }
    expect(() => listEntry(entryOf(items), 'id', { offset: -1 })).toThrow(/offset must be an integer/);
  });

  it('never hands out the stored array', () => {
    const entry = entryOf([{ id: 1 }, { id: 2 }]);
    const r = listEntry(entry, 'id');
    expect(r.items).not.toBe(entry.array);
    expect(r.items).toEqual(entry.array);
  });

  it('through a mock API: filter, sort and page; a write makes a new snapshot, the old one unchanged', async () => {
    const posts = Array.from({ length: 30 }, (_, i) => ({ id: i + 1, views: (i * 37) % 100, title: `Post ${i + 1}` }));
    const api = createMockApi({ fs: memoryFs({ 'posts.json': posts } as never), endpointPrefix: '/api', collections: true, logLevel: 'silent' });
    apis.push(api);
    const store = api.app.store;
    const q: ListQuery = { filter: { views_gt: 40 }, sort: { field: 'views', order: 'desc' }, offset: 2, limit: 4 };
    expect(await store.list('posts', q)).toEqual(runListQuery(posts, 'id', q));
    const before = await store.open('posts');
    expect(before).not.toBeNull();
    expect(store.peek('posts')).toBe(before);
    expect(store.peek('/posts')).toBe(before); // a request path names the same collection
    await store.insert('posts', { views: 99, title: 'New' });
    const after = store.peek('posts') ?? (await store.open('posts'));
    expect(after).not.toBe(before);
    expect(after!.items).toHaveLength(31);
    expect(before!.items).toHaveLength(30);
    expect(after!.get(31)).toEqual({ id: 31, views: 99, title: 'New' });
    expect((await store.list('posts', { filter: { title: 'New' } })).items.map((p) => p.id)).toEqual([31]);
    expect(await store.open('nope')).toBeNull();
  });
});
