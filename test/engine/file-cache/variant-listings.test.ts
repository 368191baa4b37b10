/**
 * The folder listings of query variants (src/engine/file-cache/variant-listings.ts): a write forgets only
 * the listings it can change, so a write-heavy folder is not listed again after every write, and
 * a variant file that appears is still served at once.
 */
import { describe, expect, it } from 'vitest';
import { createMockApi } from '../../../src/engine/create-mock-api.js';
import { VariantListings } from '../../../src/engine/file-cache/variant-listings.js';
import { memoryFs } from '../../../src/vfs/memory.js';

const pagination = { GET: { type: 'query-param' as const, limit: 'limit', skip: 'skip' } };
const req = (method: string, path: string, body?: unknown) =>
  new Request(`http://localhost${path}`, body === undefined ? { method } : { method, body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } });

describe('VariantListings', () => {
  const list = (names: string[]) => async () => names;

  it('keeps a folder listing across changes of names without the mark; forgets it for a marked name, the folder itself or a folder above', async () => {
    const l = new VariantListings(undefined);
    expect([...(await l.read('api', '@', list(['users.json', 'users@page=2.json', 'x@a=1.txt'])))]).toEqual(['users', 'x']);
    l.changed('api/items.json');
    l.changed('api/other/deep.json');
    expect(l.now('api')).toBeDefined();
    l.changed('api/users@page=3.json');
    expect(l.now('api')).toBeUndefined();

    await l.read('api/sub', '@', list([]));
    l.changed('api');
    expect(l.now('api/sub')).toBeUndefined();
    await l.read('api/sub', '@', list([]));
    l.changed('');
    expect(l.now('api/sub')).toBeUndefined();
  });

  it('does not keep a listing that a change spoiled while it was read', async () => {
    const l = new VariantListings(undefined);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const reading = l.read('api', '@', async () => {
      await gate;
      return ['users.json'];
    });
    l.changed('api/users@page=2.json');
    release();
    expect([...(await reading)]).toEqual([]);
    expect(l.now('api')).toBeUndefined();
  });

  it('trusts a listing for ttlMs on a driver that files change behind', async () => {
    const l = new VariantListings(1000);
    await l.read('api', '@', list([]));
    expect(l.now('api')).toBeDefined();
    const at = performance.now();
    const real = performance.now.bind(performance);
    performance.now = () => at + 1001;
    try {
      expect(l.now('api')).toBeUndefined();
    } finally {
      performance.now = real;
    }
  });
});

describe('variant listings in the engine', () => {
  it('POST/DELETE cycles in one folder list it once per new name at most (the lookup), not again for the variants; a variant written later is served at once', async () => {
    const fs = memoryFs({ 'api/tmp/keep.json': { id: 'keep' }, 'api/users.json': [{ id: 1 }, { id: 2 }, { id: 3 }] });
    let listings = 0;
    const readdir = fs.readdir.bind(fs);
    fs.readdir = async (p: string) => {
      listings++;
      return readdir(p);
    };
    const api = createMockApi({ endpointPrefix: '/api', fsDir: 'api', fs, logLevel: 'silent', pagination });
    try {
      expect((await api.handle(req('GET', '/api/tmp/keep')))!.status).toBe(200);
      const before = listings;
      const cycles = 10;
      for (let i = 0; i < cycles; i++) {
        expect((await api.handle(req('POST', `/api/tmp/n${i}`, { id: `n${i}` })))!.status).toBe(201);
        expect((await api.handle(req('DELETE', `/api/tmp/n${i}`)))!.status).toBe(204);
      }
      // One listing per POST (the lookup of a name not yet there reads its folder for other
      // extensions); the variant listing of the folder survives the writes (before: 3 a cycle).
      expect(listings - before).toBeLessThanOrEqual(cycles + 1);

      expect(await (await api.handle(req('GET', '/api/users?skip=1&limit=1')))!.json()).toEqual([{ id: 2 }]);
      await fs.write('api/users@limit=1&skip=1.json', new TextEncoder().encode('{"variant":true}'));
      expect(await (await api.handle(req('GET', '/api/users?skip=1&limit=1')))!.json()).toEqual({ variant: true });
    } finally {
      await api.close();
    }
  });
});
