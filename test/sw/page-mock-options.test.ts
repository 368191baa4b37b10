/**
 * Browser mode and `proxy`: the page's mock API forwards (answers `undefined`, which the worker
 * turns into a network request) instead of fetching the target itself.
 */
import { describe, expect, it } from 'vitest';
import { OptionsError } from '../../src/core/options.js';
import { createMockApi } from '../../src/engine/create-mock-api.js';
import { pageMockOptions } from '../../src/sw/engines.js';
import { memoryFs } from '../../src/vfs/memory.js';

describe('pageMockOptions', () => {
  it('replaces proxy with forward: an unanswered request is undefined (the worker lets it through)', async () => {
    const options = pageMockOptions({ endpointPrefix: '/api', fs: memoryFs({ 'a.json': { a: 1 } }), logLevel: 'silent' as const, proxy: { target: 'https://staging.example.com' } });
    expect(options.proxy).toBeUndefined();
    expect(options.noHandledRestFsRequestsAction).toBe('forward');
    const api = createMockApi(options);
    expect(api.layers).not.toContain('proxy');
    expect(await (await api.handle(new Request('http://page.local/api/a')))!.json()).toEqual({ a: 1 });
    expect(await api.handle(new Request('http://page.local/api/missing'))).toBeUndefined();
    await api.close();
  });

  it('writes naming nothing the mocks hold are passed to the network too; writes to mocks stay in the page', async () => {
    const fs = memoryFs({ 'users/1.json': { id: 1 } });
    const api = createMockApi(pageMockOptions({ endpointPrefix: '/api', fs, logLevel: 'silent' as const, proxy: { target: 'https://staging.example.com' } }));
    const post = (path: string) => api.handle(new Request(`http://page.local/api${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"id":7}' }));
    expect(await post('/orders')).toBeUndefined();
    expect((await post('/users/7'))!.status).toBe(201);
    expect(JSON.parse(new TextDecoder().decode(await fs.read('/users/7.json')))).toEqual({ id: 7 });
    expect(await fs.stat('/orders.json')).toBeNull();
    await api.close();
  });

  it('still validates proxy; leaves options without proxy alone', () => {
    expect(() => pageMockOptions({ endpointPrefix: '/api', proxy: { target: 'nope' } })).toThrow(OptionsError);
    const plain = { endpointPrefix: '/api' };
    expect(pageMockOptions(plain)).toBe(plain);
  });
});
