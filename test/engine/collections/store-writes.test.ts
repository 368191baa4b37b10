/**
 * The collections layer writes through the store: a handler's `req.app.store.insert` and REST
 * POSTs to the same collection, racing through a real server, are all kept (one queue, unique
 * ids); the folder listing the delete cascade reads is the store's, and its change listener is
 * released when the engine closes.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createMockApi, type MockApi } from '../../../src/engine/create-mock-api.js';
import type { Vfs } from '../../../src/vfs/types.js';
import { memoryFs } from '../../../src/vfs/memory.js';
import { closeServers, startServer } from '../../helpers/server.js';

const apis: MockApi[] = [];
afterEach(async () => {
  await closeServers();
  await Promise.all(apis.splice(0).map((a) => a.close()));
});

/** A memory Vfs that counts the change listeners still subscribed. */
function countingFs(files: Record<string, unknown>): { fs: Vfs; active: () => number } {
  const inner = memoryFs(files as never);
  let active = 0;
  const fs: Vfs = Object.create(inner, {
    onChange: {
      value: (listener: Parameters<Vfs['onChange']>[0]) => {
        active++;
        const stop = inner.onChange(listener);
        let stopped = false;
        return () => {
          if (!stopped) active--;
          stopped = true;
          stop();
        };
      },
    },
  });
  return { fs, active: () => active };
}

describe('collections layer writes through the store', () => {
  it('a handler\'s req.app.store.insert and REST POSTs race on one collection: every item kept, ids unique', async () => {
    const api = createMockApi({
      fs: memoryFs({ 'posts.json': [{ id: 1, title: 'first' }] } as never),
      endpointPrefix: '/api',
      preset: 'json-server',
      logLevel: 'silent',
      handlers: [{ pattern: '/via-store', method: 'POST', handle: async (req, res) => res.status(201).json(await req.app.store.insert('posts', req.body as Record<string, unknown>)) }],
    });
    apis.push(api);
    const base = `${(await startServer({ mock: api })).url}/api`;
    const send = (path: string, i: number) => fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ title: `${path} ${i}` }) });
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => [send('/posts', i), send('/via-store', i)]).flat());
    expect(answers.map((r) => r.status)).toEqual(answers.map(() => 201));
    const rest = answers.filter((_, i) => i % 2 === 0);
    for (const r of rest) expect(r.headers.get('location')).toMatch(/^\/api\/posts\/\d+$/);
    const all = (await (await fetch(`${base}/posts`)).json()) as Array<{ id: number; title: string }>;
    expect(all).toHaveLength(61);
    expect(new Set(all.map((p) => p.id)).size).toBe(61);
    expect(all.filter((p) => p.title.startsWith('/via-store'))).toHaveLength(30);
    expect(all.filter((p) => p.title.startsWith('/posts'))).toHaveLength(30);
    // A REST POST naming a taken id keeps its 409 and message.
    const taken = await fetch(`${base}/posts`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: 1 }) });
    expect(taken.status).toBe(409);
    expect((await taken.json()).message).toBe('An item with id "1" already exists in /api/posts');
  });

  it('the cascade\'s folder listing follows new files, and lets go of the Vfs when the engine closes', async () => {
    const { fs, active } = countingFs({ 'posts.json': [{ id: 1 }, { id: 2 }], 'comments.json': [{ id: 10, postId: 1 }, { id: 11, postId: 2 }] });
    const api = createMockApi({ fs, endpointPrefix: '/api', preset: 'json-server', logLevel: 'silent' });
    const base = `${(await startServer({ mock: api })).url}/api`;
    expect((await fetch(`${base}/posts/1`, { method: 'DELETE' })).status).toBe(200);
    expect(await (await fetch(`${base}/comments`)).json()).toEqual([{ id: 11, postId: 2 }]);
    await fs.write('notes.json', new TextEncoder().encode(JSON.stringify([{ id: 30, postId: 2 }])));
    expect((await fetch(`${base}/posts/2`, { method: 'DELETE' })).status).toBe(200);
    expect(await (await fetch(`${base}/notes`)).json()).toEqual([]);
    expect(active()).toBeGreaterThan(0);
    await closeServers();
    await api.close();
    expect(active()).toBe(0);
  });
});
