/**
 * The options of the openapi-backend surface: `openapi`, the generated backend's keys
 * (src/engine/openapi-backend/options.ts). A wrong value stops start-up with an OptionsError naming
 * the option (core/options.ts), word for word as below.
 */
import { describe, expect, it } from 'vitest';
import { optionsError } from '../../helpers/options-error.js';

describe('openapi-backend options', () => {
  it.each([
    [{ openapi: { document: 'a.yaml', seed: {} } }, 'mockyard: option "mock.openapi.seed" must be a number or a string (got {})'],
    [{ openapi: { document: 'a.yaml', count: 'many' } }, 'mockyard: option "mock.openapi.count" must be a number or { <collection>: number } (got "many")'],
    [{ openapi: { document: 'a.yaml', ids: 'all' } }, 'mockyard: option "mock.openapi.ids" must be one of "population", "any" (got "all")'],
    [{ openapi: { document: 'a.yaml', mock: 'yes' } }, 'mockyard: option "mock.openapi.mock" must be true or false (got "yes")'],
  ] as Array<[Record<string, unknown>, string]>)('%j is refused, naming the option', (options, message) => {
    expect(optionsError(options)).toBe(message);
  });
});
