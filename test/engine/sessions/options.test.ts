/**
 * The options of the sessions surface: `sessions` (src/engine/sessions/options.ts). A wrong value
 * stops start-up with an OptionsError naming the option (core/options.ts), word for word as below.
 */
import { describe, expect, it } from 'vitest';
import { optionsError } from '../../helpers/options-error.js';

describe('sessions options', () => {
  it.each([
    [{ sessions: 'yes' }, 'mockyard: option "mock.sessions" must be an object (got "yes")'],
    [{ sessions: { max: 0 } }, 'mockyard: option "mock.sessions.max" must be an integer >= 1 (got 0)'],
    [{ sessions: { idle: 1 } }, 'mockyard: option "mock.sessions.idle" is not a known option (known: idleTimeout, max, clock)'],
  ] as Array<[Record<string, unknown>, string]>)('%j is refused, naming the option', (options, message) => {
    expect(optionsError(options)).toBe(message);
  });
});
