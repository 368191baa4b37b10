/**
 * Runs the same engine tests on each driver: memoryFs, and diskFs over a real temp dir seeded
 * with the same tree. `setup(tree)` returns the Vfs holding the tree (fsDir = its root).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { diskFs } from '../../src/vfs/disk.js';
import { memoryFs } from '../../src/vfs/memory.js';
import { encodeSeedValue, type SeedTree } from '../../src/vfs/seed.js';
import type { Vfs } from '../../src/vfs/types.js';
import { makeTempDir } from './temp-dir.js';

export interface FsDriver {
  name: 'memory' | 'disk';
  setup(tree: SeedTree): Promise<{ vfs: Vfs; dir?: string }>;
}

export async function seedDir(dir: string, tree: SeedTree): Promise<void> {
  for (const [path, value] of Object.entries(tree)) {
    const full = join(dir, path);
    await mkdir(dirname(full), { recursive: true });
    await writeFile(full, encodeSeedValue(value));
  }
}

export const fsDrivers: FsDriver[] = [
  { name: 'memory', setup: async (tree) => ({ vfs: memoryFs(tree) }) },
  {
    name: 'disk',
    setup: async (tree) => {
      const dir = await makeTempDir();
      await seedDir(dir, tree);
      return { vfs: diskFs(dir), dir };
    },
  },
];
