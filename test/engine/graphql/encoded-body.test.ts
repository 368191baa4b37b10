/**
 * A GraphQL POST whose body is compressed (Content-Encoding: gzip) is read as every other layer
 * reads request bodies (core/content-encoding.ts); another coding is a 415.
 */
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { createMockApi } from '../../../src/engine/create-mock-api.js';
import { memoryFs } from '../../../src/vfs/memory.js';

describe('GraphQL: Content-Encoding of request bodies', () => {
  it('a gzip JSON query is answered; br is a 415', async () => {
    const api = createMockApi({ endpointPrefix: '/api', fs: memoryFs({ 'posts.json': [{ id: 1, title: 'a' }] }), preset: 'json-server', logLevel: 'silent' });
    const post = (body: Uint8Array, coding: string) => api.handle(new Request('http://x/api/graphql', { method: 'POST', body: body as BodyInit, headers: { 'content-type': 'application/json', 'content-encoding': coding } }));
    const r = (await post(gzipSync(JSON.stringify({ query: '{ allPosts { id title } }' })), 'gzip'))!;
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({ data: { allPosts: [{ id: '1', title: 'a' }] } }); // ID is a string in GraphQL
    expect((await post(new TextEncoder().encode('{}'), 'br'))!.status).toBe(415);
    await api.close();
  });
});
