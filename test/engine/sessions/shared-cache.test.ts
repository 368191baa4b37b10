/**
 * A session's file cache shares the base's entries for the files the session did not change
 * (file-cache.ts SharedBelow): reading a file in many sessions reads it from the filesystem once;
 * a session's first write keeps its own version, which only that session sees.
 */
import { describe, expect, it } from 'vitest';
import { createMockApi } from '../../../src/engine/create-mock-api.js';
import { memoryFs } from '../../../src/vfs/memory.js';
import type { Vfs } from '../../../src/vfs/types.js';

function counting(vfs: Vfs): { vfs: Vfs; reads: () => number } {
  let reads = 0;
  const wrapped: Vfs = Object.create(vfs);
  wrapped.read = (path) => {
    reads++;
    return vfs.read(path);
  };
  return { vfs: wrapped, reads: () => reads };
}

const get = (api: ReturnType<typeof createMockApi>, path: string, session?: string, init: RequestInit = {}) =>
  api.handle(new Request(`http://mock.test/api${path}`, { ...init, headers: { ...(session ? { 'x-mockyard-session': session } : {}), ...(init.headers as Record<string, string>) } }));

describe('session file caches over the base cache', () => {
  it('many sessions reading the same collection load it once; a write stays in its session', async () => {
    const { vfs, reads } = counting(memoryFs({ 'users.json': [{ id: 1, name: 'Ada' }, { id: 2, name: 'Bob' }] }));
    const api = createMockApi({ endpointPrefix: '/api', fs: vfs, collections: true, logLevel: 'silent' });
    try {
      expect((await get(api, '/users/1'))!.status).toBe(200);
      const once = reads();
      for (let i = 0; i < 20; i++) expect(await (await get(api, '/users/2', `s${i}`))!.json()).toEqual({ id: 2, name: 'Bob' });
      expect(reads()).toBe(once);
      const patched = await get(api, '/users/2', 's0', { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: '{"name":"B0"}' });
      expect(patched!.status).toBe(200);
      expect(await (await get(api, '/users/2', 's0'))!.json()).toEqual({ id: 2, name: 'B0' });
      expect(await (await get(api, '/users/2', 's1'))!.json()).toEqual({ id: 2, name: 'Bob' });
      expect(await (await get(api, '/users/2'))!.json()).toEqual({ id: 2, name: 'Bob' });
      expect(reads()).toBe(once);
      expect(api.sessions.get('s0')).toMatchObject({ changes: 1, files: 1 });
      expect(api.sessions.get('s1')).toMatchObject({ changes: 0, files: 0 });
    } finally {
      await api.close();
    }
  });
});
