/**
 * The layer pipeline (src/engine/pipeline/): one list, walked by both the fast path
 * (handleCached → peek) and the promise path (handle); the context hand-off between the two;
 * errors and the end of the list.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { FastResponse } from '../../../src/core/fast-response.js';
import { assembleMockApi, createMockApi, type MockApi } from '../../../src/engine/create-mock-api.js';
import type { RequestContext } from '../../../src/engine/context.js';
import { PASS, type Layer } from '../../../src/engine/pipeline/layer.js';
import type { MockApiOptions } from '../../../src/engine/mock-api-options.js';
import { memoryFs } from '../../../src/vfs/memory.js';
import { req, see } from '../../helpers/engine-request.js';

const opened: MockApi[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((a) => a.close()));
});

const FILES = { 'users.json': [{ id: 1 }, { id: 2 }], 'other.json': { other: true } };

function api(options: Partial<MockApiOptions>, arrange?: Parameters<typeof assembleMockApi>[1]['arrange']): MockApi {
  const a = assembleMockApi({ endpointPrefix: '/api', fs: memoryFs(FILES), logLevel: 'silent', ...options }, { arrange });
  opened.push(a);
  return a;
}

/** A test layer that answers `/users` while `on`, counting what the pipeline asks it. */
function probe(withPeek: boolean): Layer & { on: boolean; peeks: number; handles: number } {
  const layer = {
    name: 'probe',
    on: false,
    peeks: 0,
    handles: 0,
    answer(ctx: RequestContext): Response | undefined {
      if (!layer.on || ctx.subPath !== '/users') return undefined;
      ctx.answered('probe', 'users override');
      return FastResponse.json('{"from":"probe"}', 200);
    },
    handle(ctx: RequestContext) {
      layer.handles++;
      return layer.answer(ctx);
    },
    peek: withPeek
      ? (ctx: RequestContext) => {
        layer.peeks++;
        return layer.answer(ctx) ?? PASS;
      }
      : undefined,
  };
  if (!withPeek) delete (layer as Partial<typeof layer>).peek;
  return layer;
}

