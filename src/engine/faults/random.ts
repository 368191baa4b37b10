/**
 * Seeded numbers for faults: the same `seed` gives the same draws in the same order, so a run
 * whose faults made a test flaky can be replayed exactly. mulberry32 (32-bit state), seeded
 * from a number or from a string's FNV-1a hash (the data generators' `seedOf`).
 */
import type { Random } from '../delay.js';
import { seedOf } from '../schema-faker/faker.js';

/** Numbers in [0, 1) from `seed`; Math.random when there is none. */
export function seededRandom(seed: string | number | undefined): Random {
  if (seed === undefined) return Math.random;
  let a = typeof seed === 'number' ? seed >>> 0 : seedOf(seed);
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
