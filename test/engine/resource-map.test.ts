/**
 * The resource map (engine/resource-map.ts: the CLI's start-up map, the devtools Routes tab):
 * every top-level file under the URL that serves it.
 */
import { describe, expect, it } from 'vitest';
import { createMockApi } from '../../src/engine/create-mock-api.js';
import { createResourceMap } from '../../src/engine/resource-map.js';
import { memoryFs } from '../../src/vfs/memory.js';

describe('resource map', () => {
  it('lists collections, objects, other files and folders; a query variant under the URL that serves it', async () => {
    const api = createMockApi({
      endpointPrefix: '/api',
      logLevel: 'silent',
      fs: memoryFs({ 'users.json': [{ id: 1 }, { id: 2 }], 'me.json': { id: 1 }, 'notes.txt': 'x', 'search@page=2&q=hello+world.json': [{ id: 3 }], 'items/1.json': { id: 1 } }),
    });
    const map = await createResourceMap(api).get();
    const byName = Object.fromEntries(map.resources.map((r) => [r.name, r]));
    expect(byName['users.json']).toMatchObject({ url: '/api/users', kind: 'collection', count: 2 });
    expect(byName['me.json']).toMatchObject({ url: '/api/me', kind: 'object' });
    expect(byName['notes.txt']).toMatchObject({ url: '/api/notes.txt', kind: 'file' });
    expect(byName['items/']).toMatchObject({ url: '/api/items/', kind: 'folder', count: 1 });
    const variant = byName['search@page=2&q=hello+world.json']!;
    expect(variant).toMatchObject({ url: '/api/search?page=2&q=hello+world', kind: 'collection', count: 1 });
    // and that URL does serve it
    expect(await (await api.handle(new Request(`http://x${variant.url}`)))!.json()).toEqual([{ id: 3 }]);
    await api.close();
  });

  it('lists a recording and a recorded stream under the URL that answers them', async () => {
    const api = createMockApi({
      endpointPrefix: '/api',
      logLevel: 'silent',
      fs: memoryFs({ 'users.json': [{ id: 1 }], 'users@recorded.json': { recorded: [{ request: { method: 'GET', query: 'page=2' }, response: { status: 200, body: [] } }] }, 'chat.sse': 'delay: 0\ndata: a\n\n' }),
    });
    const byName = Object.fromEntries((await createResourceMap(api).get()).resources.map((r) => [r.name, r]));
    expect(byName['users@recorded.json']).toMatchObject({ url: '/api/users', kind: 'recorded', count: 1 });
    expect(byName['chat.sse']).toMatchObject({ url: '/api/chat', kind: 'stream' });
    expect((await api.handle(new Request('http://x/api/chat?__speed=0')))!.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    await api.close();
  });
});
