import { describe, expect, it } from 'vitest';
import { assertNoForbiddenKeys, findForbiddenKey, parseJsonBytes } from '../../src/core/json-safety.js';
import { HttpError } from '../../src/core/errors.js';

const bytes = (s: string) => new TextEncoder().encode(s);

describe('json safety', () => {
  it('finds forbidden keys at any depth, including own __proto__ from JSON.parse', () => {
    expect(findForbiddenKey(JSON.parse('{"a":{"b":[{"__proto__":{"x":1}}]}}'))).toBe('/a/b/0/__proto__');
    expect(findForbiddenKey({ a: { constructor: { prototype: {} } } })).toBe('/a/constructor');
    expect(findForbiddenKey({ a: [1, 'constructor'] })).toBeUndefined();
  });

  it('rejects with a 400 naming the key', () => {
    try {
      assertNoForbiddenKeys(JSON.parse('{"x":{"__proto__":{"polluted":true}}}'), 'merge patch');
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(HttpError);
      expect((err as HttpError).status).toBe(400);
      expect((err as HttpError).message).toContain('"__proto__"');
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('survives very deep input without recursion', () => {
    let deep: unknown = {};
    for (let i = 0; i < 100_000; i++) deep = { d: deep };
    expect(findForbiddenKey(deep)).toBeUndefined();
  });

  it('parses UTF-8 JSON and answers 400 on malformed input', () => {
    expect(parseJsonBytes(bytes('{"a":[1,2]}'))).toEqual({ a: [1, 2] });
    expect(() => parseJsonBytes(bytes('{"a":'))).toThrow(/Malformed JSON body/);
    expect(() => parseJsonBytes(new Uint8Array([0x7b, 0xff, 0x7d]))).toThrow(/UTF-8/);
  });
});

describe('exceedsDepth', () => {
  it('measures nesting of objects and arrays, iteratively', async () => {
    const { exceedsDepth } = await import('../../src/core/json-depth.js');
    expect(exceedsDepth({ a: [{ b: 1 }] }, 3)).toBe(false);
    expect(exceedsDepth({ a: [{ b: {} }] }, 3)).toBe(true);
    expect(exceedsDepth('text', 0)).toBe(false);
    expect(exceedsDepth(JSON.parse('['.repeat(50_000) + ']'.repeat(50_000)), 64)).toBe(true);
  });
});
