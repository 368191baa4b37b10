/**
 * The options of the json-server surface: `routes` and `middlewares` (src/engine/json-
 * server/options.ts). A wrong value stops start-up with an OptionsError naming the option
 * (core/options.ts), word for word as below.
 */
import { describe, expect, it } from 'vitest';
import { optionsError } from '../../helpers/options-error.js';

describe('json-server options', () => {
  it.each([
    [{ routes: { 'api/*': '/$1' } }, 'mockyard: option "mock.routes["api/*"]" must start with "/" (json-server: "Pay attention to start every route with /")'],
    [{ routes: { '/a': 42 } }, 'mockyard: option "mock.routes["/a"]" must be a path starting with "/" (got 42)'],
    [{ routes: ['/a'] }, 'mockyard: option "mock.routes" must be an object of "from": "to" rules, as json-server\'s routes.json (got ["/a"])'],
    [{ middlewares: [42] }, 'mockyard: option "mock.middlewares[0]" must be a function (got 42)'],
  ] as Array<[Record<string, unknown>, string]>)('%j is refused, naming the option', (options, message) => {
    expect(optionsError(options)).toBe(message);
  });
});
