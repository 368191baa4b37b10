/**
 * Per-test overrides, as msw users expect: `api.use(...handlers)` (the `handlers` option's objects,
 * before everything, newest first), `api.resetHandlers()`, `api.reset()` (handlers, scenario and
 * the data of a memory or overlay Vfs); interceptFetch and handlersFor follow them live; a
 * deliberate 5xx prints no stack unless logLevel 'debug'.
 */
import { setupServer } from 'msw/node';
import { afterEach, describe, expect, it } from 'vitest';
import { HttpError } from '../../../src/core/errors.js';
import { createMockApi, type MockApi } from '../../../src/engine/create-mock-api.js';
import type { MockApiOptions } from '../../../src/engine/mock-api-options.js';
import { handlersFor } from '../../../src/msw/index.js';
import { interceptFetch } from '../../../src/test/intercept-fetch.js';
import { memoryFs } from '../../../src/vfs/memory.js';
import { overlayFs } from '../../../src/vfs/overlay.js';
import { closeServers, startServer } from '../../helpers/server.js';

const apis: MockApi[] = [];
afterEach(async () => {
  await closeServers();
  await Promise.all(apis.splice(0).map((a) => a.close()));
});

const TODOS = [{ id: 1, title: 'a', done: false }];

function make(extra: Partial<MockApiOptions> = {}): MockApi {
  const api = createMockApi({ endpointPrefix: '/api', fs: memoryFs({ 'todos.json': TODOS }), preset: 'json-server', logLevel: 'silent', ...extra } as MockApiOptions);
  apis.push(api);
  return api;
}

describe('api.use / resetHandlers through a real server', () => {
  it('a handler added wins over files, collections and configured handlers; newest first; resetHandlers drops them', async () => {
    const api = make({ handlers: [{ pattern: '/hello', handle: () => ({ from: 'config' }) }] });
    const server = await startServer({ engines: [api] });
    const get = async (p: string) => {
      const r = await fetch(`${server.url}/api${p}`);
      return { status: r.status, body: await r.json() };
    };
    expect((await get('/todos/1')).body).toEqual(TODOS[0]);

    api.use({ pattern: '/todos/{id}', handle: (_req, res) => res.status(500).json({ error: 'boom' }) });
    api.use({ pattern: '/hello', handle: () => ({ from: 'use' }) });
    expect(await get('/todos/1')).toEqual({ status: 500, body: { error: 'boom' } });
    expect((await get('/hello')).body).toEqual({ from: 'use' });
    api.use({ pattern: '/todos/{id}', handle: () => ({ newest: true }) });
    expect((await get('/todos/1')).body).toEqual({ newest: true });
    expect((await get('/todos')).body).toEqual(TODOS); // other paths untouched

    api.resetHandlers();
    expect((await get('/todos/1')).body).toEqual(TODOS[0]);
    expect((await get('/hello')).body).toEqual({ from: 'config' });
  });

  it('validates like the handlers option', () => {
    const api = make();
    expect(() => api.use({ pattern: '/x', handle: 42 } as never)).toThrow(/api\.use\[0\]\.handle/);
  });
});

describe('hosts follow the overrides live', () => {
  it('interceptFetch', async () => {
    const api = make();
    const mocked = interceptFetch(api, { baseUrl: 'http://app.test' });
    try {
      api.use({ pattern: '/todos', handle: (_req, res) => res.status(503).json({ down: true }) });
      expect((await fetch('http://app.test/api/todos')).status).toBe(503);
      api.resetHandlers();
      expect((await fetch('http://app.test/api/todos')).status).toBe(200);
    } finally {
      mocked.restore();
    }
  });

  it('msw handlersFor', async () => {
    const api = make();
    const server = setupServer(...handlersFor(api, { baseUrl: 'http://app.test' }));
    server.listen({ onUnhandledRequest: 'error' });
    try {
      api.use({ pattern: '/todos', handle: () => [{ id: 9 }] });
      expect(await (await fetch('http://app.test/api/todos')).json()).toEqual([{ id: 9 }]);
      api.resetHandlers();
      expect(await (await fetch('http://app.test/api/todos')).json()).toEqual(TODOS);
    } finally {
      server.close();
    }
  });
});

