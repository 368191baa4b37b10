/**
 * The options of the replay surface: `har` (src/engine/replay/options.ts). A wrong value stops
 * start-up with an OptionsError naming the option (core/options.ts), word for word as below.
 */
import { describe, expect, it } from 'vitest';
import { optionsError } from '../../helpers/options-error.js';

describe('replay options', () => {
  it.each([
    [{ har: 42 }, 'mockyard: option "mock.har" must be a HAR log object or the path of a .har file (got 42)'],
    [{ har: '' }, 'mockyard: option "mock.har" must be a HAR log object or the path of a .har file (got "")'],
  ] as Array<[Record<string, unknown>, string]>)('%j is refused, naming the option', (options, message) => {
    expect(optionsError(options)).toBe(message);
  });
});
