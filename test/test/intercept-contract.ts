/**
 * interceptFetch's behaviour, run in each vitest environment (node, happy-dom, jsdom: one test
 * file per environment calls `interceptFetchContract()`).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMockApi, type MockApi } from '../../src/engine/create-mock-api.js';
import { memoryFs, type MemoryVfs } from '../../src/vfs/memory.js';
import { sse } from '../../src/engine/streams/responses.js';
import { interceptFetch, type FetchInterception } from '../../src/test/index.js';

const seed = {
  'users.json': [
    { id: 1, name: 'Ada', role: 'admin' },
    { id: 2, name: 'Grace', role: 'dev' },
    { id: 3, name: 'Linus', role: 'dev' },
  ],
};

/** An XMLHttpRequest round trip: status, body text and headers, or the error event. */
function xhr(method: string, url: string, body?: string): Promise<{ status: number; text: string; total: string | null } | 'error'> {
  return new Promise((resolve) => {
    const x = new XMLHttpRequest();
    x.open(method, url);
    if (body !== undefined) x.setRequestHeader('content-type', 'application/json');
    x.onload = () => resolve({ status: x.status, text: x.responseText, total: x.getResponseHeader('x-total-count') });
    x.onerror = () => resolve('error');
    x.send(body);
  });
}

