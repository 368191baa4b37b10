/**
 * The options of the openapi surface: `openapi`, the validator's part
 * (src/engine/openapi/options.ts). A wrong value stops start-up with an OptionsError naming the
 * option (core/options.ts), word for word as below.
 */
import { describe, expect, it } from 'vitest';
import { optionsError } from '../../helpers/options-error.js';

describe('openapi options', () => {
  it.each([
    [{ openapi: 42 }, 'mockyard: option "mock.openapi" must be the path of an OpenAPI document, the document object or { document, validateResponses } (got 42)'],
    [{ openapi: { document: '' } }, 'mockyard: option "mock.openapi.document" must be the path of an OpenAPI document or the document object (got "")'],
    [{ openapi: { document: 'a.yaml', validateResponses: 'yes' } }, 'mockyard: option "mock.openapi.validateResponses" must be true or false (got "yes")'],
    [{ openapi: { document: 'a.yaml', validateResponse: true } }, 'mockyard: option "mock.openapi.validateResponse" is not a known option (did you mean "validateResponses"?) (known: document, validateResponses, strictResponses, mock, seed, count, state, ids)'],
  ] as Array<[Record<string, unknown>, string]>)('%j is refused, naming the option', (options, message) => {
    expect(optionsError(options)).toBe(message);
  });
});
