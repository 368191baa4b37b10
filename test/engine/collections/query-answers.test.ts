/**
 * A json-server query asked again on the same version of the file is answered as the first time
 * (body, X-Total-Count, Link naming the request's own URL), from either walk of the pipeline; a
 * write to the collection, or an edit of the file through the Vfs, makes the next answer new.
 */
import { describe, expect, it } from 'vitest';
import { createMockApi } from '../../../src/engine/create-mock-api.js';
import { memoryFs } from '../../../src/vfs/memory.js';
import { req, see } from '../../helpers/engine-request.js';

const users = Array.from({ length: 40 }, (_, i) => ({ id: i + 1, role: i % 2 ? 'admin' : 'guest', age: 20 + i }));

describe('json-server query answers', () => {
  it('repeat while the file stays; follow writes and outside edits', async () => {
    const fs = memoryFs({ 'users.json': users });
    const api = createMockApi({ endpointPrefix: '/api', fs, preset: 'json-server', logLevel: 'silent' });
    const q = '/api/users?role=admin&age_gte=30&_page=2&_limit=3';
    const first = await see(await api.handle(req('GET', q)));
    expect(first.headers['x-total-count']).toBe('15');
    expect(first.json.map((u: { id: number }) => u.id)).toEqual([18, 20, 22]);
    expect(first.headers.link).toContain('<http://mock.test/api/users?role=admin&age_gte=30&_page=3&_limit=3>; rel="next"');
    for (let i = 0; i < 3; i++) {
      const cached = api.handleCached?.(req('GET', q));
      const again = await see(cached ?? (await api.handle(req('GET', q))));
      expect(again).toEqual(first);
    }
    // Another host name: its own Link header.
    const other = await see(await api.handle(new Request(`http://other.test${q}`)));
    expect(other.headers.link).toContain('<http://other.test/api/users?');
    expect(other.text).toBe(first.text);

    expect((await api.handle(req('POST', '/api/users', { json: { id: 0.5, role: 'admin', age: 99 } })))!.status).toBe(201);
    const afterWrite = await see(await api.handle(req('GET', q)));
    expect(afterWrite.headers['x-total-count']).toBe('16');

    await fs.write('users.json', new TextEncoder().encode(JSON.stringify(users.slice(0, 10))));
    const afterEdit = await see(await api.handle(req('GET', q)));
    expect(afterEdit.headers['x-total-count']).toBe('0');
    expect(afterEdit.json).toEqual([]);
    await api.close();
  });
});
