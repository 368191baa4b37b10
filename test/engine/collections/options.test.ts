/**
 * The options of the collections surface: `collections` (src/engine/collections/options.ts). A
 * wrong value stops start-up with an OptionsError naming the option (core/options.ts), word for
 * word as below.
 */
import { describe, expect, it } from 'vitest';
import { optionsError } from '../../helpers/options-error.js';

describe('collections options', () => {
  it.each([
    [{ collections: 'yes' }, 'mockyard: option "mock.collections" must be an object (got "yes")'],
    [{ collections: { idField: '' } }, 'mockyard: option "mock.collections.idField" must be a non-empty string (got "")'],
    [{ collections: { idFeld: 'x' } }, 'mockyard: option "mock.collections.idFeld" is not a known option (did you mean "idField"?) (known: idField)'],
  ] as Array<[Record<string, unknown>, string]>)('%j is refused, naming the option', (options, message) => {
    expect(optionsError(options)).toBe(message);
  });
});
