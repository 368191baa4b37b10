/**
 * The options of the graphql surface: `graphql` (src/engine/graphql/options.ts). A wrong value
 * stops start-up with an OptionsError naming the option (core/options.ts), word for word as below.
 */
import { describe, expect, it } from 'vitest';
import { optionsError } from '../../helpers/options-error.js';

describe('graphql options', () => {
  it.each([
    [{ graphql: 'yes' }, 'mockyard: option "mock.graphql" must be true, false or { path }'],
    [{ graphql: { path: '/' } }, 'mockyard: option "mock.graphql.path" must be a path below the prefix such as /graphql (got "/")'],
    [{ graphql: { pth: '/g' } }, 'mockyard: option "mock.graphql.pth" is not a known option (did you mean "path"?) (known: path, schema)'],
  ] as Array<[Record<string, unknown>, string]>)('%j is refused, naming the option', (options, message) => {
    expect(optionsError(options)).toBe(message);
  });
});
