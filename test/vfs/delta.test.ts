import { describe, expect, it } from 'vitest';
import { deltaFs } from '../../src/vfs/delta.js';
import { vfsContract } from './contract.js';

vfsContract('delta', () => ({ vfs: deltaFs() }));

describe('deltaFs specifics', () => {
  it('keeps a writeJson value as is and makes its text only when read', async () => {
    const fs = deltaFs();
    const value = [{ id: 1 }];
    await fs.writeJson('a/users.json', value);
    expect(fs.has('a/users.json')).toBe(true);
    expect(fs.has('b.json')).toBe(false);
    expect(JSON.parse(new TextDecoder().decode(await fs.read('a/users.json')))).toEqual(value);
    expect((await fs.stat('a'))?.kind).toBe('dir');
    expect(fs.fileCount).toBe(1);
    fs.clear();
    expect(fs.fileCount).toBe(0);
    expect(await fs.stat('a/users.json')).toBeNull();
  });
});
