/**
 * The disk driver's atomic write, small files and large: replaced whole, missing folders made,
 * the change reported, no temp file left behind; a failed write leaves the old file.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { diskFs } from '../../src/vfs/disk.js';
import { makeTempDir, removeTempDirs } from '../helpers/temp-dir.js';

afterAll(removeTempDirs);

describe('disk write, small and large', () => {
  for (const size of [10, 64 * 1024, 64 * 1024 + 1, 1024 * 1024]) {
    it(`${size} bytes: replaced whole, folder made, change reported, no temp file`, async () => {
      const dir = await makeTempDir();
      const vfs = diskFs(dir);
      const seen: string[] = [];
      vfs.onChange((p) => seen.push(p));
      await vfs.write('a/b.json', new Uint8Array(size + 5).fill(1));
      await vfs.write('a/b.json', new Uint8Array(size).fill(2));
      const bytes = await readFile(join(dir, 'a/b.json'));
      expect(bytes.byteLength).toBe(size);
      expect(bytes.every((b) => b === 2)).toBe(true);
      expect(seen).toEqual(['a/b.json', 'a/b.json']);
      expect(await readdir(join(dir, 'a'))).toEqual(['b.json']);
      // Over a folder: refused, the folder left as it was, no temp file.
      await expect(vfs.write('a', new Uint8Array(size))).rejects.toMatchObject({ code: expect.any(String) });
      expect(await readdir(join(dir, 'a'))).toEqual(['b.json']);
      expect(await readdir(dir)).toEqual(['a']);
    });
  }
});
