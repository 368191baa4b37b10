/**
 * The options of the ws surface: `enableWs` and `wsHandlers` (src/engine/ws/options.ts). A wrong
 * value stops start-up with an OptionsError naming the option (core/options.ts), word for word as
 * below.
 */
import { describe, expect, it } from 'vitest';
import { optionsError } from '../../helpers/options-error.js';

describe('ws options', () => {
  it.each([
    [{ enableWs: 'yes' }, 'mockyard: option "mock.enableWs" must be true or false (got "yes")'],
    [{ enableWs: true }, 'mockyard: option "mock.wsHandlers" is required (a non-empty array) when enableWs is true'],
    [{ enableWs: true, wsHandlers: [] }, 'mockyard: option "mock.wsHandlers" is required (a non-empty array) when enableWs is true'],
    [{ wsHandlers: [{ pattern: '/ws' }] }, 'mockyard: option "mock.wsHandlers[0].onMessage" must be a function (got undefined); a handler that only pushes may give onConnect alone'],
  ] as Array<[Record<string, unknown>, string]>)('%j is refused, naming the option', (options, message) => {
    expect(optionsError(options)).toBe(message);
  });
});
