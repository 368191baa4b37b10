import { describe, expect, it } from 'vitest';
import { HttpError } from '../../src/core/errors.js';
import { baseName, joinVfsPath, normalizeVfsPath, parentOf, requestPathToVfs } from '../../src/vfs/path.js';
import { isVfsError } from '../../src/vfs/types.js';

describe('normalizeVfsPath', () => {
  it('keeps normal paths, drops empty and dot segments, accepts a leading slash', () => {
    expect(normalizeVfsPath('a/b.json')).toBe('a/b.json');
    expect(normalizeVfsPath('/a//b/./c/')).toBe('a/b/c');
    expect(normalizeVfsPath('')).toBe('');
    expect(normalizeVfsPath('/')).toBe('');
    expect(normalizeVfsPath('./x')).toBe('x');
    expect(normalizeVfsPath('..%2f')).toBe('..%2f'); // literal name, not decoded
  });

  it('refuses .., backslashes, NUL, drive letters with EINVAL', () => {
    for (const p of ['..', '../a', 'a/..', 'a/../b', 'a\\b', '\\\\server\\share', 'a\0b', 'C:', 'c:/x', 'x/D:', 'a/e:/b']) {
      let err: unknown;
      try {
        normalizeVfsPath(p);
      } catch (e) {
        err = e;
      }
      expect(isVfsError(err, 'EINVAL'), JSON.stringify(p)).toBe(true);
    }
  });
});

describe('requestPathToVfs', () => {
  it('decodes each segment once and keeps the trailing slash flag', () => {
    expect(requestPathToVfs('/users/1')).toEqual({ path: 'users/1', trailingSlash: false });
    expect(requestPathToVfs('/users/')).toEqual({ path: 'users', trailingSlash: true });
    expect(requestPathToVfs('')).toEqual({ path: '', trailingSlash: false });
    expect(requestPathToVfs('/h%C3%A9llo%20w.json')).toEqual({ path: 'héllo w.json', trailingSlash: false });
    expect(requestPathToVfs('/a/%2E/b')).toEqual({ path: 'a/b', trailingSlash: false });
    // A '%' that a second decode leaves harmless stays a literal name.
    expect(requestPathToVfs('/100%25.json').path).toBe('100%.json');
    expect(requestPathToVfs('/a%2520b.json').path).toBe('a%20b.json');
  });

  it('refuses double encoding that a second decode would turn into a traversal (400)', () => {
    for (const p of ['/..%252f', '/..%252fsecret.json', '/%252e%252e', '/%252E', '/a%255cb', '/a%2500b', '/x%252fy']) {
      expect(() => requestPathToVfs(p), p).toThrow(/Unsafe path segment/);
    }
  });

  it('refuses encoded traversal, slashes, backslashes, NUL, drive letters and bad encoding with 400', () => {
    for (const p of ['/%2e%2e', '/a/%2E%2E/b', '/..%2fx', '/a%2fb', '/a%5cb', '/%5c', '/a%00b', '/C%3A', '/%E0%A4%A', '/%', '/..']) {
      let err: unknown;
      try {
        requestPathToVfs(p);
      } catch (e) {
        err = e;
      }
      expect(err, p).toBeInstanceOf(HttpError);
      expect((err as HttpError).status).toBe(400);
    }
  });
});

describe('helpers', () => {
  it('joinVfsPath, parentOf, baseName', () => {
    expect(joinVfsPath('a', '', 'b/c.json')).toBe('a/b/c.json');
    expect(() => joinVfsPath('a', '..')).toThrow();
    expect(parentOf('a/b/c')).toBe('a/b');
    expect(parentOf('a')).toBe('');
    expect(baseName('a/b/c.json')).toBe('c.json');
    expect(baseName('c')).toBe('c');
  });
});
