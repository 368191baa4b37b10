/**
 * A file being loaded while another file of the folder is written is still cached: only a change
 * to the file itself (or a folder above it) voids its load. (A steady stream of writes to a
 * small collection once kept a large one from ever being cached: every request re-read it.)
 */
import { describe, expect, it } from 'vitest';
import { FileCache } from '../../../src/engine/file-cache/file-cache.js';
import { memoryFs } from '../../../src/vfs/memory.js';
import type { Vfs } from '../../../src/vfs/types.js';

/** A Vfs whose reads of `slow` wait until `release()`; counts reads per path. */
function gated(vfs: Vfs, slow: string) {
  let open!: () => void;
  let gate = new Promise<void>((r) => (open = r));
  const reads = new Map<string, number>();
  const v = Object.create(vfs) as Vfs;
  v.read = async (p: string) => {
    reads.set(p, (reads.get(p) ?? 0) + 1);
    if (p === slow) await gate;
    return vfs.read(p);
  };
  return { vfs: v, reads, release: () => open(), regate: () => { gate = new Promise<void>((r) => (open = r)); } };
}

describe('file cache under writes', () => {
  it('keeps a load that other files were written during; drops one whose own file changed', async () => {
    const g = gated(memoryFs({ 'big.json': [1, 2, 3], 'small.json': [] }), 'big.json');
    const cache = new FileCache(g.vfs, '');
    const loading = cache.entry('big.json');
    await new Promise((r) => setImmediate(r));
    await cache.write('small.json', new TextEncoder().encode('[1]'), true);
    g.release();
    expect((await loading)!.array).toEqual([1, 2, 3]);
    expect((await cache.entry('big.json'))!.array).toEqual([1, 2, 3]);
    expect(g.reads.get('big.json')).toBe(1);

    // A change to the file itself during its load: that load is not kept.
    g.regate();
    await g.vfs.write('big.json', new TextEncoder().encode('[4]')); // drops the entry
    const again = cache.entry('big.json');
    await new Promise((r) => setImmediate(r));
    await g.vfs.write('big.json', new TextEncoder().encode('[5]'));
    g.release();
    await again;
    expect((await cache.entry('big.json'))!.array).toEqual([5]);
  });
});
