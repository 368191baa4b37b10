/**
 * The options of the static surface: `static` (src/engine/static/options.ts). A wrong value stops
 * start-up with an OptionsError naming the option (core/options.ts), word for word as below.
 */
import { describe, expect, it } from 'vitest';
import { optionsError } from '../../helpers/options-error.js';

describe('static options', () => {
  it.each([
    [{ static: 42 }, 'mockyard: option "mock.static" must be a folder or a Vfs (got 42)'],
    [{ static: ['public', ''] }, 'mockyard: option "mock.static[1]" must be a folder or a Vfs (got "")'],
  ] as Array<[Record<string, unknown>, string]>)('%j is refused, naming the option', (options, message) => {
    expect(optionsError(options)).toBe(message);
  });
});