describe('the layer list', () => {
  it('is handlers, then recordings, recorded streams and files (then the preset hints for 404s), by default', () => {
    expect(createMockApi({ endpointPrefix: '/api', fs: memoryFs(), logLevel: 'silent' }).layers).toEqual(['overrides', 'route-overrides', 'handlers', 'recorded', 'streams', 'files', 'preset-hints']);
  });

  it('a layer added before files is consulted on the cached fast path for a path the file cache has', async () => {
    const p = probe(true);
    const a = api({}, (b) => [b.handlers, p, b.files]);
    expect(await a.ready()).toBe(true);
    expect((await see(await a.handle(req('GET', '/api/users')))).json).toEqual(FILES['users.json']); // warms the cache
    const cached = a.handleCached(req('GET', '/api/users'));
    expect(cached).toBeDefined(); // files answered from its cache, after the probe passed
    expect((await see(cached)).json).toEqual(FILES['users.json']);
    const before = p.peeks;
    p.on = true;
    const fromProbe = a.handleCached(req('GET', '/api/users'));
    expect(p.peeks).toBe(before + 1);
    expect((await see(fromProbe)).json).toEqual({ from: 'probe' });
    // and on the promise path
    expect((await see(await a.handle(req('GET', '/api/users')))).json).toEqual({ from: 'probe' });
  });

  it('a layer without peek opts out: requests reaching it take the promise path, which starts at it', async () => {
    const p = probe(false);
    const a = api({}, (b) => [b.handlers, p, b.files]);
    await a.ready();
    await a.handle(req('GET', '/api/users'));
    const r = req('GET', '/api/users');
    expect(a.handleCached(r)).toBeUndefined(); // although files has it cached
    const handlesBefore = p.handles;
    expect((await see(await a.handle(r))).json).toEqual(FILES['users.json']);
    expect(p.handles).toBe(handlesBefore + 1);
    p.on = true;
    expect((await see(await a.handle(req('GET', '/api/users')))).json).toEqual({ from: 'probe' });
  });

  it('handlers win over a cached file on the fast path too: a synchronous handler answers there, a later one through handle, called once', async () => {
    let calls = 0;
    const a = api({
      handlers: [
        { pattern: '/other', method: 'GET', handle: () => { calls++; return { handler: true }; } },
        { pattern: '/later', method: 'GET', handle: async () => { calls++; await new Promise((r) => setTimeout(r, 5)); return { later: true }; } },
        { pattern: '/slow', method: 'GET', delay: 5, handle: () => { calls++; return { slow: true }; } },
      ],
    });
    await a.ready();
    const now = a.handleCached(req('GET', '/api/other'));
    expect((await see(now)).json).toEqual({ handler: true });
    expect(calls).toBe(1);
    // An async handler: started by handleCached, finished by handle for the same request (not run twice).
    const r = req('GET', '/api/later');
    expect(a.handleCached(r)).toBeUndefined();
    expect((await see(await a.handle(r))).json).toEqual({ later: true });
    expect(calls).toBe(2);
    // A delayed route is never answered at once.
    const d = req('GET', '/api/slow');
    expect(a.handleCached(d)).toBeUndefined();
    expect(calls).toBe(2);
    expect((await see(await a.handle(d))).json).toEqual({ slow: true });
    expect(calls).toBe(3);
  });

  it('with CORS a preflight is never answered by a handler on the fast path (a "*" handler is not run)', async () => {
    let calls = 0;
    const a = api({
      cors: true,
      handlers: [
        { pattern: '/any', method: '*', handle: (req: any) => { calls++; return { m: req.method }; } },
        { pattern: '/later', method: '*', handle: async () => { calls++; return { later: true }; } },
      ],
    });
    await a.ready();
    for (const path of ['/api/any', '/api/later']) {
      const preflight = req('OPTIONS', path, { headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'PUT' } });
      expect(a.handleCached(preflight)).toBeUndefined();
      const r = await a.handle(preflight);
      expect(r?.status).toBe(204);
      expect(r?.headers.get('access-control-allow-methods')).toContain('PUT');
    }
    expect(calls).toBe(0);
    // Not a preflight: the handler answers on the fast path, with the CORS headers.
    const plain = a.handleCached(req('GET', '/api/any', { headers: { origin: 'http://localhost:5173' } }));
    expect(plain?.headers.get('access-control-allow-origin')).not.toBeNull();
    expect(calls).toBe(1);
  });

  it('the end of the list: the JSON 404 (at once on the fast path when every layer passes), or undefined with forward', async () => {
    const noFiles = api({ fsDir: null, fs: undefined });
    await noFiles.ready();
    const nf = noFiles.handleCached(req('GET', '/api/nothing'));
    expect(nf?.status).toBe(404);
    expect((await see(nf)).json).toMatchObject({ status: 404, path: '/api/nothing' });
    expect((await noFiles.handle(req('GET', '/api/nothing')))?.status).toBe(404);
    const fwd = api({ fsDir: null, fs: undefined, noHandledRestFsRequestsAction: 'forward' });
    await fwd.ready();
    const r = req('GET', '/api/nothing');
    expect(fwd.handleCached(r)).toBeUndefined();
    expect(await fwd.handle(r)).toBeUndefined();
  });

  it('an error thrown by a layer becomes the JSON error body, logged', async () => {
    const errors: string[] = [];
    const boom: Layer = { name: 'boom', handle: () => { throw new Error('kaput'); }, peek: () => { throw new Error('kaput'); } };
    const a = assembleMockApi(
      { endpointPrefix: '/api', fs: memoryFs(FILES), logLevel: 'error', logger: { error: (m: string) => void errors.push(m), warn() {}, info() {}, debug() {} } },
      { arrange: (b) => [boom, ...b.layers] },
    );
    opened.push(a);
    const r = req('GET', '/api/users');
    expect(a.handleCached(r)).toBeUndefined(); // a throwing peek means "cannot tell"
    const res = await see(await a.handle(r));
    expect(res.status).toBe(500);
    expect(res.json).toMatchObject({ status: 500, path: '/api/users' });
    expect(errors.join('\n')).toContain('kaput');
  });
});

