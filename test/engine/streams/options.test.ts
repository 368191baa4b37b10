/**
 * The options of the streams surface: `streams` (src/engine/streams/options.ts). A wrong value
 * stops start-up with an OptionsError naming the option (core/options.ts), word for word as below.
 */
import { describe, expect, it } from 'vitest';
import { optionsError } from '../../helpers/options-error.js';

describe('streams options', () => {
  it.each([
    [{ streams: 5 }, 'mockyard: option "mock.streams" must be an object such as { speed: 0 }'],
    [{ streams: { speed: -1 } }, 'mockyard: option "mock.streams.speed" must be a number >= 0 (got -1)'],
    [{ streams: { sped: 1 } }, 'mockyard: option "mock.streams.sped" is not a known option (did you mean "speed"?) (known: speed)'],
  ] as Array<[Record<string, unknown>, string]>)('%j is refused, naming the option', (options, message) => {
    expect(optionsError(options)).toBe(message);
  });
});
