import { describe, expect, it } from 'vitest';
import { HttpError } from '../../../src/core/errors.js';
import { OptionsError } from '../../../src/core/options.js';
import { compilePattern } from '../../../src/engine/handler-api/pattern.js';

describe('compilePattern', () => {
  it('matches literal paths, with or without a trailing slash', () => {
    const p = compilePattern('/users');
    expect(p.match('/users')).toEqual({});
    expect(p.match('/users/')).toEqual({});
    expect(p.match('/users/1')).toBeNull();
    expect(p.match('/Users')).toBeNull();
    expect(compilePattern('users').match('/users')).toEqual({});
  });

  it('captures {name} as exactly one non-empty segment', () => {
    const p = compilePattern('/users/{id}');
    expect(p.match('/users/42')).toEqual({ id: '42' });
    expect(p.match('/users/42/')).toEqual({ id: '42' });
    expect(p.match('/users/')).toBeNull();
    expect(p.match('/users/1/2')).toBeNull();
    expect(compilePattern('/users/{userId}/posts/{postId}').match('/users/7/posts/9')).toEqual({ userId: '7', postId: '9' });
  });

  it('decodes captured values once and answers 400 on malformed encoding', () => {
    const p = compilePattern('/files/{name}');
    expect(p.match('/files/a%20b%2Fc')).toEqual({ name: 'a b/c' });
    expect(p.match('/files/%25E2')).toEqual({ name: '%E2' });
    let err: unknown;
    try {
      p.match('/files/%E2%82');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(HttpError);
    expect((err as HttpError).status).toBe(400);
  });

  it('supports {name:regex}, including quantifier braces and groups inside the regex', () => {
    const p = compilePattern('/orders/{id:\\d{3}}/{kind:(a|b)c}/{rest}');
    expect(p.match('/orders/123/ac/x')).toEqual({ id: '123', kind: 'ac', rest: 'x' });
    expect(p.match('/orders/12/ac/x')).toBeNull();
    expect(p.match('/orders/123/cc/x')).toBeNull();
  });

  it('supports * within a segment and ? for one character', () => {
    const star = compilePattern('/files/*.json');
    expect(star.match('/files/users.json')).toEqual({ 0: 'users' });
    expect(star.match('/files/a/b.json')).toBeNull();
    const q = compilePattern('/v?/items');
    expect(q.match('/v1/items')).toEqual({});
    expect(q.match('/v12/items')).toBeNull();
    expect(q.match('/v/items')).toBeNull();
  });

  it('supports ** as any number of segments, including none', () => {
    const p = compilePattern('/static/**');
    expect(p.match('/static')).toEqual({ 0: '' });
    expect(p.match('/static/a')).toEqual({ 0: 'a' });
    expect(p.match('/static/a/b/c.txt')).toEqual({ 0: 'a/b/c.txt' });
    expect(p.match('/other/a')).toBeNull();
    const mid = compilePattern('/a/**/{file}');
    expect(mid.match('/a/x/y/z.txt')).toEqual({ 0: 'x/y', file: 'z.txt' });
    expect(mid.match('/a/z.txt')).toEqual({ 0: '', file: 'z.txt' });
  });

  it('matches the prefix root with "/"', () => {
    const p = compilePattern('/');
    expect(p.match('')).toEqual({});
    expect(p.match('/')).toEqual({});
    expect(p.match('/x')).toBeNull();
  });

  it('matches literal text as the URL parser encodes it (spaces, non-ASCII)', () => {
    expect(compilePattern('/café/menu').match(new URL('http://x/café/menu').pathname)).toEqual({});
    expect(compilePattern('/a b/{id}').match(new URL('http://x/a b/7').pathname)).toEqual({ id: '7' });
  });

  it('escapes regex characters in literal text', () => {
    const p = compilePattern('/a.b+(c)');
    expect(p.match('/a.b+(c)')).toEqual({});
    expect(p.match('/aXb+(c)')).toBeNull();
  });

  it('rejects broken patterns at start-up with an OptionsError naming the option', () => {
    expect(() => compilePattern('/users/{id', 'mock.handlers[0].pattern')).toThrow(OptionsError);
    expect(() => compilePattern('/users/{id', 'mock.handlers[0].pattern')).toThrow(/mock\.handlers\[0\]\.pattern/);
    expect(() => compilePattern('/a/{x}/{x}')).toThrow(/twice/);
    expect(() => compilePattern('/a/{9x}')).toThrow(/invalid parameter name/);
    expect(() => compilePattern('/a/{__proto__}')).toThrow(/invalid parameter name/);
    expect(() => compilePattern('/a/{x:[}')).toThrow(/invalid regex/);
    expect(() => compilePattern('/a/**.json')).toThrow(/whole segment/);
    expect(() => compilePattern('/a/b}')).toThrow(/unmatched/);
  });
});
