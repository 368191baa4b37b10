/**
 * The faker instance the generators draw from, loaded on first use (its own chunk in browser
 * bundles; only the English locale is imported), and the seeds: `seedOf(seed, 'pets', 3)` is
 * the same number on every machine (FNV-1a over the parts), so an item is the same whatever
 * was generated before it. Dates are drawn relative to a fixed day, never "now".
 */
import type { Faker } from '@faker-js/faker';

let module: Promise<typeof import('./faker-instance.js')> | undefined;

/** A new faker instance (each engine its own: seeding one never moves another). */
export async function loadFaker(): Promise<Faker> {
  const m = await (module ??= import('./faker-instance.js'));
  const f = m.newFaker();
  f.setDefaultRefDate('2025-01-01T00:00:00.000Z');
  return f;
}

/** A 32-bit seed from the parts (FNV-1a of their text joined by NUL). */
export function seedOf(...parts: (string | number)[]): number {
  let h = 0x811c9dc5;
  const text = parts.join('\u0000');
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
