/**
 * holdsField (src/engine/store/relations.ts): which spelling of a relation field a stored array's
 * items hold is looked up once per array and field, so a cascade DELETE asking it of every other
 * collection on each write does not walk a large collection again for a field none of it holds.
 */
import { describe, expect, it } from 'vitest';
import { holdsField } from '../../../src/engine/store/relations.js';

/** Items that count how often a field of theirs is asked about. */
function counted(n: number, extra?: (i: number) => object) {
  const asks = { n: 0 };
  const items = Array.from({ length: n }, (_, i) => new Proxy({ id: i + 1, ...extra?.(i) }, {
    getOwnPropertyDescriptor(target, key) {
      asks.n++;
      return Reflect.getOwnPropertyDescriptor(target, key);
    },
  }));
  return { items, asks };
}

describe('holdsField', () => {
  it('walks an array once per field it holds nowhere; the next asks are answered without looking', () => {
    const { items, asks } = counted(1000);
    const has = holdsField(items);
    expect(has('userId')).toBe(false);
    expect(asks.n).toBe(1000);
    expect(holdsField(items)('userId')).toBe(false);
    expect(has('user_id')).toBe(false);
    expect(asks.n).toBe(2000); // user_id walked once; userId not again
  });

  it('answers true as soon as an item holds the field, and a grown array is looked at from where it was', () => {
    const { items, asks } = counted(10, (i) => (i === 3 ? { post_id: 1 } : {}));
    expect(holdsField(items)('post_id')).toBe(true);
    expect(asks.n).toBe(4);
    expect(holdsField(items)('postId')).toBe(false);
    const before = asks.n;
    (items as object[]).push({ id: 11, postId: 1 });
    expect(holdsField(items)('postId')).toBe(true); // only the new item looked at
    expect(asks.n).toBe(before); // a plain object: no trap
  });
});
