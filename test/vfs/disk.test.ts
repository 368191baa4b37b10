import { chmod, readdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { diskFs } from '../../src/vfs/disk.js';
import { isVfsError } from '../../src/vfs/types.js';
import { cannotDropPrivileges, unprivilegedDisk } from '../helpers/disk-as-user.js';
import { makeTempDir, removeTempDirs } from '../helpers/temp-dir.js';
import { vfsContract } from './contract.js';

afterAll(removeTempDirs);

const asRoot = process.getuid?.() === 0;

vfsContract('disk', async () => {
  const dir = await makeTempDir();
  if (asRoot) return { vfs: diskFs(dir), noDenyAccess: 'root ignores mode bits: the "disk, as nobody" run checks permissions' };
  const denied: string[] = [];
  return {
    vfs: diskFs(dir),
    denyAccess: async (path) => {
      denied.push(join(dir, path));
      await chmod(join(dir, path), 0o000);
    },
    cleanup: async () => {
      for (const d of denied) await chmod(d, 0o755);
    },
  };
});

// As root, the same contract again with the driver in a child process running as `nobody`, where
// mode bits apply. Skipped (with the reason) only where uid 0 cannot drop its privileges.
if (asRoot) {
  const reason = cannotDropPrivileges();
  vfsContract('disk, as nobody', async () => (reason === null ? unprivilegedDisk(await makeTempDir()) : { vfs: diskFs(await makeTempDir()), noDenyAccess: reason }));
}

describe('diskFs specifics', () => {
  it('is not exclusive; root is the resolved directory', async () => {
    const dir = await makeTempDir();
    const fs = diskFs(dir);
    expect(fs.exclusive).toBe(false);
    expect(fs.root).toBe(dir);
  });

  it('atomic write: temp file + rename (new inode), no temp file left, listings hide temp files', async () => {
    const dir = await makeTempDir();
    const fs = diskFs(dir);
    await fs.write('a.json', '{"v":1}');
    const ino1 = (await stat(join(dir, 'a.json'))).ino;
    await fs.write('a.json', '{"v":2}');
    expect((await stat(join(dir, 'a.json'))).ino).not.toBe(ino1);
    expect((await fs.stat('a.json'))!.ino).toBe((await stat(join(dir, 'a.json'))).ino);
    expect(await readFile(join(dir, 'a.json'), 'utf8')).toBe('{"v":2}');
    expect(await readdir(dir)).toEqual(['a.json']);
    await writeFile(join(dir, '.mockyard-tmp-123-1'), 'partial');
    expect((await fs.readdir('')).map((e) => e.name)).toEqual(['a.json']);
  });

  it('a failed write leaves the old content and no temp file', async () => {
    const dir = await makeTempDir();
    const fs = diskFs(dir);
    await fs.write('d/f.txt', 'old');
    // Writing "over" a directory fails at rename.
    await fs.mkdir('d/sub');
    await writeFile(join(dir, 'd/sub/keep'), 'x');
    await expect(fs.write('d/sub', 'new')).rejects.toSatisfy((e: unknown) => isVfsError(e));
    expect(await readFile(join(dir, 'd/f.txt'), 'utf8')).toBe('old');
    expect((await readdir(join(dir, 'd'))).sort()).toEqual(['f.txt', 'sub']);
  });

  it('path safety: never reaches outside the root', async () => {
    const parent = await makeTempDir();
    const root = join(parent, 'root');
    const fs = diskFs(root);
    await fs.mkdir('');
    await writeFile(join(parent, 'secret.txt'), 'SECRET');
    for (const p of ['../secret.txt', 'a/../../secret.txt', '..\\secret.txt', 'x\0', 'C:\\secret.txt']) {
      await expect(fs.read(p), p).rejects.toSatisfy((e: unknown) => isVfsError(e, 'EINVAL'));
      await expect(fs.write(p, 'x'), p).rejects.toSatisfy((e: unknown) => isVfsError(e, 'EINVAL'));
    }
    // An absolute path is taken relative to the root.
    await expect(fs.read(join(parent, 'secret.txt'))).rejects.toSatisfy((e: unknown) => isVfsError(e, 'ENOENT'));
    expect(await fs.stat('/etc/passwd')).toBeNull();
    // Percent-encoding is not decoded by drivers: the name is literal.
    expect(await fs.stat('..%2fsecret.txt')).toBeNull();
    expect(await readFile(join(parent, 'secret.txt'), 'utf8')).toBe('SECRET');
  });

  it('error messages never hold the absolute root', async () => {
    const dir = await makeTempDir();
    const fs = diskFs(dir);
    try {
      await fs.read('missing.txt');
    } catch (err) {
      expect((err as Error).message).not.toContain(dir);
    }
    await writeFile(join(dir, 'f'), 'x');
    try {
      await fs.write('f/child.txt', 'x');
    } catch (err) {
      expect((err as Error).message).not.toContain(dir);
    }
  });

  it('files changed behind its back are seen by stat (size, mtime, inode)', async () => {
    const dir = await makeTempDir();
    const fs = diskFs(dir);
    await fs.write('a.txt', 'one');
    const before = await fs.stat('a.txt');
    await writeFile(join(dir, 'a.txt'), 'three');
    const after = await fs.stat('a.txt');
    expect(after!.size).not.toBe(before!.size);
  });

  it('symlinked files inside the root are followed', async () => {
    const dir = await makeTempDir();
    await writeFile(join(dir, 'real.txt'), 'real');
    await symlink(join(dir, 'real.txt'), join(dir, 'link.txt'));
    const fs = diskFs(dir);
    expect(new TextDecoder().decode(await fs.read('link.txt'))).toBe('real');
  });
});

describe('diskFs create is atomic', () => {
  it('publishes the name only with the full content and leaves no temp files behind', async () => {
    const dir = await makeTempDir();
    const vfs = diskFs(dir);
    const big = new Uint8Array(32 * 1024 * 1024).fill(7);
    const seen: number[] = [];
    let done = false;
    const created = vfs.create('big.bin', big).finally(() => (done = true));
    // Poll while the create is under way (the write runs on the thread pool).
    while (!done) {
      const s = await vfs.stat('big.bin');
      if (s) seen.push(s.size);
      await new Promise((r) => setImmediate(r));
    }
    await created;
    expect(seen.filter((n) => n !== big.byteLength)).toEqual([]);
    expect((await vfs.read('big.bin')).byteLength).toBe(big.byteLength);
    expect(await readdir(dir)).toEqual(['big.bin']);
    await expect(vfs.create('big.bin', 'x')).rejects.toMatchObject({ code: 'EEXIST' });
    expect(await readdir(dir)).toEqual(['big.bin']);
    expect((await vfs.read('big.bin')).byteLength).toBe(big.byteLength);
  });
});
