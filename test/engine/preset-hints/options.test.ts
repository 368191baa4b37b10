/**
 * The options of the preset-hints surface: `preset` (src/engine/preset-hints/options.ts). A wrong
 * value stops start-up with an OptionsError naming the option (core/options.ts), word for word as
 * below.
 */
import { describe, expect, it } from 'vitest';
import { optionsError } from '../../helpers/options-error.js';

describe('preset-hints options', () => {
  it.each([
    [{ preset: 'rails' }, 'mockyard: option "mock.preset" must be one of "json-server" (got "rails")'],
  ] as Array<[Record<string, unknown>, string]>)('%j is refused, naming the option', (options, message) => {
    expect(optionsError(options)).toBe(message);
  });
});
