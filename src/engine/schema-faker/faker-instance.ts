/**
 * The faker constructor with the English locale only, imported by name so bundlers keep just
 * that locale (importing the package's namespace dynamically would keep all ~70 of them).
 * Loaded on demand through faker.ts.
 */
import { base, en, Faker } from '@faker-js/faker';

export function newFaker(): Faker {
  return new Faker({ locale: [en, base] });
}
