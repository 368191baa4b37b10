/**
 * `handlersFor(engines)` inside the app's own msw `setupServer` (vitest node environment, absolute
 * URLs). Runs against the msw this project resolves: 2.x in the default project, 3.x in the
 * `msw3` project of vitest.config.ts (where Node allows it).
 */
import { http, HttpResponse } from 'msw';
import mswPackage from 'msw/package.json' with { type: 'json' };
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMockApi, type MockApi } from '../../src/engine/create-mock-api.js';
import { handlersFor } from '../../src/msw/index.js';
import { memoryFs, type MemoryVfs } from '../../src/vfs/memory.js';

const API = 'http://api.test';
const seed = { 'users.json': [{ id: 1, role: 'admin' }, { id: 2, role: 'dev' }, { id: 3, role: 'dev' }] };

let fs: MemoryVfs;
let api: MockApi;
let forwarding: MockApi;
const server = setupServer();

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());
beforeEach(() => {
  fs = memoryFs(seed);
  api = createMockApi({
    endpointPrefix: '/api',
    fs,
    logLevel: 'silent',
    filters: { GET: { type: 'query-param', filters: [{ key: 'role' }] } },
    handlers: [{ pattern: '/users/:id/badge', handle: (req) => ({ badge: `#${req.params.id}` }) }],
  });
  forwarding = createMockApi({ endpointPrefix: '/v2', fs: memoryFs({ 'a.json': { a: 1 } }), logLevel: 'silent', noHandledRestFsRequestsAction: 'forward' });
});
afterEach(async () => {
  server.resetHandlers();
  vi.restoreAllMocks();
  await api.close();
  await forwarding.close();
});

describe(`handlersFor inside setupServer (msw ${mswPackage.version})`, () => {
  it('returns one catch-all per prefix (no WebSocket link without wsHandlers)', () => {
    expect(handlersFor(api)).toHaveLength(1);
    expect(handlersFor([api, forwarding])).toHaveLength(2);
  });

  it('serves file mode (filters, X-Total-Count) and handlers for absolute URLs', async () => {
    server.use(...handlersFor(api));
    const res = await fetch(`${API}/api/users?role=dev`);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-total-count')).toBe('2');
    expect(await res.json()).toEqual([{ id: 2, role: 'dev' }, { id: 3, role: 'dev' }]);
    expect(await (await fetch(`${API}/api/users/7/badge`)).json()).toEqual({ badge: '#7' });
  });

  it('writes reach the filesystem', async () => {
    server.use(...handlersFor(api));
    const res = await fetch(`${API}/api/notes`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"text":"hi"}' });
    expect(res.status).toBe(201);
    expect(new TextDecoder().decode(await fs.read('notes.json'))).toBe('{"text":"hi"}');
  });

  it("lives beside the app's own handlers: theirs first override, other paths are theirs", async () => {
    server.use(
      http.get(`${API}/api/users/1`, () => HttpResponse.json({ id: 1, from: 'app' })),
      http.get(`${API}/auth/me`, () => HttpResponse.json({ me: 'ada' })),
      ...handlersFor(api),
    );
    expect(await (await fetch(`${API}/api/users/1`)).json()).toEqual({ id: 1, from: 'app' });
    expect(await (await fetch(`${API}/auth/me`)).json()).toEqual({ me: 'ada' });
    expect((await (await fetch(`${API}/api/users`)).json()).length).toBe(3);
    expect((await fetch(`${API}/api/nope`)).status).toBe(404);
  });

  it("a request no engine answers (forward) goes on to the next handler", async () => {
    server.use(...handlersFor(forwarding), http.get(`${API}/v2/other`, () => HttpResponse.text('app')));
    expect(await (await fetch(`${API}/v2/a`)).json()).toEqual({ a: 1 });
    expect(await (await fetch(`${API}/v2/other`)).text()).toBe('app');
  });

  it('baseUrl restricts the origin', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    server.use(...handlersFor(api, { baseUrl: 'https://backend.example' }));
    expect((await fetch('https://backend.example/api/users')).status).toBe(200);
    await expect(fetch(`${API}/api/users`)).rejects.toThrow();
    expect(() => handlersFor(api, { baseUrl: '/x' })).toThrow(/baseUrl must be an absolute URL/);
  });
});
