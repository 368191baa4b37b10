/**
 * The options of the faults surface: `faults` (src/engine/faults/options.ts): fault rules of
 * routes. A wrong value stops start-up with an OptionsError naming the option (core/options.ts),
 * word for word as below.
 */
import { describe, expect, it } from 'vitest';
import { optionsError } from '../../helpers/options-error.js';

describe('faults options', () => {
  it.each([
    [{ faults: {} }, 'mockyard: option "mock.faults" must be an array (got {})'],
    [{ faults: [{ path: '/x', errorRate: 2 }] }, 'mockyard: option "mock.faults[0].errorRate" must be a number >= 0 and <= 1 (got 2)'],
    [{ faults: [{ path: '/x', fault: 'explode' }] }, 'mockyard: option "mock.faults[0].fault.type" must be one of "connection-reset", "truncated-body", "malformed-chunk", "slow-body", "no-answer" (got "explode")'],
  ] as Array<[Record<string, unknown>, string]>)('%j is refused, naming the option', (options, message) => {
    expect(optionsError(options)).toBe(message);
  });
});
