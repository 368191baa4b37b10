/**
 * api.observe(listener): one Exchange per request under the prefixes, on the fast path
 * (handleCached) and the promise path, with `answeredBy` recorded by the layer that answered.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMockApi, type MockApi } from '../../src/engine/create-mock-api.js';
import type { Exchange } from '../../src/core/exchange.js';
import type { MockApiOptions } from '../../src/engine/mock-api-options.js';
import { memoryFs } from '../../src/vfs/memory.js';
import { req, see } from '../helpers/engine-request.js';

const opened: MockApi[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((a) => a.close()));
});

function observed(options: Partial<MockApiOptions> = {}): { api: MockApi; seen: Exchange[] } {
  const api = createMockApi({ endpointPrefix: '/api', fs: memoryFs({ 'mocks/users.json': [{ id: 1 }] }), fsDir: 'mocks', logLevel: 'silent', ...options });
  opened.push(api);
  const seen: Exchange[] = [];
  api.observe((x) => seen.push(x));
  return { api, seen };
}

describe('api.observe', () => {
  it('reports file answers on the promise path and on the fast path, with the file below fsDir', async () => {
    const { api, seen } = observed();
    await api.ready();
    const first = req('GET', '/api/users?x=1');
    const res = await api.handle(first);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ method: 'GET', pathname: '/api/users', search: '?x=1', status: 200, answeredBy: { layer: 'files', detail: 'users.json' } });
    expect(seen[0]!.request).toBe(first);
    expect(seen[0]!.response).toBe(res);
    expect(typeof seen[0]!.ms).toBe('number');
    expect(seen[0]!.ms).toBeGreaterThanOrEqual(0);
    const cached = api.handleCached(req('HEAD', '/api/users'));
    expect(cached?.status).toBe(200); // answered on the fast path…
    expect(seen).toHaveLength(2); // …and observed there
    expect(seen[1]).toMatchObject({ method: 'HEAD', status: 200, answeredBy: { layer: 'files', detail: 'users.json' } });
  });

  it('handlers (FS handlers too) record their label; writes record the files layer; the 404 and forwarding are reported', async () => {
    const { api, seen } = observed({
      handlers: [
        { pattern: '/hello', method: 'GET', handle: () => ({ hi: true }) },
        { pattern: '/people', method: 'GET', handle: 'FS', rewrite: () => '/users' },
      ],
    });
    await api.handle(req('GET', '/api/hello'));
    expect((await see(await api.handle(req('GET', '/api/people')))).json).toEqual([{ id: 1 }]);
    await api.handle(req('POST', '/api/things', { json: { a: 1 } }));
    await api.handle(req('GET', '/api/nothing'));
    expect(seen.map((x) => [x.status, x.answeredBy])).toEqual([
      [200, { layer: 'handlers', detail: 'GET /hello' }],
      [200, { layer: 'handlers', detail: 'GET /people' }],
      [201, { layer: 'files', detail: undefined }],
      [404, { layer: 'not-found', detail: undefined }],
    ]);
    const fwd = observed({ noHandledRestFsRequestsAction: 'forward' });
    await fwd.api.ready();
    expect(await fwd.api.handle(req('GET', '/api/nothing'))).toBeUndefined();
    expect(fwd.seen).toHaveLength(1);
    expect(fwd.seen[0]).toMatchObject({ status: undefined, answeredBy: undefined, response: undefined });
  });

  it('requests outside the prefixes are not reported; unsubscribing stops the reports', async () => {
    const { api, seen } = observed();
    await api.handle(req('GET', '/elsewhere'));
    expect(seen).toHaveLength(0);
    const more: Exchange[] = [];
    const stop = api.observe((x) => more.push(x));
    await api.handle(req('GET', '/api/users'));
    stop();
    await api.handle(req('GET', '/api/users'));
    expect(more).toHaveLength(1);
    expect(seen).toHaveLength(2);
  });

  it('a failing observer is logged and changes no answer', async () => {
    const errors: string[] = [];
    const api = createMockApi({ endpointPrefix: '/api', fs: memoryFs({ 'a.json': { a: 1 } }), logLevel: 'error', logger: { error: (m: string) => void errors.push(m), warn() {}, info() {} } });
    opened.push(api);
    api.observe(() => {
      throw new Error('observer broke');
    });
    expect((await see(await api.handle(req('GET', '/api/a')))).json).toEqual({ a: 1 });
    expect(api.handleCached(req('GET', '/api/a'))?.status).toBe(200);
    expect(errors.filter((m) => m.includes('observer broke'))).toHaveLength(2);
  });

  it('nobody observing: no clock is read; an observer turns timing on', async () => {
    const api = createMockApi({
      endpointPrefix: '/api', fsDir: null, logLevel: 'silent', journal: false, // the journal is an observer too
      handlers: [{ pattern: '/x', handle: () => ({}) }],
    });
    opened.push(api);
    await api.handle(req('GET', '/api/x')); // warm: whatever is set up once
    const clock = vi.spyOn(performance, 'now');
    try {
      await api.handle(req('GET', '/api/x'));
      expect(clock).not.toHaveBeenCalled();
      const seen: Exchange[] = [];
      api.observe((e) => seen.push(e));
      await api.handle(req('GET', '/api/x'));
      expect(clock).toHaveBeenCalled();
      expect(seen).toHaveLength(1);
      expect(seen[0]!.ms).toBeGreaterThanOrEqual(0);
    } finally {
      clock.mockRestore();
    }
  });

  it('the debug access log is an observer: cached answers are logged too', async () => {
    const lines: string[] = [];
    const api = createMockApi({ endpointPrefix: '/api', fs: memoryFs({ 'a.json': { a: 1 } }), logLevel: 'debug', logger: { debug: (m: string) => void lines.push(m), error() {}, warn() {}, info() {} } });
    opened.push(api);
    await api.ready();
    await api.handle(req('GET', '/api/a'));
    expect(api.handleCached(req('GET', '/api/a?q'))?.status).toBe(200);
    expect(lines.filter((l) => /^\[mockyard\] GET \/api\/a(\?q)? 200 \d+\.\dms$/.test(l))).toHaveLength(2);
  });
});
