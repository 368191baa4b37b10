/**
 * The Vfs contract, as a reusable suite: `vfsContract('memory', () => ({ vfs: memoryFs() }))`.
 * Every driver (memory, disk, IndexedDB) must pass it unchanged.
 */
import { describe, expect, it } from 'vitest';
import { isVfsError, type Vfs, type VfsErrorCode } from '../../src/vfs/types.js';

export interface VfsDriverHandle {
  vfs: Vfs;
  cleanup?: () => Promise<void> | void;
  /**
   * Takes away the driver's permission to read and search the folder at `path` (a Vfs path),
   * where the driver has permissions (disk). Absent for drivers without permissions (memory,
   * IndexedDB) and where the platform cannot express it (see test/vfs/disk.test.ts): the
   * permission test is then skipped, saying why.
   */
  denyAccess?: (path: string) => Promise<void>;
  /** Why `denyAccess` is absent (shown as the skip note). */
  noDenyAccess?: string;
}
export type VfsDriverFactory = () => Promise<VfsDriverHandle> | VfsDriverHandle;

const enc = new TextEncoder();
const dec = new TextDecoder();

async function code(p: Promise<unknown>): Promise<VfsErrorCode | 'ok' | 'other'> {
  try {
    await p;
    return 'ok';
  } catch (err) {
    return isVfsError(err) ? err.code : 'other';
  }
}

/** Each call fails with VfsError `code`, and its message holds no absolute root path. */
async function expectEachFails(vfs: Vfs, calls: Record<string, () => Promise<unknown>>, expected: VfsErrorCode): Promise<void> {
  for (const [what, call] of Object.entries(calls)) {
    let failed: unknown = 'did not fail';
    try {
      await call();
    } catch (err) {
      failed = err;
    }
    expect(isVfsError(failed) ? failed.code : failed, what).toBe(expected);
    if (vfs.root.startsWith('/')) expect(String((failed as Error).message), what).not.toContain(vfs.root);
  }
}

