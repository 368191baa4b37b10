/**
 * The `scenarios` option (src/engine/scenarios/options.ts): a wrong value stops start-up with an
 * OptionsError naming the option (core/options.ts), word for word as below.
 */
import { describe, expect, it } from 'vitest';
import { optionsError } from '../../helpers/options-error.js';

describe('scenarios options', () => {
  it.each([
    [{ scenarios: [] }, 'mockyard: option "mock.scenarios" must be an object keyed by scenario name (got [])'],
    [{ scenarios: { 'bad name': {} } }, 'mockyard: option "mock.scenarios.bad name" is not a valid scenario name (letters, digits, ".", "_", "~", "-"; at most 64; starting with a letter or digit)'],
    [{ scenarios: { s: { delay: -1 } } }, 'mockyard: option "mock.scenarios.s.delay" must be a number >= 0 (got -1)'],
    [{ scenarios: { s: { handlers: [{ pattern: '' }] } } }, 'mockyard: option "mock.scenarios.s.handlers[0].pattern" must be a non-empty string (got "")'],
    [{ scenarios: { s: { fsDir: '../x' } } }, 'mockyard: option "mock.scenarios.s.fsDir" must be a folder inside "fs" without "..", "\\" or NUL (got "../x")'],
    [{ scenarios: { s: { disabled: [3] } } }, 'mockyard: option "mock.scenarios.s.disabled[0]" must be a handler pattern ("/users/:id" or "GET /users/:id") (got 3)'],
    [{ scenarios: { s: { typo: 1 } } }, 'mockyard: option "mock.scenarios.s.typo" is not a known option (known: handlers, fsDir, delay, disabled, faults)'],
  ] as Array<[Record<string, unknown>, string]>)('%j is refused, naming the option', (options, message) => {
    expect(optionsError(options)).toBe(message);
  });
});
