/**
 * The options of the handlers surface: `handlers`, `handlerMiddlewares`, `errorMiddlewares`,
 * `parser` (src/engine/handlers/options.ts). A wrong value stops start-up with an OptionsError
 * naming the option (core/options.ts), word for word as below.
 */
import { describe, expect, it } from 'vitest';
import { optionsError } from '../../helpers/options-error.js';

describe('handlers options', () => {
  it.each([
    [{ handlers: [{ pattern: '/a' }] }, 'mockyard: option "mock.handlers[0].handle" must be a function or "FS" (got undefined)'],
    [{ handlers: [{ handle: () => 1 }] }, 'mockyard: option "mock.handlers[0].pattern" is required'],
    [{ handlerMiddlewares: [1] }, 'mockyard: option "mock.handlerMiddlewares[0]" must be a function (got 1)'],
    [{ errorMiddlewares: 'x' }, 'mockyard: option "mock.errorMiddlewares" must be an array (got "x")'],
    [{ parser: 'json' }, 'mockyard: option "mock.parser" must be true, false or { parser, transform } (got "json")'],
  ] as Array<[Record<string, unknown>, string]>)('%j is refused, naming the option', (options, message) => {
    expect(optionsError(options)).toBe(message);
  });
});
