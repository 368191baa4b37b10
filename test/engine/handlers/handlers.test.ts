/**
 * REST handlers through `engine.handle(new Request(...))`: matching, req/res, middlewares,
 * authenticate, parsers, delay, gateway timeout, forward vs 404, 'FS' handlers, logging.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { HttpError } from '../../../src/core/errors.js';
import { OptionsError } from '../../../src/core/options.js';
import type { HandlerRequest, MiddlewareFunction, RestHandler } from '../../../src/engine/types.js';
import { call, closeApis, deferred, mockApi } from './engine-helpers.js';

afterEach(closeApis);

const echoParams: RestHandler['handle'] = (req) => ({ params: req.params });

describe('matching', () => {
  it('captures and decodes {name} params relative to the prefix', async () => {
    const api = mockApi({ handlers: [{ pattern: '/users/{id}/posts/{postId}', method: 'GET', handle: echoParams }] });
    const res = await call(api, '/api/users/a%20b/posts/%C3%A9');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ params: { id: 'a b', postId: 'é' } });
  });

  it('answers 400 for malformed percent-encoding in a param', async () => {
    const api = mockApi({ handlers: [{ pattern: '/users/{id}', handle: echoParams }] });
    const res = await call(api, '/api/users/%E2%82');
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toMatch(/percent-encoding/);
  });

  it('supports every pattern form', async () => {
    const api = mockApi({
      handlers: [
        { pattern: '/orders/{id:\\d+}', handle: (req) => ({ form: 'regex', ...req.params }) },
        { pattern: '/files/*.csv', handle: (req) => ({ form: 'star', ...req.params }) },
        { pattern: '/v?/ping', handle: () => ({ form: 'question' }) },
        { pattern: '/static/**', handle: (req) => ({ form: 'globstar', ...req.params }) },
      ],
    });
    expect(await (await call(api, '/api/orders/12')).json()).toEqual({ form: 'regex', id: '12' });
    expect((await call(api, '/api/orders/ab')).status).toBe(404);
    expect(await (await call(api, '/api/files/report.csv')).json()).toEqual({ form: 'star', 0: 'report' });
    expect(await (await call(api, '/api/v2/ping')).json()).toEqual({ form: 'question' });
    expect((await call(api, '/api/v10/ping')).status).toBe(404);
    expect(await (await call(api, '/api/static/a/b/c.js')).json()).toEqual({ form: 'globstar', 0: 'a/b/c.js' });
  });

  it('lets array order decide between overlapping patterns', async () => {
    const api = mockApi({
      handlers: [
        { pattern: '/users/me', handle: () => ({ who: 'me' }) },
        { pattern: '/users/{id}', handle: (req) => ({ who: req.params.id }) },
        { pattern: '/users/me', handle: () => ({ who: 'never' }) },
      ],
    });
    expect(await (await call(api, '/api/users/me')).json()).toEqual({ who: 'me' });
    expect(await (await call(api, '/api/users/7')).json()).toEqual({ who: '7' });
  });

  it('matches the method (default GET, case-insensitive, "*" for any) and skips disabled handlers', async () => {
    const api = mockApi({
      handlers: [
        { pattern: '/a', method: 'post', handle: () => ({ m: 'post' }) },
        { pattern: '/a', handle: () => ({ m: 'get' }) },
        { pattern: '/any', method: '*', handle: (req) => ({ m: req.method }) },
        { pattern: '/off', handle: () => ({ m: 'off' }), disabled: true },
      ],
    });
    expect(await (await call(api, '/api/a', { method: 'POST' })).json()).toEqual({ m: 'post' });
    expect(await (await call(api, '/api/a')).json()).toEqual({ m: 'get' });
    expect(await (await call(api, '/api/any', { method: 'DELETE' })).json()).toEqual({ m: 'DELETE' });
    expect(await (await call(api, '/api/any', { method: 'PATCH' })).json()).toEqual({ m: 'PATCH' });
    expect((await call(api, '/api/off')).status).toBe(404);
  });

  it('passes a path whose method has no handler on to file-system mode', async () => {
    const api = mockApi({ handlers: [{ pattern: '/users', method: 'POST', handle: () => ({ handler: true }) }] }, { 'users.json': [{ id: 1 }] });
    const res = await call(api, '/api/users');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual([{ id: 1 }]);
  });

  it('serves HEAD from a GET handler with the body dropped and the length kept', async () => {
    let calls = 0;
    const api = mockApi({ handlers: [{ pattern: '/items', handle: () => { calls++; return { items: [1, 2, 3] }; } }] });
    const get = await call(api, '/api/items');
    const getText = await get.text();
    const head = await call(api, '/api/items', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(new TextEncoder().encode(getText).byteLength));
    expect(head.headers.get('content-type')).toMatch(/application\/json/);
    expect(await head.text()).toBe('');
    expect(calls).toBe(2);
  });

  it('prefers an explicit HEAD handler over the GET fallback, and drops bodies of returned Responses', async () => {
    const api = mockApi({
      handlers: [
        { pattern: '/x', handle: () => new Response('get body', { headers: { 'X-From': 'get' } }) },
        { pattern: '/x', method: 'HEAD', handle: (_req, res) => { res.setHeader('X-From', 'head'); res.end(); } },
        { pattern: '/y', handle: () => new Response('get body', { headers: { 'X-From': 'get' } }) },
      ],
    });
    expect((await call(api, '/api/x', { method: 'HEAD' })).headers.get('x-from')).toBe('head');
    const y = await call(api, '/api/y', { method: 'HEAD' });
    expect(y.headers.get('x-from')).toBe('get');
    expect(await y.text()).toBe('');
  });

  it('rejects invalid patterns and methods at start-up', () => {
    expect(() => mockApi({ handlers: [{ pattern: '/a/{id', handle: () => 1 }] })).toThrow(OptionsError);
    expect(() => mockApi({ handlers: [{ pattern: '/a', method: 'GE T', handle: () => 1 }] })).toThrow(/method/);
    expect(() => mockApi({ handlers: [{ pattern: '/a', handle: () => 1, authenticate: 5 as never }] })).toThrow(/authenticate/);
  });
});

describe('req and res', () => {
  it('gives the handler method, url, path, headers, query (repeated keys as arrays) and the original request', async () => {
    let seen: HandlerRequest | undefined;
    const api = mockApi({ handlers: [{ pattern: '/q', handle: (req) => { seen = req; return null; } }] });
    const request = new Request('http://localhost/api/q?a=1&a=2&b=x', { headers: { 'X-Test': 'yes' } });
    await api.handle(request);
    expect(seen!.method).toBe('GET');
    expect(seen!.url).toBe('http://localhost/api/q?a=1&a=2&b=x');
    expect(seen!.path).toBe('/api/q');
    expect(seen!.headers.get('x-test')).toBe('yes');
    expect(seen!.query).toEqual({ a: ['1', '2'], b: 'x' });
    expect(seen!.request).toBe(request);
    expect(seen!.files).toEqual([]);
    expect(typeof seen!.app.ws.broadcast).toBe('function');
  });

  it('supports the Node style: statusCode, setHeader, write, end, writeHead', async () => {
    const api = mockApi({
      handlers: [
        {
          pattern: '/node',
          handle: (_req, res) => {
            res.statusCode = 201;
            res.setHeader('X-One', '1');
            res.setHeader('X-Gone', 'x');
            res.removeHeader('X-Gone');
            expect(res.getHeader('x-one')).toBe('1');
            res.setHeader('Content-Type', 'text/plain');
            res.write('hello ');
            res.end('world');
          },
        },
        { pattern: '/head', handle: (_req, res) => { res.writeHead(202, { 'X-Two': '2' }).end(); } },
        { pattern: '/cookies', handle: (_req, res) => { res.setHeader('Set-Cookie', ['a=1', 'b=2']); res.end('ok'); } },
      ],
    });
    const a = await call(api, '/api/node');
    expect(a.status).toBe(201);
    expect(a.headers.get('x-one')).toBe('1');
    expect(a.headers.has('x-gone')).toBe(false);
    expect(a.headers.get('content-type')).toBe('text/plain');
    expect(await a.text()).toBe('hello world');
    const b = await call(api, '/api/head');
    expect(b.status).toBe(202);
    expect(b.headers.get('x-two')).toBe('2');
    const c = await call(api, '/api/cookies');
    expect(c.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
  });

  it('supports the Express style: status, json, send, type, set', async () => {
    const api = mockApi({
      handlers: [
        { pattern: '/json', handle: (_req, res) => { res.status(418).set('X-Tea', 'pot').json({ ok: true }); } },
        { pattern: '/html', handle: (_req, res) => { res.send('<b>hi</b>'); } },
        { pattern: '/csv', handle: (_req, res) => { res.type('csv').send('a,b'); } },
        { pattern: '/bytes', handle: (_req, res) => { res.send(new Uint8Array([1, 2, 3])); } },
        { pattern: '/obj', handle: (_req, res) => { res.status(201).send({ a: 1 }); } },
        { pattern: '/empty', handle: (_req, res) => { res.status(204).send(); } },
      ],
    });
    const json = await call(api, '/api/json');
    expect(json.status).toBe(418);
    expect(json.headers.get('x-tea')).toBe('pot');
    expect(json.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await json.json()).toEqual({ ok: true });
    const html = await call(api, '/api/html');
    expect(html.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await html.text()).toBe('<b>hi</b>');
    expect((await call(api, '/api/csv')).headers.get('content-type')).toMatch(/^text\/csv/);
    const bytes = await call(api, '/api/bytes');
    expect(bytes.headers.get('content-type')).toBe('application/octet-stream');
    expect([...new Uint8Array(await bytes.arrayBuffer())]).toEqual([1, 2, 3]);
    const obj = await call(api, '/api/obj');
    expect(obj.status).toBe(201);
    expect(await obj.json()).toEqual({ a: 1 });
    const empty = await call(api, '/api/empty');
    expect(empty.status).toBe(204);
    expect(await empty.text()).toBe('');
  });

  it('supports the Express extras: set(object), type(ext), sendStatus, redirect, req.get', async () => {
    const api = mockApi({
      handlers: [
        { pattern: '/multi', handle: (req, res) => { res.set({ 'X-A': '1', 'X-B': 2 }).type('json').send(JSON.stringify({ ua: req.get('x-ua') })); } },
        { pattern: '/status', handle: (_req, res) => { res.sendStatus(202); } },
        { pattern: '/go', handle: (_req, res) => { res.redirect(301, '/api/elsewhere'); } },
      ],
    });
    const m = await call(api, '/api/multi', { headers: { 'X-UA': 'tester' } });
    expect([m.headers.get('x-a'), m.headers.get('x-b'), m.headers.get('content-type')]).toEqual(['1', '2', 'application/json; charset=utf-8']);
    expect(await m.json()).toEqual({ ua: 'tester' });
    const st = await call(api, '/api/status');
    expect([st.status, await st.text()]).toEqual([202, '202']);
    const go = await call(api, '/api/go');
    expect([go.status, go.headers.get('location')]).toEqual([301, '/api/elsewhere']);
  });

  it('sends a returned plain value as JSON 200 and a returned Response as is; sync or async', async () => {
    const api = mockApi({
      handlers: [
        { pattern: '/value', handle: () => [1, 'two'] },
        { pattern: '/async', handle: async () => { await new Promise((r) => setTimeout(r, 1)); return { late: true }; } },
        { pattern: '/null', handle: () => null },
        { pattern: '/response', handle: () => new Response('teapot', { status: 418, headers: { 'X-R': '1' } }) },
        { pattern: '/status-then-value', handle: (_req, res) => { res.status(201); return { created: true }; } },
      ],
    });
    const v = await call(api, '/api/value');
    expect(v.status).toBe(200);
    expect(await v.json()).toEqual([1, 'two']);
    expect(await (await call(api, '/api/async')).json()).toEqual({ late: true });
    expect(await (await call(api, '/api/null')).text()).toBe('null');
    const r = await call(api, '/api/response');
    expect(r.status).toBe(418);
    expect(r.headers.get('x-r')).toBe('1');
    expect(await r.text()).toBe('teapot');
    expect((await call(api, '/api/status-then-value')).status).toBe(201);
  });

  it('waits for end() after a write in an async flow', async () => {
    const api = mockApi({
      handlers: [{ pattern: '/stream', handle: (_req, res) => { res.write('a'); setTimeout(() => res.end('b'), 5); } }],
    });
    expect(await (await call(api, '/api/stream')).text()).toBe('ab');
  });

  it('answers as soon as the response ends, even when the async handler settles later', async () => {
    const gate = deferred();
    const api = mockApi({ handlers: [{ pattern: '/early', handle: async (_req, res) => { res.json({ early: true }); await gate.promise; throw new Error('after the end'); } }] });
    const res = await call(api, '/api/early');
    expect(await res.json()).toEqual({ early: true });
    gate.resolve();
  });

  it('answers 500 with a clear message for an invalid status, also from an error middleware', async () => {
    const api = mockApi({
      errorMiddlewares: [(err, req, res) => { if (req.query.bad) res.status(42).end(); else res.status(err.status).json({ m: err.message }); }],
      handlers: [{ pattern: '/s', handle: (_req, res) => { res.status(1000).end(); } }],
    });
    const a = await call(api, '/api/s');
    expect(a.status).toBe(500);
    expect(((await a.json()) as { m: string }).m).toMatch(/Invalid response status 1000/);
    const b = await call(api, '/api/s?bad=1');
    expect(b.status).toBe(500);
    expect(((await b.json()) as { message: string }).message).toMatch(/Invalid response status 42/);
  });

  it('answers 500 with a clear message when a handler neither responds nor returns', async () => {
    const api = mockApi({ handlers: [{ pattern: '/nothing', handle: () => undefined }] });
    const res = await call(api, '/api/nothing');
    expect(res.status).toBe(500);
    expect(((await res.json()) as { message: string }).message).toMatch(/GET \/nothing did not send a response/);
  });

  it('turns a throw into the default error response: status kept, internal messages hidden', async () => {
    const api = mockApi({
      handlers: [
        { pattern: '/teapot', handle: () => { throw new HttpError(418, 'short and stout'); } },
        { pattern: '/express', handle: () => { throw Object.assign(new Error('nope'), { status: 403 }); } },
        { pattern: '/bug', handle: () => { throw new TypeError('/secret/path is broken'); } },
        { pattern: '/busy', handle: () => { throw new HttpError(503, 'Try again in a minute'); } },
      ],
    });
    const busy = await call(api, '/api/busy');
    expect(busy.status).toBe(503);
    expect(((await busy.json()) as { message: string }).message).toBe('Try again in a minute');
    const t = await call(api, '/api/teapot');
    expect(t.status).toBe(418);
    expect(await t.json()).toMatchObject({ status: 418, message: 'short and stout', path: '/api/teapot' });
    const e = await call(api, '/api/express');
    expect(e.status).toBe(403);
    expect(((await e.json()) as { message: string }).message).toBe('nope');
    const b = await call(api, '/api/bug');
    expect(b.status).toBe(500);
    expect(await b.text()).not.toMatch(/secret/);
  });
});

describe('middlewares', () => {
  it('run in order after body parsing, for handlers only, and share req.locals', async () => {
    const order: string[] = [];
    const api = mockApi(
      {
        handlerMiddlewares: [
          (req, _res, next) => { order.push(`m1:${JSON.stringify(req.body)}`); req.locals.user = 'ann'; next(); },
          async (_req, _res, next) => { await Promise.resolve(); order.push('m2'); next(); },
          (_req, _res, next) => { setTimeout(() => { order.push('m3'); next(); }, 1); },
        ],
        handlers: [{ pattern: '/me', method: 'POST', handle: (req) => ({ user: req.locals.user }) }],
      },
      { 'file.json': { plain: true } },
    );
    const res = await call(api, '/api/me', { method: 'POST', body: '{"x":1}', headers: { 'Content-Type': 'application/json' } });
    expect(await res.json()).toEqual({ user: 'ann' });
    expect(order).toEqual(['m1:{"x":1}', 'm2', 'm3']);
    order.length = 0;
    expect((await call(api, '/api/file')).status).toBe(200);
    expect(order).toEqual([]);
  });

  it('stop the request when one responds without next(): the handler does not run', async () => {
    let handled = false;
    const api = mockApi({
      handlerMiddlewares: [(req, res, next) => { if (req.headers.get('x-block')) { res.statusCode = 403; res.end('blocked'); return; } next(); }],
      handlers: [{ pattern: '/x', handle: () => { handled = true; return 'ok'; } }],
    });
    const res = await call(api, '/api/x', { headers: { 'X-Block': '1' } });
    expect(res.status).toBe(403);
    expect(await res.text()).toBe('blocked');
    expect(handled).toBe(false);
    expect((await call(api, '/api/x')).status).toBe(200);
    expect(handled).toBe(true);
  });

  it('send next(err) and throws to errorMiddlewares in order, with status and message', async () => {
    const seen: Array<[number, string]> = [];
    const api = mockApi({
      handlerMiddlewares: [(req, _res, next) => { if (req.query.fail === 'next') next(new HttpError(409, 'conflict!')); else next(); }],
      errorMiddlewares: [
        (err, _req, _res, next) => { seen.push([err.status, err.message]); next(err); },
        (err, _req, res) => { res.status(err.status).json({ handledBy: 'second', message: err.message }); },
        () => { throw new Error('never reached'); },
      ],
      handlers: [{ pattern: '/x', handle: () => { throw Object.assign(new Error('thrown'), { status: 422 }); } }],
    });
    const a = await call(api, '/api/x?fail=next');
    expect(a.status).toBe(409);
    expect(await a.json()).toEqual({ handledBy: 'second', message: 'conflict!' });
    const b = await call(api, '/api/x');
    expect(b.status).toBe(422);
    expect(await b.json()).toEqual({ handledBy: 'second', message: 'thrown' });
    expect(seen).toEqual([[409, 'conflict!'], [422, 'thrown']]);
  });

  it('keep the original status when no error middleware responds (a 404 stays 404)', async () => {
    let logged: unknown;
    const api = mockApi({
      errorMiddlewares: [
        (err) => { logged = err; }, // returns without next: passes the error on
        (err, _req, _res, next) => next(err),
      ],
      handlers: [{ pattern: '/missing', handle: () => { throw new HttpError(404, 'No such thing'); } }],
    });
    const res = await call(api, '/api/missing');
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ status: 404, error: 'NOT_FOUND', message: 'No such thing' });
    expect((logged as HttpError).status).toBe(404);
  });

  it('let an error middleware replace the error with next(err2)', async () => {
    const api = mockApi({
      errorMiddlewares: [(_err, _req, _res, next) => next(new HttpError(429, 'try later'))],
      handlers: [{ pattern: '/x', handle: () => { throw new Error('boom'); } }],
    });
    const res = await call(api, '/api/x');
    expect(res.status).toBe(429);
    expect(((await res.json()) as { message: string }).message).toBe('try later');
  });

  it('keep headers a middleware set (CORS) on the default error response', async () => {
    const api = mockApi({
      handlerMiddlewares: [(_req, res, next) => { res.setHeader('Access-Control-Allow-Origin', '*'); next(); }],
      handlers: [{ pattern: '/x', handle: () => { throw new HttpError(400, 'bad'); } }],
    });
    const res = await call(api, '/api/x');
    expect(res.status).toBe(400);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
  });
});

describe('authenticate', () => {
  it('true requires an Authorization header (401 otherwise)', async () => {
    const api = mockApi({ handlers: [{ pattern: '/secret', authenticate: true, handle: () => ({ ok: true }) }] });
    const denied = await call(api, '/api/secret');
    expect(denied.status).toBe(401);
    expect(await denied.json()).toMatchObject({ status: 401, error: 'UNAUTHORIZED' });
    expect((await call(api, '/api/secret', { headers: { Authorization: 'Bearer t' } })).status).toBe(200);
  });

  it('a header name requires that header; a predicate must return true', async () => {
    const api = mockApi({
      handlers: [
        { pattern: '/key', authenticate: 'X-Api-Key', handle: () => 'ok' },
        { pattern: '/pred', authenticate: async (req) => req.query.token === 'good', handle: () => 'ok' },
      ],
    });
    expect((await call(api, '/api/key')).status).toBe(401);
    expect((await call(api, '/api/key', { headers: { 'X-Api-Key': 'k' } })).status).toBe(200);
    expect((await call(api, '/api/pred?token=bad')).status).toBe(401);
    expect((await call(api, '/api/pred?token=good')).status).toBe(200);
  });

  it('goes through errorMiddlewares', async () => {
    const api = mockApi({
      errorMiddlewares: [(err, _req, res) => { res.status(err.status).json({ custom: err.status }); }],
      handlers: [{ pattern: '/s', authenticate: true, handle: () => 'ok' }],
    });
    const res = await call(api, '/api/s');
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ custom: 401 });
  });
});

describe('body parsing', () => {
  const bodyOf: RestHandler = { pattern: '/echo', method: '*', handle: (req) => ({ body: req.body instanceof Uint8Array ? { bytes: [...req.body] } : req.body ?? null, query: req.query, files: req.files.map((f) => ({ ...f, bytes: new TextDecoder().decode(f.bytes) })) }) };

  it('parses JSON and +json bodies', async () => {
    const api = mockApi({ handlers: [bodyOf] });
    const a = await call(api, '/api/echo', { method: 'POST', body: '{"a":[1,2]}', headers: { 'Content-Type': 'application/json; charset=utf-8' } });
    expect(((await a.json()) as { body: unknown }).body).toEqual({ a: [1, 2] });
    const b = await call(api, '/api/echo', { method: 'PUT', body: '{"v":1}', headers: { 'Content-Type': 'application/vnd.api+json' } });
    expect(((await b.json()) as { body: unknown }).body).toEqual({ v: 1 });
  });

  it('answers 400 on invalid JSON (never a string)', async () => {
    let called = false;
    const api = mockApi({ handlers: [{ pattern: '/echo', method: 'POST', handle: () => { called = true; return 'x'; } }] });
    const res = await call(api, '/api/echo', { method: 'POST', body: '{"a":', headers: { 'Content-Type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toMatch(/Malformed JSON/);
    expect(called).toBe(false);
  });

  it('parses urlencoded forms with repeated keys as arrays', async () => {
    const api = mockApi({ handlers: [bodyOf] });
    const res = await call(api, '/api/echo', { method: 'POST', body: 'tag=a&tag=b&name=J%C3%BCrgen&__proto__=x', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
    const body = ((await res.json()) as { body: Record<string, unknown> }).body;
    expect(body.tag).toEqual(['a', 'b']);
    expect(body.name).toBe('Jürgen');
    expect(Object.getOwnPropertyDescriptor(body, '__proto__')?.value).toBe('x');
  });

  it('parses multipart fields into body and files into req.files', async () => {
    const api = mockApi({ handlers: [bodyOf] });
    const form = new FormData();
    form.append('title', 'hello');
    form.append('tag', 'a');
    form.append('tag', 'b');
    form.append('upload', new Blob(['file content'], { type: 'text/plain' }), 'note.txt');
    const res = await call(api, '/api/echo', { method: 'POST', body: form });
    expect(await res.json()).toEqual({
      body: { title: 'hello', tag: ['a', 'b'] },
      query: {},
      files: [{ fieldName: 'upload', filename: 'note.txt', contentType: 'text/plain', bytes: 'file content' }],
    });
  });

  it('parses text as a string and anything else as bytes', async () => {
    const api = mockApi({ handlers: [bodyOf] });
    const t = await call(api, '/api/echo', { method: 'POST', body: 'plain words', headers: { 'Content-Type': 'text/plain' } });
    expect(((await t.json()) as { body: unknown }).body).toBe('plain words');
    const b = await call(api, '/api/echo', { method: 'POST', body: new Uint8Array([0, 255, 7]), headers: { 'Content-Type': 'application/octet-stream' } });
    expect(((await b.json()) as { body: unknown }).body).toEqual({ bytes: [0, 255, 7] });
  });

  it('enforces the body limit with 413', async () => {
    const api = mockApi({ bodyLimit: 10, handlers: [bodyOf] });
    const res = await call(api, '/api/echo', { method: 'POST', body: 'x'.repeat(50), headers: { 'Content-Type': 'text/plain' } });
    expect(res.status).toBe(413);
  });

  it('parser: false leaves the body alone but fills req.query', async () => {
    let seen: HandlerRequest | undefined;
    const api = mockApi({ parser: false, handlers: [{ pattern: '/raw', method: 'POST', handle: async (req) => { seen = req; return { text: await req.request.text() }; } }] });
    const res = await call(api, '/api/raw?x=1', { method: 'POST', body: '{"a":1}', headers: { 'Content-Type': 'application/json' } });
    expect(await res.json()).toEqual({ text: '{"a":1}' });
    expect(seen!.body).toBeUndefined();
    expect(seen!.query).toEqual({ x: '1' });
  });

  it('parser object: parser functions as middlewares, then transform', async () => {
    const upper: MiddlewareFunction = async (req, _res, next) => { (req as { raw?: string }).raw = (await req.request.text()).toUpperCase(); next(); };
    const api = mockApi({
      parser: { parser: [upper], transform: (req) => ({ body: { shout: (req as { raw?: string }).raw }, query: { fixed: 'yes' } }) },
      handlers: [{ pattern: '/p', method: 'POST', handle: (req) => ({ body: req.body, query: req.query }) }],
    });
    const res = await call(api, '/api/p?ignored=1', { method: 'POST', body: 'hey' });
    expect(await res.json()).toEqual({ body: { shout: 'HEY' }, query: { fixed: 'yes' } });
  });
});

describe("custom parser with handle: 'FS'", () => {
  it('lets parser functions read the body the engine already read for file mode', async () => {
    const api = mockApi({
      parser: { parser: async (req, _res, next) => { req.body = { length: (await req.request.text()).length }; next(); } },
      handlerMiddlewares: [(req, res, next) => { res.setHeader('X-Seen', JSON.stringify(req.body)); next(); }],
      handlers: [{ pattern: '/docs/{id}', method: '*', handle: 'FS' }],
    });
    const put = await call(api, '/api/docs/1', { method: 'PUT', body: '{"a":1}', headers: { 'Content-Type': 'application/json' } });
    expect(put.status).toBe(201);
    expect(put.headers.get('x-seen')).toBe('{"length":7}'); // middleware headers reach file-mode responses
    expect(await (await call(api, '/api/docs/1')).json()).toEqual({ a: 1 });
  });

  it("adds a middleware's headers to a file answer, whose own headers win", async () => {
    const api = mockApi({
      handlerMiddlewares: [(_req, res, next) => { res.setHeader('content-type', 'text/plain'); res.setHeader('X-Extra', 'yes'); next(); }],
      handlers: [{ pattern: '/docs/{id}', method: '*', handle: 'FS' }],
    });
    await call(api, '/api/docs/1', { method: 'PUT', body: '{"a":1}', headers: { 'Content-Type': 'application/json' } });
    const get = await call(api, '/api/docs/1');
    expect(get.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(get.headers.get('x-extra')).toBe('yes');
    expect(await get.json()).toEqual({ a: 1 });
  });
});

describe('delay and gateway timeout', () => {
  it("a handler's own delay overrides the global one, including 0", async () => {
    const api = mockApi({
      delay: 3_600_000,
      gatewayTimeout: 0,
      handlers: [
        { pattern: '/fast', delay: 0, handle: () => ({ fast: true }) },
        { pattern: '/slow', handle: () => ({ slow: true }) },
      ],
    });
    let slowDone = false;
    const slow = api.handle(new Request('http://localhost/api/slow')).then(() => (slowDone = true));
    const fast = await call(api, '/api/fast');
    expect(await fast.json()).toEqual({ fast: true });
    expect(slowDone).toBe(false); // still sleeping its hour
    await api.close?.();
    await slow;
  });

  it('answers 504 through errorMiddlewares after gatewayTimeout and drops what the handler sends later', async () => {
    const gate = deferred();
    const finished = deferred();
    const errors: number[] = [];
    let lateWrite: unknown = 'not yet'; // true once the late calls ran and chained; the error if one threw
    const api = mockApi({
      gatewayTimeout: 30,
      errorMiddlewares: [(err, _req, _res, next) => { errors.push(err.status); next(err); }],
      handlers: [
        {
          pattern: '/slow',
          handle: async (_req, res) => {
            await gate.promise;
            try {
              lateWrite = res.status(200).json({ late: true }) === res;
              res.end('again');
            } catch (err) {
              lateWrite = err;
            }
            finished.resolve();
            throw new Error('late failure'); // must not reach errorMiddlewares a second time
          },
        },
      ],
    });
    const res = await call(api, '/api/slow');
    expect(res.status).toBe(504);
    expect(await res.json()).toMatchObject({ status: 504, error: 'GATEWAY_TIMEOUT', message: 'Gateway Timeout' });
    expect(errors).toEqual([504]);
    gate.resolve();
    await finished.promise;
    expect(lateWrite).toBe(true); // the late calls ran without throwing…
    expect(errors).toEqual([504]); // …and were not answered a second time
  });

  it('lets an error middleware shape the 504', async () => {
    const api = mockApi({
      gatewayTimeout: 20,
      errorMiddlewares: [(err, _req, res) => { res.status(err.status).json({ timeout: true }); }],
      handlers: [{ pattern: '/never', handle: () => new Promise(() => {}) }],
    });
    const res = await call(api, '/api/never');
    expect(res.status).toBe(504);
    expect(await res.json()).toEqual({ timeout: true });
  });
});

describe('close', () => {
  it('answers requests still waiting for a handler with 504 when the engine closes (no timer left behind)', async () => {
    const api = mockApi({ handlers: [{ pattern: '/forever', handle: () => new Promise(() => {}) }] });
    const pending = api.handle(new Request('http://localhost/api/forever'));
    await new Promise((r) => setTimeout(r, 5));
    await api.close();
    const res = (await pending)!;
    expect(res.status).toBe(504);
  });
});

describe('unhandled requests', () => {
  it("'404' answers the JSON 404 under a prefix; 'forward' returns undefined", async () => {
    const notFound = mockApi({ handlers: [{ pattern: '/known', handle: () => 'x' }] });
    const r = await call(notFound, '/api/unknown');
    expect(r.status).toBe(404);
    expect(await r.json()).toMatchObject({ status: 404, error: 'NOT_FOUND' });
    const forward = mockApi({ noHandledRestFsRequestsAction: 'forward', handlers: [{ pattern: '/known', handle: () => 'x' }] });
    expect(await forward.handle(new Request('http://localhost/api/unknown'))).toBeUndefined();
    expect((await call(forward, '/api/known')).status).toBe(200);
  });

  it('never answers requests outside every prefix', async () => {
    const api = mockApi({ handlers: [{ pattern: '/**', method: '*', handle: () => 'x' }] });
    expect(await api.handle(new Request('http://localhost/other/thing'))).toBeUndefined();
    expect(await api.handle(new Request('http://localhost/apix'))).toBeUndefined();
  });
});

describe("handle: 'FS'", () => {
  const people = [{ id: 1, name: 'a' }, { id: 2, name: 'b' }, { id: 3, name: 'c' }];

  it('serves a pattern from file-system mode with rewrite and its own pagination', async () => {
    const api = mockApi(
      {
        handlers: [
          {
            pattern: '/people',
            handle: 'FS',
            rewrite: () => '/users',
            pagination: { GET: { type: 'query-param', limit: 'limit', skip: 'skip' } },
          },
          { pattern: '/people/{id}', handle: 'FS', rewrite: (_p, req) => `/users/${req.params.id}` },
        ],
      },
      { 'users.json': people, 'users/2.json': people[1] },
    );
    const page = await call(api, '/api/people?limit=1&skip=1');
    expect(page.status).toBe(200);
    expect(await page.json()).toEqual([{ id: 2, name: 'b' }]);
    expect(page.headers.get('x-total-count')).toBe('3');
    // The plain file URL has no pagination configured: the whole array.
    expect(await (await call(api, '/api/users?limit=1')).json()).toEqual(people);
    expect(await (await call(api, '/api/people/2')).json()).toEqual({ id: 2, name: 'b' });
  });

  it('runs authenticate and middlewares for FS handlers and hands the body on to file mode', async () => {
    const seen: unknown[] = [];
    const api = mockApi({
      handlerMiddlewares: [(req, _res, next) => { seen.push(req.body); next(); }],
      handlers: [{ pattern: '/notes/{id}', method: '*', handle: 'FS', authenticate: true }],
    });
    expect((await call(api, '/api/notes/1', { method: 'PUT', body: '{"t":1}', headers: { 'Content-Type': 'application/json' } })).status).toBe(401);
    const put = await call(api, '/api/notes/1', { method: 'PUT', body: '{"t":1}', headers: { 'Content-Type': 'application/json', Authorization: 'x' } });
    expect(put.status).toBe(201);
    expect(seen).toEqual([{ t: 1 }]);
    const get = await call(api, '/api/notes/1', { headers: { Authorization: 'x' } });
    expect(await get.json()).toEqual({ t: 1 });
  });
});

describe('logging', () => {
  it('writes one debug line per request with method, path, status and duration to the logger option', async () => {
    const lines: string[] = [];
    const sink = { debug: (m: string) => lines.push(m), info: () => {}, warn: () => {}, error: () => {} };
    const api = mockApi({ logLevel: 'debug', logger: sink, handlers: [{ pattern: '/x', handle: () => ({}) }] });
    await call(api, '/api/x');
    await call(api, '/api/nothing-here');
    const access = lines.filter((l) => /\/api\/(x|nothing-here)/.test(l) && /\d+(\.\d+)? ?ms/.test(l));
    expect(access).toHaveLength(2);
    expect(access[0]).toMatch(/GET \/api\/x 200/);
    expect(access[1]).toMatch(/GET \/api\/nothing-here 404/);
  });

  it('logs nothing at debug when the level is info', async () => {
    const lines: string[] = [];
    const sink = { debug: (m: string) => lines.push(m), info: () => {}, warn: () => {}, error: () => {} };
    const api = mockApi({ logLevel: 'info', logger: sink, handlers: [{ pattern: '/x', handle: () => ({}) }] });
    await call(api, '/api/x');
    expect(lines).toEqual([]);
  });
});
