import { describe, expect, it } from 'vitest';
import { memoryFs } from '../../src/vfs/memory.js';
import { vfsContract } from './contract.js';

vfsContract('memory', () => ({ vfs: memoryFs() }));

describe('memoryFs specifics', () => {
  it('is exclusive and seeds from a tree (objects as JSON, strings as text, bytes as bytes)', async () => {
    const fs = memoryFs({ 'a/b.json': { x: 1 }, 't.txt': 'hi', 'b.bin': new Uint8Array([1, 2]) });
    expect(fs.exclusive).toBe(true);
    expect(JSON.parse(new TextDecoder().decode(await fs.read('a/b.json')))).toEqual({ x: 1 });
    expect(new TextDecoder().decode(await fs.read('t.txt'))).toBe('hi');
    expect(await fs.read('b.bin')).toEqual(new Uint8Array([1, 2]));
  });

  it('reset() restores the seed and emits a root change', async () => {
    const fs = memoryFs({ 'a.txt': 'seed' });
    const seen: string[] = [];
    fs.onChange((p) => seen.push(p));
    await fs.write('a.txt', 'changed');
    await fs.write('b.txt', 'new');
    await fs.reset();
    expect(new TextDecoder().decode(await fs.read('a.txt'))).toBe('seed');
    expect(await fs.stat('b.txt')).toBeNull();
    expect(seen.at(-1)).toBe('');
  });

  it('refuses unsafe seed paths', () => {
    expect(() => memoryFs({ '../x': 'y' })).toThrow();
  });
});
