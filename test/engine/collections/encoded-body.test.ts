/**
 * A json-server collection reads a compressed request body as file mode and handlers do
 * (core/content-encoding.ts: gzip/deflate decoded, another coding 415), in the engine every host uses.
 */
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { createMockApi } from '../../../src/engine/create-mock-api.js';
import { memoryFs } from '../../../src/vfs/memory.js';

describe('collections: Content-Encoding of request bodies', () => {
  it('a gzip JSON POST is stored decoded; an unknown coding is a 415', async () => {
    const api = createMockApi({ endpointPrefix: '/api', fs: memoryFs({ 'posts.json': [] }), preset: 'json-server', logLevel: 'silent' });
    const post = (body: Uint8Array, coding: string) => api.handle(new Request('http://x/api/posts', { method: 'POST', body: body as BodyInit, headers: { 'content-type': 'application/json', 'content-encoding': coding } }));
    const created = (await post(gzipSync(JSON.stringify({ title: 'zipped' })), 'gzip'))!;
    expect(created.status).toBe(201);
    expect(((await created.json()) as { title: string }).title).toBe('zipped');
    expect((await post(new TextEncoder().encode('{}'), 'br'))!.status).toBe(415);
    await api.close();
  });
});