export function interceptFetchContract(environment: 'node' | 'happy-dom' | 'jsdom'): void {
  let fs: MemoryVfs;
  let api: MockApi;
  let mocked: FetchInterception | undefined;
  let endlessEnded: () => void = () => {};
  const realFetch = globalThis.fetch;

  beforeEach(async () => {
    fs = memoryFs(seed);
    api = createMockApi({
      endpointPrefix: '/api',
      fs,
      logLevel: 'silent',
      pagination: { GET: { type: 'query-param', limit: '_limit', skip: '_skip' } },
      filters: { GET: { type: 'query-param', filters: [{ key: 'role', comparison: 'eq' }] } },
      handlers: [
        { pattern: '/slow', delay: 40, handle: () => ({ slow: true }) },
        {
          pattern: '/endless',
          // Sends one event, then waits for the client to go away (the stream's signal).
          handle: (req) =>
            sse(async function* ({ signal }) {
              try {
                yield { data: 'first' };
                await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
              } finally {
                endlessEnded();
              }
            }, { request: req }),
        },
      ],
    });
  });

  afterEach(async () => {
    mocked?.restore();
    mocked = undefined;
    globalThis.fetch = realFetch;
    vi.useRealTimers();
    vi.restoreAllMocks();
    await api.close();
  });

  describe(`interceptFetch (${environment} environment)`, () => {
    it('answers a relative fetch under the prefix from the engine, filters and paging included', async () => {
      mocked = interceptFetch(api);
      const res = await fetch('/api/users?role=dev&_limit=1');
      expect(res.status).toBe(200);
      expect(res.headers.get('x-total-count')).toBe('2');
      expect(await res.json()).toEqual([{ id: 2, name: 'Grace', role: 'dev' }]);
      expect(res.url).toMatch(/^http:\/\/localhost(:\d+)?\/api\/users\?role=dev&_limit=1$/);
      expect(res).toBeInstanceOf(Response);
    });

    it('writes reach the filesystem, and requests keeps what the code sent', async () => {
      mocked = interceptFetch(api);
      const res = await fetch('/api/users/4', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: 4, name: 'Barbara' }) });
      expect(res.status).toBe(201);
      expect(JSON.parse(new TextDecoder().decode(await fs.read('users/4.json')))).toEqual({ id: 4, name: 'Barbara' });
      expect(mocked.requests).toHaveLength(1);
      expect(mocked.requests[0]!.method).toBe('POST');
      expect(await mocked.requests[0]!.json()).toEqual({ id: 4, name: 'Barbara' });
      await fs.reset();
      expect(await fs.stat('users/4.json')).toBeNull();
    });

    it('requestsTo picks the recorded requests of one route (method + pattern below the prefix)', async () => {
      mocked = interceptFetch(api);
      await fetch('/api/users?role=dev');
      await fetch('/api/users/5', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: 5, name: 'Ken' }) });
      await fetch('/api/users/2');
      const posts = mocked.requestsTo('POST /users/:id');
      expect(posts.map((r) => new URL(r.url).pathname)).toEqual(['/api/users/5']);
      expect(await posts[0]!.json()).toEqual({ id: 5, name: 'Ken' });
      expect(mocked.requestsTo('GET /users/{id}').map((r) => new URL(r.url).pathname)).toEqual(['/api/users/2']);
      expect(mocked.requestsTo('GET /users')).toHaveLength(1);
      expect(() => mocked!.requestsTo('users' as never)).toThrow(/METHOD \/pattern/);
      await fs.reset();
    });

    it('hands the engine a Request that behaves as one (headers, lower-case method, signal, clone)', async () => {
      mocked = interceptFetch(api);
      const res = await fetch('/api/users?role=admin', { method: 'get', headers: { 'x-trace': 't1' } });
      expect(await res.json()).toHaveLength(1);
      const seen = mocked.requests[0]!;
      expect(seen).toBeInstanceOf(Request);
      expect(seen.method).toBe('GET');
      expect(seen.headers.get('x-trace')).toBe('t1');
      expect(seen.signal).toBeInstanceOf(AbortSignal);
      expect(seen.clone().url).toBe(seen.url);
      expect(seen.body).toBeNull();
    });

    it('takes Request objects and URL objects', async () => {
      mocked = interceptFetch(api);
      const viaRequest = await fetch(new Request(new URL('/api/users/', location_()).href));
      expect((await viaRequest.json()).length).toBe(3);
      const viaUrl = await fetch(new URL('/api/users?role=admin', location_()));
      expect(await viaUrl.json()).toEqual([{ id: 1, name: 'Ada', role: 'admin' }]);
    });

    it("fails loudly on a request no engine answers (default onUnhandled: 'error')", async () => {
      const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
      mocked = interceptFetch(api);
      await expect(fetch('/elsewhere')).rejects.toThrow(/no engine answers GET http:\/\/localhost(:\d+)?\/elsewhere/);
      await expect(fetch('https://other.example/api/users')).rejects.toThrow(TypeError);
      expect(logged).toHaveBeenCalledTimes(2);
    });

    it("sends unhandled requests to the original fetch with onUnhandled: 'bypass'", async () => {
      const original = vi.fn(async (input: RequestInfo | URL) => new Response(`network:${String(input instanceof Request ? input.url : input)}`));
      globalThis.fetch = original as typeof fetch;
      mocked = interceptFetch(api, { onUnhandled: 'bypass' });
      expect(await (await fetch('/elsewhere')).text()).toMatch(/^network:http:\/\/localhost(:\d+)?\/elsewhere$/);
      expect((await fetch('/api/users')).status).toBe(200);
      expect(original).toHaveBeenCalledTimes(1);
      mocked.restore();
      expect(globalThis.fetch).toBe(original);
    });

    it('baseUrl sets the origin that is intercepted and where relative URLs resolve', async () => {
      mocked = interceptFetch(api, { baseUrl: 'https://api.example.com/' });
      const res = await fetch('https://api.example.com/api/users?role=admin');
      expect(await res.json()).toHaveLength(1);
      expect((await fetch('api/users')).url).toBe('https://api.example.com/api/users');
      expect(() => interceptFetch(api, { baseUrl: '/relative' })).toThrow(/baseUrl must be an absolute URL/);
      expect(() => interceptFetch(api, { onUnhandled: 'warn' as never })).toThrow(/onUnhandled/);
    });

    it('does not deadlock under fake timers (handler delay)', async () => {
      vi.useFakeTimers();
      mocked = interceptFetch(api);
      expect(await (await fetch('/api/slow')).json()).toEqual({ slow: true });
    });

    it('rejects with AbortError when the signal aborts while the engine delays', async () => {
      mocked = interceptFetch(api);
      const controller = new AbortController();
      const pending = fetch('/api/slow', { signal: controller.signal });
      controller.abort();
      await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
      await expect(fetch('/api/users', { signal: AbortSignal.abort() })).rejects.toMatchObject({ name: 'AbortError' });
    });

    it('restore() puts the original fetch back', async () => {
      const before = globalThis.fetch;
      mocked = interceptFetch(api);
      expect(globalThis.fetch).not.toBe(before);
      mocked.restore();
      mocked.restore();
      expect(globalThis.fetch).toBe(before);
    });

    if (environment === 'node') {
      it('has no XMLHttpRequest to patch in node', () => {
        mocked = interceptFetch(api);
        expect(typeof (globalThis as { XMLHttpRequest?: unknown }).XMLHttpRequest).toBe('undefined');
      });
    } else {
      it('answers XMLHttpRequest too (relative URL, headers, writes)', async () => {
        mocked = interceptFetch(api);
        const got = await xhr('GET', '/api/users?role=dev');
        expect(got).not.toBe('error');
        const ok = got as Exclude<typeof got, 'error'>;
        expect(ok.status).toBe(200);
        expect(ok.total).toBe('2');
        expect(JSON.parse(ok.text)).toHaveLength(2);
        const posted = await xhr('POST', '/api/notes', JSON.stringify({ text: 'hi' }));
        expect(posted).toMatchObject({ status: 201 });
        expect(JSON.parse(new TextDecoder().decode(await fs.read('notes.json')))).toEqual({ text: 'hi' });
      });

      it("fails an unhandled XMLHttpRequest with a network error (onUnhandled: 'error')", async () => {
        vi.spyOn(console, 'error').mockImplementation(() => {});
        mocked = interceptFetch(api);
        expect(await xhr('GET', '/elsewhere')).toBe('error');
      });

      it("an XMLHttpRequest's abort() reaches the engine: the request's signal aborts and a stream it answered with ends", async () => {
        mocked = interceptFetch(api);
        const ended = new Promise<void>((resolve) => (endlessEnded = resolve));
        const x = new XMLHttpRequest();
        x.open('GET', '/api/endless');
        x.send();
        await vi.waitFor(() => expect(mocked!.requests).toHaveLength(1));
        const seen = mocked.requests[0]!;
        expect(seen.signal.aborted).toBe(false);
        x.abort();
        expect(seen.signal.aborted).toBe(true);
        await ended; // the generator's finally ran (bounded by the test's timeout, not a measured time)
      });

      it('stops intercepting XMLHttpRequest after restore()', async () => {
        mocked = interceptFetch(api);
        mocked.restore();
        const Xhr = globalThis.XMLHttpRequest;
        mocked = interceptFetch(api, { xhr: false });
        expect(globalThis.XMLHttpRequest).toBe(Xhr);
      });
    }
  });
}

/** The page URL where there is one, else the default base. */
function location_(): string {
  const href = (globalThis as { location?: { href?: string } }).location?.href;
  return href && /^https?:/.test(href) ? href : 'http://localhost/';
}
