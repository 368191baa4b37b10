/**
 * The disk driver's link rule walks each folder on the way to a path with `lstat`; within one
 * turn of the event loop a folder seen as a plain folder is not walked again (a POST looks its
 * path up, writes and stats it in one turn), and the next turn walks it afresh, so a folder
 * swapped for a link leading outside is refused as before.
 */
import fs from 'node:fs';
import { mkdir, rename, symlink, writeFile } from 'node:fs/promises';
import { syncBuiltinESMExports } from 'node:module';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { diskFs } from '../../src/vfs/disk.js';
import { makeTempDir, removeTempDirs } from '../helpers/temp-dir.js';

afterAll(removeTempDirs);

const original = fs.lstatSync;
let lstats: string[] = [];
function countLstat(): void {
  lstats = [];
  (fs as { lstatSync: typeof fs.lstatSync }).lstatSync = ((p: fs.PathLike, o?: fs.StatSyncOptions) => {
    lstats.push(String(p));
    return original(p, o);
  }) as typeof fs.lstatSync;
  syncBuiltinESMExports();
}
afterEach(() => {
  (fs as { lstatSync: typeof fs.lstatSync }).lstatSync = original;
  syncBuiltinESMExports();
});

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('disk driver: folders walked once per turn', () => {
  it('several stats under one folder in one turn lstat the folder once', async () => {
    const dir = await makeTempDir();
    const vfs = diskFs(dir);
    await vfs.write('a/b/x.json', '{}');
    await nextTurn();
    countLstat();
    await vfs.stat('a/b/x');
    await vfs.stat('a/b/x.json');
    await vfs.stat('a/b/y.json');
    expect(lstats.filter((p) => /[/\\]a$/.test(p))).toHaveLength(1);
    expect(lstats.filter((p) => /[/\\]a[/\\]b$/.test(p))).toHaveLength(1);
    await nextTurn();
    lstats = [];
    await vfs.stat('a/b/x.json');
    expect(lstats.filter((p) => /[/\\]a$/.test(p))).toHaveLength(1); // a new turn walks again
  });

  it('a folder seen this turn is not lstat\'ed again to list it or to remove a file from it; its stat still asks', async () => {
    const dir = await makeTempDir();
    const vfs = diskFs(dir);
    await vfs.write('a/b/x.json', '{}');
    await vfs.write('a/b/y.json', '{}');
    await nextTurn();
    countLstat();
    await vfs.stat('a/b/x.json'); // a, a/b, a/b/x.json
    expect((await vfs.readdir('a/b')).map((e) => e.name)).toEqual(['x.json', 'y.json']);
    expect(await vfs.remove('a/b/y.json')).toBe(true);
    expect(lstats.filter((p) => /[/\\]a[/\\]b$/.test(p))).toHaveLength(1);
    expect(await vfs.stat('a/b')).toMatchObject({ kind: 'dir' });
    expect(lstats.filter((p) => /[/\\]a[/\\]b$/.test(p))).toHaveLength(2);
    await nextTurn();
    lstats = [];
    expect((await vfs.readdir('a/b')).map((e) => e.name)).toEqual(['x.json']);
    expect(lstats.filter((p) => /[/\\]a[/\\]b$/.test(p))).toHaveLength(1); // a new turn walks again
  });

  it('a folder swapped for a link leading outside is refused in the next turn', async () => {
    const dir = await makeTempDir();
    const outside = await makeTempDir();
    await mkdir(join(outside, 'b'), { recursive: true });
    const vfs = diskFs(dir);
    await vfs.write('a/b/x.json', '{}');
    expect(await vfs.stat('a/b/x.json')).toMatchObject({ kind: 'file' });
    await nextTurn();
    await rename(join(dir, 'a'), join(dir, 'a-old'));
    await symlink(outside, join(dir, 'a'));
    await expect(vfs.stat('a/b/x.json')).rejects.toMatchObject({ code: 'EACCES' });
    await expect(vfs.write('a/b/y.json', '{}')).rejects.toMatchObject({ code: 'EACCES' });
  });

  it('a folder removed through the driver is not taken as there in the same turn', async () => {
    const dir = await makeTempDir();
    const vfs = diskFs(dir);
    await vfs.write('a/b/x.json', '{}');
    expect(await vfs.stat('a/b/x.json')).not.toBeNull();
    expect(await vfs.remove('a', { recursive: true })).toBe(true);
    expect(await vfs.stat('a/b/x.json')).toBeNull();
    await vfs.write('a/b/z.json', '{"z":1}');
    expect(await vfs.stat('a/b/z.json')).toMatchObject({ kind: 'file' });
  });

  it('a file written this turn is watched without an lstat of it; a later turn, or after its removal, asks again', async () => {
    const dir = await makeTempDir();
    const vfs = diskFs(dir);
    await vfs.write('a/x.json', '{}');
    await nextTurn();
    countLstat();
    await vfs.write('a/y.json', '{"y":1}');
    const before = lstats.filter((p) => /y\.json$/.test(p)).length; // the write's own walk
    const stop = vfs.watch!('a/y.json', () => {});
    expect(lstats.filter((p) => /y\.json$/.test(p))).toHaveLength(before);
    stop?.();
    expect(await vfs.remove('a/y.json')).toBe(true);
    lstats = [];
    expect(vfs.watch!('a/y.json', () => {})).toBeTypeOf('function'); // same turn, but removed since: asked
    expect(lstats.filter((p) => /y\.json$/.test(p))).toHaveLength(1);
    await vfs.write('a/y.json', '{"y":2}');
    await nextTurn();
    lstats = [];
    vfs.watch!('a/y.json', () => {})?.();
    expect(lstats.filter((p) => /y\.json$/.test(p))).toHaveLength(1); // a new turn: where it is, asked again
    await vfs.close?.();
  });

  it('a file written through a link (inside the root) and watched in the same turn: an edit of the target is reported', async () => {
    const dir = await makeTempDir();
    await mkdir(join(dir, 'data'), { recursive: true });
    await mkdir(join(dir, 'api'), { recursive: true });
    await writeFile(join(dir, 'data/real.json'), '{}');
    await symlink(join(dir, 'data/real.json'), join(dir, 'api/item.json'));
    const vfs = diskFs(dir);
    await vfs.write('api/item.json', '{"v":1}'); // writes data/real.json, the link stays
    let reported!: () => void;
    const report = new Promise<void>((resolve) => (reported = resolve));
    const stop = vfs.watch!('api/item.json', () => reported());
    expect(stop).toBeTypeOf('function');
    await writeFile(join(dir, 'data/real.json'), '{"v":2}'); // an outside edit of the target
    await report;
    stop?.();
    await vfs.close?.();
  });
});
