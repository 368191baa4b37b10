/**
 * Under the json-server preset a DELETE takes the item's children along, from every sibling
 * collection — one created after the first delete too (the folder's listing is kept between
 * deletes, and a new file there is seen); collections holding no child are not rewritten.
 */
import { describe, expect, it } from 'vitest';
import { createMockApi } from '../../../src/engine/create-mock-api.js';
import { memoryFs } from '../../../src/vfs/memory.js';
import { req, see } from '../../helpers/engine-request.js';

describe('DELETE cascade (preset)', () => {
  it('removes children from each sibling, new siblings included; leaves the others untouched', async () => {
    const fs = memoryFs({
      'posts.json': [{ id: 1 }, { id: 2 }, { id: 3 }],
      'comments.json': [{ id: 10, postId: 1 }, { id: 11, postId: 2 }, { id: 12, postId: '1' }],
      'tags.json': [{ id: 20, name: 'x' }],
    });
    const writes: string[] = [];
    fs.onChange((p) => writes.push(p));
    const api = createMockApi({ endpointPrefix: '/api', fs, preset: 'json-server', logLevel: 'silent' });
    expect((await api.handle(req('DELETE', '/api/posts/1')))!.status).toBe(200);
    expect((await see(await api.handle(req('GET', '/api/comments')))).json).toEqual([{ id: 11, postId: 2 }]);
    expect(writes.sort()).toEqual(['comments.json', 'posts.json']); // tags hold no child: not rewritten

    await fs.write('notes.json', new TextEncoder().encode(JSON.stringify([{ id: 30, postId: 2 }, { id: 31, postId: 3 }])));
    expect((await api.handle(req('DELETE', '/api/posts/2')))!.status).toBe(200);
    expect((await see(await api.handle(req('GET', '/api/notes')))).json).toEqual([{ id: 31, postId: 3 }]);
    expect((await see(await api.handle(req('GET', '/api/comments')))).json).toEqual([]);
    await api.close();
  });
});
