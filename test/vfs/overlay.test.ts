import { afterEach, describe, expect, it } from 'vitest';
import { assembleMockApi, createMockApi, type MockApi } from '../../src/engine/create-mock-api.js';
import { memoryFs } from '../../src/vfs/memory.js';
import { overlayFs } from '../../src/vfs/overlay.js';
import { isVfsError, type Vfs } from '../../src/vfs/types.js';
import { req, see } from '../helpers/engine-request.js';
import { vfsContract } from './contract.js';

// The overlay is a full Vfs: over an empty base, and over a base holding unrelated files.
vfsContract('overlay (empty base)', () => ({ vfs: overlayFs(memoryFs(), memoryFs()) }));
vfsContract('overlay (base with other files)', () => ({ vfs: overlayFs(memoryFs(), memoryFs({ 'zz-base/keep.txt': 'base', 'zz-base.json': [1] })) }));

const text = async (vfs: Vfs, path: string) => new TextDecoder().decode(await vfs.read(path));
const codeOf = async (p: Promise<unknown>) => p.then(() => 'ok', (err: unknown) => (isVfsError(err) ? err.code : 'other'));

function layered() {
  const base = memoryFs({ 'users.json': 'base users', 'only-base.txt': 'base', 'dir/a.txt': 'base a', 'dir/b.txt': 'base b', 'log.txt': 'one\n' });
  const top = memoryFs({ 'users.json': 'top users', 'only-top.txt': 'top', 'dir/c.txt': 'top c' });
  return { base, top, vfs: overlayFs(top, base) };
}

describe('overlayFs specifics', () => {
  it('reads the top first, then the base; folders list the union', async () => {
    const { vfs } = layered();
    expect(await text(vfs, 'users.json')).toBe('top users');
    expect(await text(vfs, 'only-base.txt')).toBe('base');
    expect(await text(vfs, 'only-top.txt')).toBe('top');
    expect((await vfs.stat('only-base.txt'))?.kind).toBe('file');
    expect((await vfs.readdir('dir')).map((e) => e.name)).toEqual(['a.txt', 'b.txt', 'c.txt']);
    expect((await vfs.readdir('')).map((e) => e.name)).toEqual(['dir', 'log.txt', 'only-base.txt', 'only-top.txt', 'users.json']);
    expect(await codeOf(vfs.read('nothing'))).toBe('ENOENT');
  });

  it('writes go to the top; the base is never written', async () => {
    const { vfs, top, base } = layered();
    await vfs.write('only-base.txt', 'changed');
    expect(await text(vfs, 'only-base.txt')).toBe('changed');
    expect(await text(top, 'only-base.txt')).toBe('changed');
    expect(await text(base, 'only-base.txt')).toBe('base');
    expect(await codeOf(vfs.create('dir/a.txt', 'x'))).toBe('EEXIST'); // present in the base
    await vfs.create('new/file.txt', 'n');
    expect(await base.stat('new/file.txt')).toBeNull();
    await vfs.mkdir('made/here');
    expect((await top.stat('made/here'))?.kind).toBe('dir');
  });

  it('append copies a base-only file up first; concurrent appends lose nothing', async () => {
    const { vfs, base } = layered();
    await Promise.all(['two\n', 'three\n', 'four\n'].map((l) => vfs.append('log.txt', l)));
    const lines = (await text(vfs, 'log.txt')).split('\n').filter(Boolean);
    expect(lines[0]).toBe('one');
    expect(lines.slice(1).sort()).toEqual(['four', 'three', 'two']);
    expect(await text(base, 'log.txt')).toBe('one\n');
  });

  it('remove hides a base entry (a whiteout) until it is written again; the base keeps it', async () => {
    const { vfs, base } = layered();
    const seen: string[] = [];
    vfs.onChange((p) => seen.push(p));
    expect(await vfs.remove('only-base.txt')).toBe(true);
    expect(seen).toEqual(['only-base.txt']);
    expect(await vfs.stat('only-base.txt')).toBeNull();
    expect(await codeOf(vfs.read('only-base.txt'))).toBe('ENOENT');
    expect((await vfs.readdir('')).map((e) => e.name)).not.toContain('only-base.txt');
    expect(await vfs.remove('only-base.txt')).toBe(false);
    expect(await text(base, 'only-base.txt')).toBe('base');
    await vfs.write('only-base.txt', 'back');
    expect(await text(vfs, 'only-base.txt')).toBe('back');
    // a file in both: removing it removes the top's and hides the base's
    expect(await vfs.remove('users.json')).toBe(true);
    expect(await vfs.stat('users.json')).toBeNull();
  });

  it('a removed folder hides the base content below it; written into again, it shows only the new content', async () => {
    const { vfs } = layered();
    expect(await codeOf(vfs.remove('dir'))).toBe('ENOTEMPTY');
    expect(await vfs.remove('dir', { recursive: true })).toBe(true);
    expect(await vfs.stat('dir/a.txt')).toBeNull();
    expect(await codeOf(vfs.readdir('dir'))).toBe('ENOENT');
    await vfs.write('dir/new.txt', 'n');
    expect((await vfs.readdir('dir')).map((e) => e.name)).toEqual(['new.txt']);
    expect(await vfs.stat('dir/a.txt')).toBeNull();
  });

  it('passes on the base\'s change events and closes without closing its parts', async () => {
    const { vfs, base, top } = layered();
    const seen: string[] = [];
    vfs.onChange((p) => seen.push(p));
    await base.write('only-base.txt', 'edited below');
    expect(seen).toEqual(['only-base.txt']);
    expect(await text(vfs, 'only-base.txt')).toBe('edited below');
    await vfs.close?.();
    await top.write('x.txt', 'x');
    expect(seen).toEqual(['only-base.txt']);
    expect(await text(top, 'x.txt')).toBe('x');
  });

  it('is exclusive only when both sides are', () => {
    expect(overlayFs(memoryFs(), memoryFs()).exclusive).toBe(true);
    const notExclusive = Object.assign(Object.create(memoryFs()) as Vfs, { exclusive: false });
    expect(overlayFs(memoryFs(), notExclusive).exclusive).toBe(false);
  });
});