describe('context hand-off between handleCached and handle', () => {
  /** A layer that always passes (counting peeks and handles) in front of one that cannot tell at once. */
  function counted() {
    const passer = { name: 'passer', peeks: 0, handles: 0, peek(): typeof PASS { passer.peeks++; return PASS; }, handle() { passer.handles++; return undefined; } };
    const seen: RequestContext[] = [];
    const slow: Layer = {
      name: 'slow',
      peek: (ctx) => {
        ctx.peeked = `prepared for ${ctx.pathname}`;
        return undefined;
      },
      handle: async (ctx) => {
        seen.push(ctx);
        return FastResponse.json(JSON.stringify({ peeked: ctx.peeked ?? null }), 200);
      },
    };
    const a = api({}, () => [passer, slow]);
    return { a, passer, seen };
  }

  it('handle resumes where the declined fast path stopped: the same context, no layer asked twice', async () => {
    const { a, passer, seen } = counted();
    const r = req('GET', '/api/x');
    expect(a.handleCached(r)).toBeUndefined();
    expect(passer.peeks).toBe(1);
    const res = await see(await a.handle(r));
    expect(res.json).toEqual({ peeked: 'prepared for /api/x' });
    expect(passer.peeks).toBe(1); // not asked again
    expect(passer.handles).toBe(0); // it said PASS: the promise path starts after it
    expect(seen[0]!.request).toBe(r);
  });

  it('each Request keeps its own context when declines interleave (no one-slot hand-off)', async () => {
    const { a, passer, seen } = counted();
    const r1 = req('GET', '/api/one');
    const r2 = req('GET', '/api/two');
    expect(a.handleCached(r1)).toBeUndefined();
    expect(a.handleCached(r2)).toBeUndefined();
    const [x1, x2] = await Promise.all([a.handle(r1), a.handle(r2)]);
    expect((await see(x1)).json).toEqual({ peeked: 'prepared for /api/one' });
    expect((await see(x2)).json).toEqual({ peeked: 'prepared for /api/two' });
    expect(passer.peeks).toBe(2);
    expect(seen.map((c) => c.request)).toEqual([r1, r2]);
  });

  it('handle for a Request handleCached never saw builds its own context; a prepared one is used once', async () => {
    const { a, passer } = counted();
    const r = req('GET', '/api/y');
    await a.handle(r);
    expect(passer.peeks).toBe(1);
    a.handleCached(r);
    await a.handle(r);
    await a.handle(r); // the prepared context was taken by the previous call
    expect(passer.peeks).toBe(3);
  });
});

describe('a layer wrapping the answer of the layers after it (around)', () => {
  /** Wraps every request: records what the later layers answered, and replaces a 404 with a 418. */
  function wrapper() {
    const seen: Array<{ status: number | undefined; by: string | undefined }> = [];
    const layer: Layer = {
      name: 'wrapper',
      peek: () => undefined, // a wrapped request must take the promise path
      handle: () => undefined,
      async around(ctx, next) {
        const r = await next();
        seen.push({ status: r?.status, by: ctx.answeredBy?.layer });
        if (r?.status === 404) return FastResponse.json('{"replaced":true}', 418);
        return r;
      },
    };
    return { layer, seen };
  }

  it('sees the answer of every later layer (files, a throwing layer, the end of the list) and may replace it', async () => {
    const { layer, seen } = wrapper();
    const boom: Layer = { name: 'boom', handle: (ctx) => { if (ctx.subPath === '/boom') throw new Error('kaput'); return undefined; } };
    const a = api({ logLevel: 'silent' }, (b) => [layer, boom, ...b.layers]);
    const users = req('GET', '/api/users');
    expect(a.handleCached(users)).toBeUndefined(); // the wrapper's peek sends it to the promise path
    const ok = await see(await a.handle(users));
    expect(ok.status).toBe(200);
    expect(ok.json).toEqual([{ id: 1 }, { id: 2 }]);
    const failed = await see(await a.handle(req('GET', '/api/boom')));
    expect(failed.status).toBe(500); // the error body reaches the wrapper as an answer
    const missing = await see(await a.handle(req('GET', '/api/nothing')));
    expect(missing.status).toBe(418);
    expect(missing.json).toEqual({ replaced: true });
    expect(seen).toEqual([
      { status: 200, by: 'files' },
      { status: 500, by: 'boom' },
      { status: 404, by: 'not-found' },
    ]);
  });

  it('is not asked for a request its own handle answered, nor for one that ended before it', async () => {
    const { layer, seen } = wrapper();
    const first: Layer = { name: 'first', handle: (ctx) => (ctx.subPath === '/first' ? FastResponse.json('{"first":true}', 200) : undefined) };
    const a = api({}, (b) => [first, { ...layer, handle: (ctx) => (ctx.subPath === '/own' ? FastResponse.json('{"own":true}', 200) : undefined) }, ...b.layers]);
    expect((await see(await a.handle(req('GET', '/api/first')))).json).toEqual({ first: true });
    expect((await see(await a.handle(req('GET', '/api/own')))).json).toEqual({ own: true });
    expect(seen).toEqual([]);
  });
});