export function vfsContract(name: string, factory: VfsDriverFactory): void {
  describe(`Vfs contract: ${name}`, () => {
    async function withVfs(fn: (vfs: Vfs, handle: VfsDriverHandle) => Promise<void>): Promise<void> {
      const h = await factory();
      try {
        await fn(h.vfs, h);
      } finally {
        await h.vfs.close?.();
        await h.cleanup?.();
      }
    }

    it('describes itself', () =>
      withVfs(async (vfs) => {
        expect(typeof vfs.driver).toBe('string');
        expect(typeof vfs.exclusive).toBe('boolean');
        expect(typeof vfs.root).toBe('string');
      }));

    it('stat: null when absent; file and dir kinds, size, mtime', () =>
      withVfs(async (vfs) => {
        expect(await vfs.stat('nope.json')).toBeNull();
        await vfs.write('dir/a.txt', 'hello');
        const f = await vfs.stat('dir/a.txt');
        expect(f).toMatchObject({ kind: 'file', size: 5 });
        expect(typeof f!.mtimeMs).toBe('number');
        expect((await vfs.stat('dir'))!.kind).toBe('dir');
        expect((await vfs.stat(''))!.kind).toBe('dir');
      }));

    it('write creates parents; read returns the bytes; binary round trip', () =>
      withVfs(async (vfs) => {
        const all = new Uint8Array(256).map((_, i) => i);
        await vfs.write('a/b/c/bin.dat', all);
        expect(await vfs.read('a/b/c/bin.dat')).toEqual(all);
        await vfs.write('empty.txt', new Uint8Array(0));
        expect((await vfs.read('empty.txt')).byteLength).toBe(0);
        await vfs.write('unicode/héllo wörld.txt', 'ü');
        expect(dec.decode(await vfs.read('unicode/héllo wörld.txt'))).toBe('ü');
      }));

    it('write replaces the whole content', () =>
      withVfs(async (vfs) => {
        await vfs.write('f.txt', 'a long original content');
        await vfs.write('f.txt', 'short');
        expect(dec.decode(await vfs.read('f.txt'))).toBe('short');
        expect((await vfs.stat('f.txt'))!.size).toBe(5);
      }));

    it('concurrent readers see the old or the new bytes, never a mix', () =>
      withVfs(async (vfs) => {
        const a = enc.encode('A'.repeat(64 * 1024));
        const b = enc.encode('B'.repeat(64 * 1024));
        await vfs.write('atomic.txt', a);
        const seen = new Set<string>();
        const writes = Array.from({ length: 10 }, (_, i) => vfs.write('atomic.txt', i % 2 ? a : b));
        const reads = Array.from({ length: 30 }, async () => {
          const bytes = await vfs.read('atomic.txt');
          const s = dec.decode(bytes);
          seen.add(s === dec.decode(a) ? 'A' : s === dec.decode(b) ? 'B' : 'MIX');
        });
        await Promise.all([...writes, ...reads]);
        expect(seen.has('MIX')).toBe(false);
      }));

    it('read: ENOENT when absent, EISDIR for a directory', () =>
      withVfs(async (vfs) => {
        await vfs.mkdir('d');
        expect(await code(vfs.read('absent.txt'))).toBe('ENOENT');
        expect(await code(vfs.read('d'))).toBe('EISDIR');
      }));

    it('a path through a file does not exist: stat null, remove false, the others ENOTDIR (no absolute path)', () =>
      withVfs(async (vfs) => {
        await vfs.write('a.json', '{"v":1}');
        expect(await vfs.stat('a.json/x')).toBeNull();
        expect(await vfs.stat('a.json/x/y.json')).toBeNull();
        expect(await vfs.remove('a.json/x')).toBe(false);
        const calls: Record<string, () => Promise<unknown>> = {
          read: () => vfs.read('a.json/x'),
          'read (deeper)': () => vfs.read('a.json/x/y.json'),
          readdir: () => vfs.readdir('a.json/x'),
          write: () => vfs.write('a.json/x', 'x'),
          'write (deeper)': () => vfs.write('a.json/x/y.json', 'x'),
          create: () => vfs.create('a.json/x', 'x'),
          append: () => vfs.append('a.json/x', 'x'),
          mkdir: () => vfs.mkdir('a.json/x'),
        };
        await expectEachFails(vfs, calls, 'ENOTDIR');
        expect(new TextDecoder().decode(await vfs.read('a.json'))).toBe('{"v":1}');
      }));

    it('a folder without permission: EACCES from stat, read, readdir, write, create, append, remove (never "absent")', (ctx) =>
      withVfs(async (vfs, handle) => {
        if (!handle.denyAccess) {
          ctx.skip(handle.noDenyAccess ?? `${name} has no permissions`);
          return;
        }
        await vfs.write('locked/a.txt', 'a');
        await vfs.write('locked/sub/b.txt', 'b');
        await handle.denyAccess('locked');
        // The folder itself sits in a readable parent: it is seen, its content is not reachable.
        expect((await vfs.stat('locked'))!.kind).toBe('dir');
        const calls: Record<string, () => Promise<unknown>> = {
          stat: () => vfs.stat('locked/a.txt'),
          'stat (absent name)': () => vfs.stat('locked/none.txt'),
          'stat (deeper)': () => vfs.stat('locked/sub/b.txt'),
          read: () => vfs.read('locked/a.txt'),
          readdir: () => vfs.readdir('locked'),
          write: () => vfs.write('locked/a.txt', 'x'),
          'write (new)': () => vfs.write('locked/new.txt', 'x'),
          create: () => vfs.create('locked/new.txt', 'x'),
          append: () => vfs.append('locked/a.txt', 'x'),
          remove: () => vfs.remove('locked/a.txt'),
          'remove (deeper)': () => vfs.remove('locked/sub/b.txt'),
        };
        await expectEachFails(vfs, calls, 'EACCES');
      }));

    it('create: creates when absent, EEXIST when present (content kept)', () =>
      withVfs(async (vfs) => {
        await vfs.create('new/x.json', '{"v":1}');
        expect(dec.decode(await vfs.read('new/x.json'))).toBe('{"v":1}');
        expect(await code(vfs.create('new/x.json', '{"v":2}'))).toBe('EEXIST');
        expect(dec.decode(await vfs.read('new/x.json'))).toBe('{"v":1}');
      }));

    it('create: exactly one of many concurrent creates wins', () =>
      withVfs(async (vfs) => {
        const results = await Promise.all(Array.from({ length: 8 }, (_, i) => code(vfs.create('race.txt', String(i)))));
        expect(results.filter((r) => r === 'ok')).toHaveLength(1);
        expect(results.filter((r) => r === 'EEXIST')).toHaveLength(7);
      }));

    it('append: creates the file and its parents, then appends', () =>
      withVfs(async (vfs) => {
        await vfs.append('logs/a.log', 'one\n');
        await vfs.append('logs/a.log', enc.encode('two\n'));
        expect(dec.decode(await vfs.read('logs/a.log'))).toBe('one\ntwo\n');
      }));

    it('readdir: sorted entries with kinds; ENOENT / ENOTDIR', () =>
      withVfs(async (vfs) => {
        for (const n of ['c.txt', 'a.txt', 'B.txt', 'sub/x.txt']) await vfs.write(`list/${n}`, 'x');
        expect(await vfs.readdir('list')).toEqual([
          { name: 'B.txt', kind: 'file' },
          { name: 'a.txt', kind: 'file' },
          { name: 'c.txt', kind: 'file' },
          { name: 'sub', kind: 'dir' },
        ]);
        expect(await code(vfs.readdir('no-such-dir'))).toBe('ENOENT');
        expect(await code(vfs.readdir('list/a.txt'))).toBe('ENOTDIR');
      }));

    it('remove: true when removed, false when absent; directories need recursive unless empty', () =>
      withVfs(async (vfs) => {
        await vfs.write('rm/a.txt', 'x');
        expect(await vfs.remove('rm/a.txt')).toBe(true);
        expect(await vfs.stat('rm/a.txt')).toBeNull();
        expect(await vfs.remove('rm/a.txt')).toBe(false);
        expect(await vfs.remove('rm')).toBe(true);
        await vfs.write('tree/x/y.txt', 'x');
        expect(await code(vfs.remove('tree'))).not.toBe('ok');
        expect(await vfs.remove('tree', { recursive: true })).toBe(true);
        expect(await vfs.stat('tree')).toBeNull();
      }));

    it('mkdir -p, idempotent', () =>
      withVfs(async (vfs) => {
        await vfs.mkdir('m/n/o');
        await vfs.mkdir('m/n/o');
        expect((await vfs.stat('m/n/o'))!.kind).toBe('dir');
      }));

    it('onChange: called with the path after write, create, append, remove; unsubscribe stops it', () =>
      withVfs(async (vfs) => {
        const seen: string[] = [];
        const off = vfs.onChange((p) => seen.push(p));
        await vfs.write('ch/a.txt', '1');
        await vfs.create('ch/b.txt', '1');
        await vfs.append('ch/c.txt', '1');
        await vfs.remove('ch/a.txt');
        expect(seen).toEqual(['ch/a.txt', 'ch/b.txt', 'ch/c.txt', 'ch/a.txt']);
        off();
        await vfs.write('ch/d.txt', '1');
        expect(seen).toHaveLength(4);
      }));

    it('paths are normalised: leading slash and dot segments accepted', () =>
      withVfs(async (vfs) => {
        await vfs.write('/norm/./a.txt', 'x');
        expect(dec.decode(await vfs.read('norm/a.txt'))).toBe('x');
        expect(dec.decode(await vfs.read('norm//a.txt'))).toBe('x');
      }));

    it('unsafe paths are refused with EINVAL: .., backslash, NUL, drive letters', () =>
      withVfs(async (vfs) => {
        for (const p of ['..', '../x', 'a/../../x', 'a\\..\\x', 'a\\b', 'x\0.txt', 'C:', 'C:/x']) {
          expect(await code(vfs.read(p)), p).toBe('EINVAL');
          expect(await code(vfs.write(p, 'x')), p).toBe('EINVAL');
          expect(await code(vfs.stat(p)), p).toBe('EINVAL');
        }
      }));
  });
}
