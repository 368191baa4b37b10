/** The recorder's naming scheme (docs/proxy.md): the name the lookup finds. */
import { describe, expect, it } from 'vitest';
import { recordPath } from '../../../src/engine/proxy/record-path.js';

describe('recordPath', () => {
  it.each([
    ['/users', '', 'application/json', 'users.json'],
    ['/users/1', '', 'application/problem+json', 'users/1.json'],
    ['/data.json', '', 'application/json', 'data.json'],
    ['', '', 'application/json', 'index.json'],
    ['/', '', 'application/json', 'index.json'],
    ['/users/', '', 'application/json', 'users/index.json'],
    ['/logo', '', 'image/png', 'logo.png'],
    ['/logo.png', '', 'image/png', 'logo.png'],
    ['/logo.png', '?size=2', 'image/png', 'logo@size=2.png'],
    ['/report', '', 'application/x-unknown-thing', 'report.bin'],
    ['/report', '', null, 'report.bin'],
    ['/notes', '', 'text/plain; charset=utf-8', 'notes.txt'],
    ['/users', '?page=2&a=1&a=0', 'application/json', 'users@a=0&a=1&page=2.json'],
    ['/users', '?q=a/b', 'application/json', 'users@q=a%2Fb.json'],
    ['/caf%C3%A9', '', 'application/json', 'café.json'],
  ])('%s%s (%s) → %s', (sub, search, type, rel) => {
    expect(recordPath(sub, search, type)?.rel).toBe(rel);
  });

  it('a non-JSON answer for a folder path has no name the lookup finds; over-long names are skipped', () => {
    expect(recordPath('/', '', 'text/html')).toBeNull();
    expect(recordPath('/x', `?q=${'a'.repeat(300)}`, 'application/json')).toBeNull();
  });

  it('refuses encoded traversal (path safety)', () => {
    expect(() => recordPath('/%2e%2e/secret', '', 'application/json')).toThrow(/Unsafe path/);
    expect(() => recordPath('/a%2Fb', '', 'application/json')).toThrow(/Unsafe path/);
  });
});
