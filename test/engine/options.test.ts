import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { OptionsError } from '../../src/core/options.js';
import { createMockApi } from '../../src/engine/create-mock-api.js';
import { nodeRuntime } from '../../src/node/runtime.js';
import { normalizePrefix, resolveMockApiOptions } from '../../src/engine/options.js';
import { memoryFs } from '../../src/vfs/memory.js';
import { VfsError } from '../../src/vfs/types.js';
import { req, see } from '../helpers/engine-request.js';
import { seedDir } from '../helpers/mock-fs-drivers.js';
import { makeTempDir, removeTempDirs } from '../helpers/temp-dir.js';

afterAll(removeTempDirs);

function sink() {
  return { debug: vi.fn(), info: vi.fn(), warn: vi.fn(), error: vi.fn() };
}
const fs = () => memoryFs({ 'users.json': [{ id: 1 }], 'x.json': {} });

describe('option validation', () => {
  const bad: Array<[Record<string, unknown>, string]> = [
    [{ delay: 'fast' }, 'mock.delay'],
    [{ delay: -1 }, 'mock.delay'],
    [{ gatewayTimeout: 'x' }, 'mock.gatewayTimeout'],
    [{ logLevel: 'loud' }, 'mock.logLevel'],
    [{ noHandledRestFsRequestsAction: '500' }, 'mock.noHandledRestFsRequestsAction'],
    [{ bodyLimit: 1.5 }, 'mock.bodyLimit'],
    [{ pagination: { GET: { type: 'cookie' } } }, 'mock.pagination.GET.type'],
    [{ pagination: { FETCH: { type: 'query-param' } } }, 'mock.pagination.FETCH'],
    [{ pagination: { GET: { type: 'query-param', limt: 'l' } } }, 'mock.pagination.GET.limt'],
    [{ filters: { GET: { type: 'query-param', filters: [{ key: 'a', comparison: 'like' }] } } }, 'mock.filters.GET.filters[0].comparison'],
    [{ filters: { GET: { type: 'query-param', filters: [{ key: 'a', valueType: 'uuid' }] } } }, 'mock.filters.GET.filters[0].valueType'],
    [{ filters: { GET: { type: 'query-param', filters: [{ field: 'a' }] } } }, 'mock.filters.GET.filters[0].key'],
    [{ endpointPrefx: '/api' }, 'mock.endpointPrefx'],
    [{ proxy: 'http://x' }, 'mock.proxy'],
    [{ proxy: {} }, 'mock.proxy.target'],
    [{ proxy: { target: 'ftp://x.example' } }, 'mock.proxy.target'],
    [{ proxy: { target: 'staging' } }, 'mock.proxy.target'],
    [{ proxy: { target: 'http://u:p@x.example' } }, 'mock.proxy.target'],
    [{ proxy: { target: 'http://x.example', timeout: 0 } }, 'mock.proxy.timeout'],
    [{ proxy: { target: 'http://x.example', rewrite: '/v2' } }, 'mock.proxy.rewrite'],
    [{ proxy: { target: 'http://x.example', headers: { 'x-key': 1 } } }, 'mock.proxy.headers.x-key'],
    [{ proxy: { target: 'http://x.example', headers: { 'x-key': 'a\r\nb: c' } } }, 'mock.proxy.headers.x-key'],
    [{ proxy: { target: 'http://x.example', headers: { 'bad name': 'v' } } }, 'mock.proxy.headers'],
    [{ proxy: { target: 'http://x.example', tagret: 1 } }, 'mock.proxy.tagret'],
    [{ proxy: { target: 'http://x.example', record: 'yes' } }, 'mock.proxy.record'],
    [{ proxy: { target: 'http://x.example', record: { overwrite: 1 } } }, 'mock.proxy.record.overwrite'],
    [{ proxy: { target: 'http://x.example', record: { redact: ['bad name'] } } }, 'mock.proxy.record.redact[0]'],
    [{ proxy: { target: 'http://x.example', record: { captureLimit: -1 } } }, 'mock.proxy.record.captureLimit'],
  ];
  for (const [opts, option] of bad) {
    it(`${JSON.stringify(opts)} → OptionsError naming ${option}`, () => {
      let err: unknown;
      try {
        createMockApi({ endpointPrefix: '/api', fs: fs(), logLevel: 'silent', ...opts } as never);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(OptionsError);
      expect((err as OptionsError).option).toBe(option);
      expect((err as Error).message).toContain(`"${option}"`);
    });
  }

  it('normalises filter entries (field defaults to key, eq, string) and method keys', () => {
    const o = resolveMockApiOptions({ endpointPrefix: '/api', filters: { get: { type: 'query-param', filters: [{ key: 'a' }] } } as never });
    expect(o.filters).toEqual({ GET: { type: 'query-param', filters: [{ key: 'a', field: 'a', valueType: 'string', comparison: 'eq' }] } });
  });

  it('enableWs with wsHandlers is fine', () => {
    expect(() => createMockApi({ endpointPrefix: '/api', fs: fs(), enableWs: true, wsHandlers: [{ pattern: '/ws', onMessage() {} }] })).not.toThrow();
  });
});

describe('prefixes', () => {
  it('normalises: leading slash, no trailing slash, collapsed slashes; root prefix', () => {
    expect(normalizePrefix('api')).toBe('/api');
    expect(normalizePrefix('/api/')).toBe('/api');
    expect(normalizePrefix('//api//v1/')).toBe('/api/v1');
    expect(normalizePrefix('/')).toBe('');
    expect(normalizePrefix('/données')).toBe('/donn%C3%A9es');
    for (const bad of ['', '   ', 'a b', '/api?x', '/api#x', '/a/../b', 5, null]) expect(normalizePrefix(bad)).toBeUndefined();
  });

  it('matches on a segment boundary: /api does not match /apix', async () => {
    const api = createMockApi({ endpointPrefix: 'api/', fs: fs(), logLevel: 'silent' });
    expect(api.prefixes).toEqual(['/api']);
    expect((await api.handle(req('GET', '/api/users')))!.status).toBe(200);
    expect(await api.handle(req('GET', '/apix/users'))).toBeUndefined();
    expect(await api.handle(req('GET', '/other'))).toBeUndefined();
  });

  it('longest prefix first', async () => {
    const f = memoryFs({ 'v2/users.json': [{ v: 2 }], 'users.json': [{ v: 1 }] });
    const api = createMockApi({ endpointPrefix: ['/api', '/api/v2'], fs: f, logLevel: 'silent', fsDir: '' });
    expect(api.prefixes).toEqual(['/api/v2', '/api']);
    // /api/v2/users is under /api/v2 → users.json at the root
    expect((await see(await api.handle(req('GET', '/api/v2/users')))).json).toEqual([{ v: 1 }]);
    expect((await see(await api.handle(req('GET', '/api/users')))).json).toEqual([{ v: 1 }]);
  });

  it('empty or invalid endpointPrefix disables the engine with one warning', async () => {
    for (const endpointPrefix of ['', [], '   ', 'a b', undefined]) {
      const logger = sink();
      const api = createMockApi({ endpointPrefix: endpointPrefix as never, fs: fs(), logger });
      expect(await api.handle(req('GET', '/api/users'))).toBeUndefined();
      expect(await api.handle(req('GET', '/users'))).toBeUndefined();
      expect(api.prefixes).toEqual([]);
      expect(logger.warn).toHaveBeenCalledTimes(1);
      expect(logger.warn.mock.calls[0]![0]).toMatch(/endpointPrefix/);
    }
  });

  it('invalid entries in a list are dropped with one warning', async () => {
    const logger = sink();
    const api = createMockApi({ endpointPrefix: ['/api', 'a b'], fs: fs(), logger });
    expect(api.prefixes).toEqual(['/api']);
    expect(logger.warn).toHaveBeenCalledTimes(1);
  });
});

describe('disable and fsDir', () => {
  it('disable: true → the engine answers nothing (options not checked further)', async () => {
    const api = createMockApi({ disable: true, endpointPrefix: '/api', fs: fs(), delay: 'x' as never });
    expect(await api.handle(req('GET', '/api/users'))).toBeUndefined();
    expect(await api.upgrade(req('GET', '/api/ws'))).toBeUndefined();
    expect(api.prefixes).toEqual([]);
  });

  it('fsDir: null → file routing off (404 JSON, or forward)', async () => {
    const api = createMockApi({ endpointPrefix: '/api', fs: fs(), fsDir: null, logLevel: 'silent' });
    expect(await api.ready()).toBe(false);
    expect((await api.handle(req('GET', '/api/users')))!.status).toBe(404);
    const fwd = createMockApi({ endpointPrefix: '/api', fs: fs(), fsDir: null, noHandledRestFsRequestsAction: 'forward' });
    expect(await fwd.handle(req('GET', '/api/users'))).toBeUndefined();
  });

  it('fsDir is a folder inside fs', async () => {
    const f = memoryFs({ 'mocks/users.json': [{ in: 'mocks' }], 'users.json': [{ in: 'root' }] });
    const api = createMockApi({ endpointPrefix: '/api', fs: f, fsDir: 'mocks', logLevel: 'silent' });
    expect((await see(await api.handle(req('GET', '/api/users')))).json).toEqual([{ in: 'mocks' }]);
    const created = await api.handle(req('POST', '/api/new', { json: { a: 1 } }));
    expect(created!.headers.get('location')).toBe('/api/new.json');
    expect(await f.stat('mocks/new.json')).not.toBeNull();
  });

  it('a missing fsDir → file routing off with one warning; requests get 404, not a crash; a folder that appears later is served', async () => {
    const logger = sink();
    const f = fs();
    const api = createMockApi({ endpointPrefix: '/api', fs: f, fsDir: 'nope', logger });
    expect(await api.ready()).toBe(false);
    expect((await api.handle(req('GET', '/api/users')))!.status).toBe(404);
    expect((await api.handle(req('POST', '/api/users', { json: {} })))!.status).toBe(404);
    expect(logger.warn).toHaveBeenCalledTimes(1);
    expect(logger.warn.mock.calls[0]![0]).toMatch(/fsDir "nope" does not exist/);
    // the folder appears (here through the same Vfs) → file routing is on
    await f.write('nope/users.json', JSON.stringify([{ id: 1 }]));
    expect((await see(await api.handle(req('GET', '/api/users')))).json).toEqual([{ id: 1 }]);
    expect((await api.handle(req('POST', '/api/more', { json: { a: 1 } })))!.status).toBe(201);
    expect(await f.stat('nope/more.json')).not.toBeNull();
    expect(logger.warn).toHaveBeenCalledTimes(1);
    await api.close();
  });

  it('an fsDir that is not allowed or not a folder is reported as such, not as missing', async () => {
    // The disk driver answers EACCES for a folder it may not search (test/vfs/contract.ts proves
    // it as an unprivileged user); here a Vfs that answers so stands in for it.
    const base = fs();
    const denied = { ...base, stat: async (p: string) => { throw new VfsError('EACCES', p); } };
    const logger = sink();
    const api = createMockApi({ endpointPrefix: '/api', fs: denied, fsDir: 'mocks', logger });
    expect(await api.ready()).toBe(false);
    expect(logger.warn.mock.calls[0]![0]).toMatch(/fsDir "mocks" is not accessible \(permission denied\)/);
    const file = memoryFs({ 'mocks': 'a file' });
    const logger2 = sink();
    const api2 = createMockApi({ endpointPrefix: '/api', fs: file, fsDir: 'mocks', logger: logger2 });
    expect(await api2.ready()).toBe(false);
    expect(logger2.warn.mock.calls[0]![0]).toMatch(/fsDir "mocks" is not a folder/);
  });

  it("without fs, the runtime's default factory is used with (fsDir, root)", async () => {
    const calls: unknown[] = [];
    const runtime = {
      defaultFs: (fsDir: string, root: string | undefined) => {
        calls.push([fsDir, root]);
        return memoryFs({ 'hello.json': { from: 'factory' } });
      },
    };
    const api = createMockApi({ endpointPrefix: '/api', fsDir: 'mocks', root: '/proj', logLevel: 'silent' }, runtime);
    expect(calls).toEqual([['mocks', '/proj']]);
    expect((await see(await api.handle(req('GET', '/api/hello')))).json).toEqual({ from: 'factory' });
  });

  it('without fs and without a default in the runtime, fsDir is an OptionsError (browser)', () => {
    expect(() => createMockApi({ endpointPrefix: '/api', fsDir: 'mocks' })).toThrow(/mock\.fs/);
    // without fsDir there is nothing to serve from: fine
    expect(() => createMockApi({ endpointPrefix: '/api', logLevel: 'silent' })).not.toThrow();
  });

  it('the Node default serves fsDir on disk relative to root; a missing one disables file routing', async () => {
    const root = await makeTempDir();
    await seedDir(join(root, 'mocks'), { 'a.json': { disk: true } });
    const ok = createMockApi({ endpointPrefix: '/api', fsDir: 'mocks', root, logLevel: 'silent' }, nodeRuntime);
    expect((await see(await ok.handle(req('GET', '/api/a')))).json).toEqual({ disk: true });
    const abs = createMockApi({ endpointPrefix: '/api', fsDir: join(root, 'mocks'), logLevel: 'silent' }, nodeRuntime);
    expect((await see(await abs.handle(req('GET', '/api/a')))).json).toEqual({ disk: true });
    const logger = sink();
    const missing = createMockApi({ endpointPrefix: '/api', fsDir: 'absent', root, logger }, nodeRuntime);
    expect(await missing.ready()).toBe(false);
    expect(logger.warn).toHaveBeenCalledTimes(1);
    expect(logger.warn.mock.calls[0]![0]).not.toContain(root);
  });
});