describe('the mock API over an overlay (a scenario is the same parts over another Vfs)', () => {
  const apis: MockApi[] = [];
  afterEach(async () => {
    await Promise.all(apis.splice(0).map((a) => a.close()));
  });

  it('serves the scenario file over the base, writes into the scenario, and invalidates on base edits', async () => {
    const base = memoryFs({ 'users.json': [{ id: 1, name: 'base' }], 'posts.json': [{ id: 1 }] });
    const scenario = memoryFs({ 'users.json': [] });
    const api = createMockApi({ endpointPrefix: '/api', fs: overlayFs(scenario, base), logLevel: 'silent' });
    apis.push(api);
    expect((await see(await api.handle(req('GET', '/api/users')))).json).toEqual([]);
    expect((await see(await api.handle(req('GET', '/api/posts')))).json).toEqual([{ id: 1 }]);
    expect((await api.handle(req('PUT', '/api/posts', { json: [{ id: 2 }] })))?.status).toBe(200);
    expect(JSON.parse(await text(scenario, 'posts.json'))).toEqual([{ id: 2 }]);
    expect(JSON.parse(await text(base, 'posts.json'))).toEqual([{ id: 1 }]);
    expect((await api.handle(req('DELETE', '/api/users')))?.status).toBe(204);
    // the scenario's users.json is gone and the base's is hidden: no users any more
    expect((await api.handle(req('GET', '/api/users')))?.status).toBe(404);
    expect((await see(await api.handle(req('GET', '/api/posts')))).json).toEqual([{ id: 2 }]);
    expect((await see(api.handleCached(req('GET', '/api/posts')))).json).toEqual([{ id: 2 }]); // cached: fast path
    // an edit of the base reaches the engine's cache through the overlay's change events
    expect((await api.handle(req('GET', '/api/extra')))?.status).toBe(404); // a remembered miss
    expect(api.handleCached(req('GET', '/api/extra'))?.status).toBe(404);
    await base.write('posts.json', '[{"id":"hidden"}]'); // shadowed by the scenario's posts.json
    await base.write('extra.json', '[{"id":"new"}]');
    expect((await see(await api.handle(req('GET', '/api/extra')))).json).toEqual([{ id: 'new' }]);
    expect((await see(await api.handle(req('GET', '/api/posts')))).json).toEqual([{ id: 2 }]);
  });

  it('two files layers over different Vfs roots live side by side in one list, each with its own cache', async () => {
    const base = memoryFs({ 'users.json': [{ id: 1 }], 'posts.json': [{ id: 1 }] });
    const scenario = memoryFs({ 'users.json': [{ id: 'scenario' }] });
    const api = assembleMockApi({ endpointPrefix: '/api', fs: base, logLevel: 'silent' }, {
      arrange: (b, more) => {
        const s = more({ vfs: scenario, fsDir: '', filesName: 'scenario-files' });
        return [b.handlers, s.files, b.files];
      },
    });
    apis.push(api);
    expect(api.layers).toEqual(['handlers', 'scenario-files', 'files']);
    const seen: Array<string | undefined> = [];
    api.observe((x) => seen.push(x.answeredBy?.layer));
    expect((await see(await api.handle(req('GET', '/api/users')))).json).toEqual([{ id: 'scenario' }]);
    expect((await see(await api.handle(req('GET', '/api/posts')))).json).toEqual([{ id: 1 }]);
    // both cached (the scenario's miss for /posts too): both answered on the fast path
    expect((await see(api.handleCached(req('GET', '/api/users')))).json).toEqual([{ id: 'scenario' }]);
    expect(api.handleCached(req('GET', '/api/posts'))?.status).toBe(200);
    expect(seen).toEqual(['scenario-files', 'files', 'scenario-files', 'files']);
  });
});
