/**
 * indexedDbFs on fake-indexeddb: what is specific to this driver (seed only on a new database,
 * reset, binary round trip, one transaction per write, changes from another tab). The shared Vfs
 * contract runs in indexeddb-contract.test.ts; the same driver runs on Chromium's real
 * IndexedDB in test/e2e.
 */
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { indexedDbFs, type IndexedDbVfs } from '../../src/vfs/indexeddb.js';
import type { SeedTree } from '../../src/vfs/seed.js';
import { isVfsError } from '../../src/vfs/types.js';

let seq = 0;
const open: IndexedDbVfs[] = [];
function fresh(seed?: SeedTree, name = `t${++seq}-${Math.random()}`) {
  const fs = indexedDbFs(name, { seed });
  open.push(fs);
  return { fs, name };
}
afterEach(async () => {
  await Promise.all(open.splice(0).map((fs) => fs.close?.()));
});

const text = (b: Uint8Array) => new TextDecoder().decode(b);

describe('indexedDbFs', () => {
  it('serves the seed tree: objects as JSON, strings as text, bytes as bytes', async () => {
    const bytes = new Uint8Array([0, 1, 2, 253, 254, 255]);
    const { fs } = fresh({ 'users.json': [{ id: 1 }], 'notes/readme.txt': 'hello', 'img/a.bin': bytes });
    expect(JSON.parse(text(await fs.read('users.json')))).toEqual([{ id: 1 }]);
    expect(text(await fs.read('notes/readme.txt'))).toBe('hello');
    expect(Array.from(await fs.read('img/a.bin'))).toEqual(Array.from(bytes));
    expect(await fs.readdir('')).toEqual([
      { name: 'img', kind: 'dir' },
      { name: 'notes', kind: 'dir' },
      { name: 'users.json', kind: 'file' },
    ]);
    expect((await fs.stat('notes'))?.kind).toBe('dir');
    expect(fs.driver).toBe('indexeddb');
    expect(fs.exclusive).toBe(true);
  });

  it('writes the seed only when the database is new: a reopen with the same seed keeps the changes', async () => {
    const { fs, name } = fresh({ 'a.json': { v: 1 } });
    await fs.write('a.json', '{"v":2}');
    await fs.write('b.txt', 'new');
    await fs.close!();
    const info = vi.spyOn(console, 'info').mockImplementation(() => {});
    try {
      const again = indexedDbFs(name, { seed: { 'a.json': { v: 1 } } });
      open.push(again);
      expect(text(await again.read('a.json'))).toBe('{"v":2}');
      expect(text(await again.read('b.txt'))).toBe('new');
      expect(info).not.toHaveBeenCalled();
    } finally {
      info.mockRestore();
    }
  });

  it('a changed seed re-seeds the database and says which files changed in one console line', async () => {
    const { fs, name } = fresh({ 'a.json': { v: 1 }, 'same.json': [1] });
    await fs.write('a.json', '{"v":2}');
    await fs.write('b.txt', 'new');
    await fs.close!();
    const info = vi.spyOn(console, 'info').mockImplementation(() => {});
    try {
      const again = indexedDbFs(name, { seed: { 'a.json': { v: 3 }, 'same.json': [1], 'c.txt': 'added' } });
      open.push(again);
      const heard: string[] = [];
      again.onChange((p) => heard.push(p));
      expect(JSON.parse(text(await again.read('a.json')))).toEqual({ v: 3 });
      expect(text(await again.read('c.txt'))).toBe('added');
      expect(await again.stat('b.txt')).toBeNull();
      expect(heard).toEqual(['']);
      expect(info).toHaveBeenCalledTimes(1);
      const line = String(info.mock.calls[0]![0]);
      expect(line).not.toContain('\n');
      expect(line).toContain(`indexedDbFs('${name}')`);
      expect(line).toContain('(a.json, c.txt)');
      expect(line).toContain("onSeedChange: 'keep'");
      await again.write('a.json', '{"v":4}');
      await again.close!();
      // The database now remembers the new seed: the same seed again keeps the edit, silently.
      const third = indexedDbFs(name, { seed: { 'a.json': { v: 3 }, 'same.json': [1], 'c.txt': 'added' } });
      open.push(third);
      expect(text(await third.read('a.json'))).toBe('{"v":4}');
      expect(info).toHaveBeenCalledTimes(1);
    } finally {
      info.mockRestore();
    }
  });

  it("onSeedChange: 'keep' keeps the data on a changed seed; reset() loads the new seed", async () => {
    const { fs, name } = fresh({ 'a.json': { v: 1 } });
    await fs.write('a.json', '{"v":2}');
    await fs.close!();
    const info = vi.spyOn(console, 'info').mockImplementation(() => {});
    try {
      const again = indexedDbFs(name, { seed: { 'a.json': { v: 1 }, 'c.txt': 'new seed file' }, onSeedChange: 'keep' });
      open.push(again);
      expect(text(await again.read('a.json'))).toBe('{"v":2}');
      expect(await again.stat('c.txt')).toBeNull();
      expect(info).toHaveBeenCalledTimes(1);
      expect(String(info.mock.calls[0]![0])).toMatch(/seed changed \(c\.txt\); kept the data/);
      await again.reset();
      expect(text(await again.read('c.txt'))).toBe('new seed file');
      expect(() => indexedDbFs(name, { onSeedChange: 'never' as 'keep' })).toThrow(/onSeedChange/);
    } finally {
      info.mockRestore();
    }
  });

  it('a handle opened without a seed never re-seeds (another tab, a storage folder)', async () => {
    const { fs, name } = fresh({ 'a.json': { v: 1 } });
    await fs.write('a.json', '{"v":2}');
    await fs.close!();
    const plain = indexedDbFs(name);
    open.push(plain);
    expect(text(await plain.read('a.json'))).toBe('{"v":2}');
  });

  it('reset() restores the seed, removes everything else and raises a change', async () => {
    const { fs } = fresh({ 'a.json': { v: 1 }, 'dir/x.txt': 'x' });
    await fs.write('a.json', '{"v":2}');
    await fs.remove('dir', { recursive: true });
    await fs.write('extra/y.txt', 'y');
    const seen: string[] = [];
    fs.onChange((p) => seen.push(p));
    await fs.reset();
    expect(JSON.parse(text(await fs.read('a.json')))).toEqual({ v: 1 });
    expect(text(await fs.read('dir/x.txt'))).toBe('x');
    expect(await fs.stat('extra')).toBeNull();
    expect(seen).toEqual(['']);
  });

  it('round-trips every byte value, and stores only the bytes of a view', async () => {
    const { fs } = fresh();
    const all = new Uint8Array(256).map((_, i) => i);
    await fs.write('bin/all.bin', all);
    expect(Array.from(await fs.read('bin/all.bin'))).toEqual(Array.from(all));
    const big = new Uint8Array(1000).fill(7);
    const view = big.subarray(10, 13);
    await fs.write('view.bin', view);
    const back = await fs.read('view.bin');
    expect(back.byteLength).toBe(3);
    expect((await fs.stat('view.bin'))?.size).toBe(3);
  });

  it('a failed write changes nothing (one transaction): no half-created parents', async () => {
    const { fs } = fresh({ 'file.txt': 'x' });
    await expect(fs.write('file.txt/child/deep.txt', 'y')).rejects.toSatisfy((e) => isVfsError(e, 'ENOTDIR'));
    await expect(fs.create('file.txt', 'z')).rejects.toSatisfy((e) => isVfsError(e, 'EEXIST'));
    expect(text(await fs.read('file.txt'))).toBe('x');
    expect(await fs.readdir('')).toEqual([{ name: 'file.txt', kind: 'file' }]);
  });

  it('concurrent appends lose nothing', async () => {
    const { fs } = fresh();
    await Promise.all(Array.from({ length: 50 }, (_, i) => fs.append('log/a.jsonl', `${i}\n`)));
    const lines = text(await fs.read('log/a.jsonl')).trim().split('\n').map(Number).sort((a, b) => a - b);
    expect(lines).toEqual(Array.from({ length: 50 }, (_, i) => i));
  });

  it('replacing a file gives it a new ino; appending keeps it', async () => {
    const { fs } = fresh();
    await fs.write('a.txt', '1');
    const s1 = await fs.stat('a.txt');
    await fs.append('a.txt', '2');
    const s2 = await fs.stat('a.txt');
    await fs.write('a.txt', '3');
    const s3 = await fs.stat('a.txt');
    expect(s2?.ino).toBe(s1?.ino);
    expect(s3?.ino).not.toBe(s1?.ino);
    expect(s2?.size).toBe(2);
  });

  it('removes a directory recursively but not a sibling sharing its name prefix', async () => {
    const { fs } = fresh({ 'a/1.txt': '1', 'a/b/2.txt': '2', 'a-b/3.txt': '3', 'ab.txt': 'x' });
    await expect(fs.remove('a')).rejects.toSatisfy((e) => isVfsError(e, 'ENOTEMPTY'));
    expect(await fs.remove('a', { recursive: true })).toBe(true);
    expect(await fs.stat('a/b/2.txt')).toBeNull();
    expect(text(await fs.read('a-b/3.txt'))).toBe('3');
    expect(text(await fs.read('ab.txt'))).toBe('x');
    expect(await fs.remove('a')).toBe(false);
  });

  it('uses the shared path rules: traversal is EINVAL', async () => {
    const { fs } = fresh();
    await expect(fs.write('../escape.txt', 'x')).rejects.toSatisfy((e) => isVfsError(e, 'EINVAL'));
    await expect(fs.read('a\\b')).rejects.toSatisfy((e) => isVfsError(e, 'EINVAL'));
  });

  it('hears changes made by another instance on the same database (another tab)', async () => {
    const { fs, name } = fresh({ 'a.json': [] });
    const other = indexedDbFs(name);
    open.push(other);
    const heard = new Promise<string>((resolve) => fs.onChange(resolve));
    await other.write('a.json', '[1]');
    expect(await heard).toBe('a.json');
    expect(text(await fs.read('a.json'))).toBe('[1]');
  });

  it('fails with VfsError EIO once closed, never a raw IndexedDB error', async () => {
    const { fs } = fresh({ 'a.txt': 'x' });
    await fs.read('a.txt');
    await fs.close!();
    await expect(fs.read('a.txt')).rejects.toSatisfy((e) => isVfsError(e, 'EIO'));
    await expect(fs.write('b.txt', 'y')).rejects.toSatisfy((e) => isVfsError(e, 'EIO'));
  });
});
