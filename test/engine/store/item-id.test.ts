/**
 * The id index: a miss on a map known to be exact for the array asked about answers -1 without
 * reading the collection again (a POST's "is this id taken?", a GET of a missing item), and every
 * change it is not told about still ends in a rebuild, never in a wrong answer.
 */
import { describe, expect, it } from 'vitest';
import { IdIndex } from '../../../src/engine/store/item-id.js';

/** An array whose element reads are counted (what a rescan of the collection costs). */
function counted(items: unknown[]): { items: unknown[]; reads: () => number } {
  let reads = 0;
  const proxy = new Proxy(items, {
    get(target, key, receiver) {
      if (typeof key === 'string' && /^\d+$/.test(key)) reads++;
      return Reflect.get(target, key, receiver);
    },
  });
  return { items: proxy, reads: () => reads };
}

const users = (n: number) => Array.from({ length: n }, (_, i) => ({ id: i + 1, name: `u${i + 1}` }));

describe('IdIndex', () => {
  it('a miss on an exact map reads no item', () => {
    const { items, reads } = counted(users(1000));
    const ix = new IdIndex('id');
    expect(ix.find(items, '500')).toBe(499);
    const afterBuild = reads();
    for (let i = 0; i < 100; i++) expect(ix.find(items, `x${i}`)).toBe(-1);
    expect(reads()).toBe(afterBuild);
  });

  it('stays exact through announced appends and copies, as a write batch makes them', () => {
    const before = users(1000);
    const ix = new IdIndex('id');
    expect(ix.find(before, '1')).toBe(0);
    const { items, reads } = counted(before.slice());
    ix.copied(before, items);
    expect(ix.find(items, '1001')).toBe(-1);
    items.push({ id: 1001 });
    ix.appended('1001', 1000);
    const start = reads();
    expect(ix.find(items, '1002')).toBe(-1);
    expect(ix.find(items, '1001')).toBe(1000);
    expect(reads() - start).toBe(1); // the hit's check, no rescan
  });

  it('an unannounced change still ends in a rebuild, never a wrong answer', () => {
    const items: unknown[] = users(3);
    const ix = new IdIndex('id');
    expect(ix.find(items, '9')).toBe(-1);
    items.push({ id: 9 }); // not announced
    expect(ix.find(items, '9')).toBe(3);
    items.pop(); // an append undone
    ix.appended('7', 3);
    expect(ix.find(items, '7')).toBe(-1);
    expect(ix.find(items, '3')).toBe(2);
    const other = [{ id: 3 }, { id: 5 }];
    expect(ix.find(other, '5')).toBe(1); // another array: its own answer
    ix.invalidate();
    expect(ix.find(items, '2')).toBe(1);
  });
});
