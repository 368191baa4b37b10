/**
 * Scenarios (src/engine/scenarios/): a scenario's handlers and files take precedence over the
 * base ones; selection per request (header, query parameter) or by api.useScenario, switched
 * without restarting; unknown names → 400 with the one error body; the fast path walks the
 * scenario's pipeline.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createMockApi, type MockApi } from '../../../src/engine/create-mock-api.js';
import type { MockApiOptions } from '../../../src/engine/mock-api-options.js';
import { journalFor } from '../../../src/host/journal.js';
import { memoryFs } from '../../../src/vfs/memory.js';
import { req, see } from '../../helpers/engine-request.js';

const opened: MockApi[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((a) => a.close()));
});

function api(extra: Partial<MockApiOptions> = {}): MockApi {
  const a = createMockApi({
    endpointPrefix: '/api',
    logLevel: 'silent',
    fs: memoryFs({
      'mocks/cart.json': { items: [1, 2, 3] },
      'mocks/users.json': [{ id: 1 }],
      'scenarios/empty-cart/cart.json': { items: [] },
      'scenarios/empty-cart/other-cart.json': { scenario: 'empty-cart' },
    }),
    fsDir: 'mocks',
    handlers: [
      { pattern: '/me', method: 'GET', handle: (_r: any, res: any) => res.json({ who: 'base' }) },
      { pattern: '/flags', method: 'GET', handle: (_r: any, res: any) => res.json({ flags: 'base' }) },
    ],
    scenarios: {
      'empty-cart': { fsDir: 'scenarios/empty-cart' },
      'guest': {
        handlers: [{ pattern: '/me', method: 'GET', handle: (_r: any, res: any) => res.status(401).json({ who: 'nobody' }) }],
        disabled: ['GET /flags'],
      },
    },
    ...extra,
  });
  opened.push(a);
  return a;
}

async function get(a: MockApi, path: string, headers?: Record<string, string>) {
  return see(await a.handle(req('GET', path, { headers })));
}

describe('scenarios', () => {
  it('a scenario file takes precedence over the base file; other base files still show', async () => {
    const a = api();
    await a.ready();
    expect((await get(a, '/api/cart')).json).toEqual({ items: [1, 2, 3] });
    expect((await get(a, '/api/cart', { 'X-Mockyard-Scenario': 'empty-cart' })).json).toEqual({ items: [] });
    expect((await get(a, '/api/users?__scenario=empty-cart')).json).toEqual([{ id: 1 }]);
  });

  it("a scenario handler takes precedence over the base handler; disabled base handlers are off", async () => {
    const a = api();
    await a.ready();
    const me = await get(a, '/api/me', { 'x-mockyard-scenario': 'guest' });
    expect([me.status, me.json]).toEqual([401, { who: 'nobody' }]);
    expect((await get(a, '/api/flags', { 'x-mockyard-scenario': 'guest' })).status).toBe(404);
    expect((await get(a, '/api/flags')).json).toEqual({ flags: 'base' });
  });

  it('selects per request, so two parallel requests see different scenarios', async () => {
    const a = api();
    await a.ready();
    const [base, empty, guest] = await Promise.all([get(a, '/api/cart'), get(a, '/api/cart?__scenario=empty-cart'), get(a, '/api/me?__scenario=guest')]);
    expect(base.json).toEqual({ items: [1, 2, 3] });
    expect(empty.json).toEqual({ items: [] });
    expect(guest.status).toBe(401);
  });

  it('api.useScenario switches without restarting; the per-request choice wins over it; null goes back', async () => {
    const a = api();
    await a.ready();
    expect(a.scenarios).toEqual(['empty-cart', 'guest']);
    expect(a.scenario).toBeNull();
    a.useScenario('empty-cart');
    expect(a.scenario).toBe('empty-cart');
    expect((await get(a, '/api/cart')).json).toEqual({ items: [] });
    expect((await get(a, '/api/me', { 'x-mockyard-scenario': 'guest' })).status).toBe(401);
    a.useScenario(null);
    expect((await get(a, '/api/cart')).json).toEqual({ items: [1, 2, 3] });
  });

  it('the fast path (handleCached) walks the chosen scenario, and hands off to handle() in the same pipeline', async () => {
    const a = api();
    await a.ready();
    await get(a, '/api/cart'); // base cached
    await get(a, '/api/cart?__scenario=empty-cart'); // scenario cached
    expect(await see(a.handleCached(req('GET', '/api/cart')))).toMatchObject({ json: { items: [1, 2, 3] } });
    expect(await see(a.handleCached(req('GET', '/api/cart', { headers: { 'x-mockyard-scenario': 'empty-cart' } })))).toMatchObject({ json: { items: [] } });
    a.useScenario('empty-cart');
    expect(await see(a.handleCached(req('GET', '/api/cart')))).toMatchObject({ json: { items: [] } });
    // A synchronous handler of the scenario answers on the fast path too.
    a.useScenario('guest');
    expect(a.handleCached(req('GET', '/api/me'))?.status).toBe(401);
    // Declined on the fast path under 'empty-cart' (a file not read yet): the scenario is
    // switched before handle(), which finishes in the pipeline the fast path chose.
    a.useScenario('empty-cart');
    const r = req('GET', '/api/other-cart');
    expect(a.handleCached(r)).toBeUndefined();
    a.useScenario(null);
    expect((await see(await a.handle(r))).json).toEqual({ scenario: 'empty-cart' });
  });

  it('an unknown scenario is a 400 with the error body (request) or an HttpError 400 (useScenario)', async () => {
    const a = api();
    await a.ready();
    const r = await get(a, '/api/cart', { 'x-mockyard-scenario': 'nope' });
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({ status: 400, error: 'BAD_REQUEST', path: '/api/cart' });
    expect(r.json.message).toContain('Unknown scenario "nope"');
    expect(a.handleCached(req('GET', '/api/cart?__scenario=nope'))?.status).toBe(400);
    expect(() => a.useScenario('nope')).toThrow(/Unknown scenario/);
  });

  it("writes in a scenario go to the scenario's folder, never to the base mocks", async () => {
    const fs = memoryFs({ 'mocks/users.json': [{ id: 1 }] });
    const a = createMockApi({ endpointPrefix: '/api', logLevel: 'silent', fs, fsDir: 'mocks', scenarios: { s: { fsDir: 'scen/s' } } });
    opened.push(a);
    await a.ready();
    const put = await a.handle(req('PUT', '/api/users?__scenario=s', { json: [{ id: 9 }] }));
    expect(put?.status).toBeLessThan(300);
    expect(JSON.parse(new TextDecoder().decode(await fs.read('mocks/users.json')))).toEqual([{ id: 1 }]);
    expect(JSON.parse(new TextDecoder().decode(await fs.read('scen/s/users.json')))).toEqual([{ id: 9 }]);
    expect((await get(a, '/api/users')).json).toEqual([{ id: 1 }]);
    expect((await get(a, '/api/users?__scenario=s')).json).toEqual([{ id: 9 }]);
  });

  it('a scenario delay replaces the global delay only in that scenario', async () => {
    const a = api({ scenarios: { slow: { delay: 5 } } });
    await a.ready();
    await get(a, '/api/cart');
    expect(a.handleCached(req('GET', '/api/cart'))?.status).toBe(200); // no delay: answered at once
    expect(a.handleCached(req('GET', '/api/cart?__scenario=slow'))).toBeUndefined(); // delayed: promise path
  });

  // Its validation: options.test.ts.

  it('the journal names the scenario that answered', async () => {
    const a = api();
    const journal = journalFor(a)!;
    await a.ready();
    await get(a, '/api/cart?__scenario=empty-cart');
    await get(a, '/api/cart');
    expect(journal.list().map((e) => e.scenario)).toEqual([null, 'empty-cart']);
  });
});
