/** Handlers named by their route (`{ route: 'GET /users/:id', handle }`, as generated types write them): the same as method + pattern. */
import { afterEach, describe, expect, it } from 'vitest';
import { OptionsError } from '../../../src/core/options.js';
import { call, closeApis, mockApi } from './engine-helpers.js';

afterEach(closeApis);

describe('handlers by route', () => {
  it('route gives the method and the pattern, in the option, in api.use and in scenarios', async () => {
    const api = mockApi({
      handlers: [{ route: 'GET /users/:id', handle: (req) => ({ id: req.params.id }) }],
      scenarios: { s: { handlers: [{ route: 'get /users/:id', handle: () => ({ scenario: true }) }] } },
    });
    expect(await (await call(api, '/api/users/7')).json()).toEqual({ id: '7' });
    expect((await call(api, '/api/users/7', { method: 'POST' })).status).not.toBe(200); // GET only
    expect(await (await call(api, '/api/users/7?__scenario=s')).json()).toEqual({ scenario: true });
    api.use({ route: 'POST /users', handle: (_req, res) => res.status(201).json({ made: true }) });
    const made = await call(api, '/api/users', { method: 'POST' });
    expect(made.status).toBe(201);
    expect(await made.json()).toEqual({ made: true });
  });

  it('a malformed route, or a route with a pattern, is a start-up error naming it', () => {
    expect(() => mockApi({ handlers: [{ route: 'GET users', handle: () => 1 } as never] })).toThrow(OptionsError);
    expect(() => mockApi({ handlers: [{ route: 'GET users', handle: () => 1 } as never] })).toThrow(/mock\.handlers\[0\]\.route/);
    expect(() => mockApi({ handlers: [{ route: 'GET /a', pattern: '/b', handle: () => 1 } as never] })).toThrow(/not both/);
  });
});