describe('api.reset()', () => {
  it('drops use()d handlers, the current scenario, and what was written through an overlay (the base untouched)', async () => {
    const base = memoryFs({ 'todos.json': TODOS });
    const fs = overlayFs(memoryFs(), base);
    const api = make({ fs, scenarios: { broken: { handlers: [{ pattern: '/todos', handle: (_q, res) => res.status(500).json({}) }] } } } as Partial<MockApiOptions>);
    const server = await startServer({ engines: [api] });
    const post = await fetch(`${server.url}/api/todos`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ title: 'b' }) });
    expect(post.status).toBe(201);
    await fetch(`${server.url}/api/todos/1`, { method: 'DELETE' });
    api.use({ pattern: '/other', handle: () => 'x' });
    api.useScenario('broken');
    expect((await fetch(`${server.url}/api/todos`)).status).toBe(500);

    await api.reset();
    expect(api.scenario).toBeNull();
    expect((await fetch(`${server.url}/api/other`)).status).toBe(404);
    expect(await (await fetch(`${server.url}/api/todos`)).json()).toEqual(TODOS);
    expect(JSON.parse(new TextDecoder().decode(await base.read('todos.json')))).toEqual(TODOS);
  });

  it('puts a memoryFs back to its seed', async () => {
    const api = make();
    const server = await startServer({ engines: [api] });
    await fetch(`${server.url}/api/todos/1`, { method: 'DELETE' });
    expect(await (await fetch(`${server.url}/api/todos`)).json()).toEqual([]);
    await api.reset();
    expect(await (await fetch(`${server.url}/api/todos`)).json()).toEqual(TODOS);
  });
});

describe('a deliberate 5xx in a test', () => {
  function logged(logLevel: 'info' | 'debug') {
    const calls: unknown[][] = [];
    const sink = { info: () => {}, warn: () => {}, debug: () => {}, error: (...args: unknown[]) => calls.push(args) };
    const api = make({ logLevel, logger: sink });
    return { api, calls };
  }

  it('prints one line and no stack at the default level; the stack at debug', async () => {
    for (const level of ['info', 'debug'] as const) {
      const { api, calls } = logged(level);
      api.use({ pattern: '/todos', handle: () => { throw new HttpError(500, 'deliberate'); } });
      const server = await startServer({ engines: [api] });
      expect((await fetch(`${server.url}/api/todos`)).status).toBe(500);
      expect(calls).toHaveLength(1);
      expect(String(calls[0]![0])).toMatch(/deliberate/);
      if (level === 'info') expect(calls[0]!.some((a) => a instanceof Error)).toBe(false);
      else expect(calls[0]!.some((a) => a instanceof Error)).toBe(true);
    }
  });
});

describe("noHandledRestFsRequestsAction: 'forward' under handlersFor", () => {
  it("hands what the engine does not serve back to msw's onUnhandledRequest rule; the app's later handlers still get it", async () => {
    const { http, HttpResponse } = await import('msw');
    const api = make({ noHandledRestFsRequestsAction: 'forward' });
    const unhandled: string[] = [];
    const server = setupServer(...handlersFor(api, { baseUrl: 'http://app.test' }), http.get('http://app.test/api/theirs', () => HttpResponse.json({ theirs: true })));
    server.listen({ onUnhandledRequest: (request) => { unhandled.push(new URL(request.url).pathname); } });
    try {
      expect(await (await fetch('http://app.test/api/todos')).json()).toEqual(TODOS);
      expect(await (await fetch('http://app.test/api/theirs')).json()).toEqual({ theirs: true });
      await fetch('http://app.test/api/nothing-here').catch(() => undefined);
      expect(unhandled).toEqual(['/api/nothing-here']);
      // A write the engine answers runs once.
      const created = await fetch('http://app.test/api/todos', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ title: 'b' }) });
      expect(created.status).toBe(201);
      expect(await (await fetch('http://app.test/api/todos')).json()).toHaveLength(2);
    } finally {
      server.close();
    }
  });
});
