/**
 * Which disk driver calls go through libuv's thread pool: a POST-like create of a small file
 * (write to a free name, `create`), its DELETE (`remove`), `stat` and `readdir` do not (a pool
 * round trip costs more CPU than the work); a `write` that replaces an existing file does (ext4
 * flushes the new data before a rename over a file, which must not hold the event loop), and so
 * does a large write. Shown by filling the pool with slow jobs first: a call that needs the pool
 * finishes only after some of them, one that does not before any.
 */
import { pbkdf2 } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { diskFs } from '../../src/vfs/disk.js';
import { makeTempDir, removeTempDirs } from '../helpers/temp-dir.js';

afterAll(removeTempDirs);

/** Queues more slow jobs than the pool has threads; returns how many have finished so far. */
function fillPool(): { done: () => number; all: Promise<void> } {
  let finished = 0;
  const jobs = Array.from(
    { length: 64 },
    () =>
      new Promise<void>((resolve) =>
        pbkdf2('x', 'salt', 5_000, 32, 'sha256', () => {
          finished++;
          resolve();
        }),
      ),
  );
  return { done: () => finished, all: Promise.all(jobs).then(() => {}) };
}

/** How many pool jobs had finished when `op` settled, with the pool full when it started. */
async function poolJobsBefore(op: () => Promise<unknown>): Promise<number> {
  const pool = fillPool();
  await op();
  const n = pool.done();
  await pool.all;
  return n;
}

describe('disk driver: thread-pool hops', () => {
  it('a small create, write to a free name, remove, stat and readdir do not wait for the pool', async () => {
    const dir = await makeTempDir();
    const vfs = diskFs(dir);
    await vfs.swept;
    await vfs.write('items/seed.json', '{}'); // the folder exists: no mkdir on the way
    const body = JSON.stringify({ id: 'b1', name: 'Bench User' });
    expect(await poolJobsBefore(() => vfs.write('items/b1.json', body))).toBe(0);
    expect(await poolJobsBefore(() => vfs.create('items/b2.json', body))).toBe(0);
    expect(await poolJobsBefore(() => vfs.readdir('items'))).toBe(0);
    expect(await poolJobsBefore(() => vfs.stat('items/b1.json'))).toBe(0);
    expect(await poolJobsBefore(() => vfs.remove('items/b1.json'))).toBe(0);
    expect(await readFile(join(dir, 'items/b2.json'), 'utf8')).toBe(body);
    expect((await vfs.readdir('items')).map((e) => e.name)).toEqual(['b2.json', 'seed.json']);
    // create keeps refusing a taken name, without leaving a temp file.
    await expect(vfs.create('items/b2.json', '{}')).rejects.toMatchObject({ code: 'EEXIST' });
    expect((await vfs.readdir('items')).map((e) => e.name)).toEqual(['b2.json', 'seed.json']);
  });

  it('a write over an existing file, and a large write, go through the pool', async () => {
    const dir = await makeTempDir();
    const vfs = diskFs(dir);
    await vfs.swept;
    await vfs.write('items/a.json', '{"v":1}');
    expect(await poolJobsBefore(() => vfs.write('items/a.json', '{"v":2}'))).toBeGreaterThan(0);
    expect(await poolJobsBefore(() => vfs.write('items/big.json', new Uint8Array(64 * 1024 + 1)))).toBeGreaterThan(0);
    expect(await readFile(join(dir, 'items/a.json'), 'utf8')).toBe('{"v":2}');
  });
});
