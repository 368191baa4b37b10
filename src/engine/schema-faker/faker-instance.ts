/**
 * A faker with the English locale only, from the package's `locale/en` entry: under Node that
 * evaluates just that locale (the package's main entry evaluates all ~70 locale modules: about
 * 0.5 s and 30 MB more at start-up), and bundlers keep just that locale too. Each call makes an
 * instance of its own from the entry's definitions (draws are the same as `new Faker({ locale:
 * [en, base] })`). Loaded on demand through faker.ts.
 */
import type { Faker } from '@faker-js/faker';
import { faker as english } from '@faker-js/faker/locale/en';

export function newFaker(): Faker {
  const FakerClass = english.constructor as new (options: { locale: Faker['rawDefinitions'] }) => Faker;
  return new FakerClass({ locale: english.rawDefinitions });
}
