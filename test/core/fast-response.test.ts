import { describe, expect, it } from 'vitest';
import { FastResponse, fastBodyBytes, fastState, mergeHeaders, toNativeResponse, utf8Length, withHeaders } from '../../src/core/fast-response.js';
import { corsHeaders, resolveCors } from '../../src/core/cors.js';

describe('FastResponse', () => {
  it('is a Response for every caller', async () => {
    const r = FastResponse.json('{"a":1}', 201, { 'X-Total-Count': '1' });
    expect(r).toBeInstanceOf(Response);
    expect(r.status).toBe(201);
    expect(r.ok).toBe(true);
    expect(r.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(r.headers.get('content-length')).toBe('7');
    expect(r.headers.get('x-total-count')).toBe('1');
    expect(await r.json()).toEqual({ a: 1 });
    expect(r.bodyUsed).toBe(true);
  });

  it('exposes plain state to hosts until something materialises the native response', async () => {
    const r = FastResponse.json('[1,2]', 200);
    const s = fastState(r)!;
    expect(s.status).toBe(200);
    expect(new TextDecoder().decode(fastBodyBytes(s)!)).toBe('[1,2]');
    expect(s.headers['Content-Length']).toBe('5');
    // Mutating headers through the Response API must win over the stale plain state.
    r.headers.set('X-Extra', 'yes');
    expect(fastState(r)).toBeUndefined();
    const native = toNativeResponse(r);
    expect(native.headers.get('x-extra')).toBe('yes');
    expect(await native.text()).toBe('[1,2]');
  });

  it('HEAD keeps the GET Content-Length and drops the body', async () => {
    const r = FastResponse.json('{"x":"long body"}', 200, undefined, true);
    expect(fastState(r)!.body).toBeNull();
    expect(fastState(r)!.headers['Content-Length']).toBe('17');
    expect(await r.text()).toBe('');
  });

  it('drops bodies for null-body statuses', () => {
    const r = new FastResponse('ignored', { status: 204 }) as unknown as Response;
    expect(fastState(r)!.body).toBeNull();
    expect(r.body).toBeNull();
  });

  it('clone() and text() work through the native response', async () => {
    const r = FastResponse.bytes(new Uint8Array([104, 105]), 200, { 'Content-Type': 'text/plain' });
    const c = r.clone();
    expect(await c.text()).toBe('hi');
    expect(await r.text()).toBe('hi');
  });

  it('short JSON stays text for the host, with Content-Length in UTF-8 bytes; long JSON is bytes', async () => {
    const text = JSON.stringify({ name: 'Zoë 😀 ✓', lone: '\ud800' });
    const r = FastResponse.json(text);
    const s = fastState(r)!;
    expect(typeof s.body).toBe('string');
    expect(s.headers['Content-Length']).toBe(String(new TextEncoder().encode(text).byteLength));
    const long = FastResponse.json(JSON.stringify('é'.repeat(5000)));
    expect(fastState(long)!.body).toBeInstanceOf(Uint8Array);
    expect(fastState(long)!.headers['Content-Length']).toBe(String(new TextEncoder().encode(JSON.stringify('é'.repeat(5000))).byteLength));
    // the native form is the same bytes, and no text/plain type sneaks in
    const n = toNativeResponse(FastResponse.json(text, 200, { 'Content-Type': 'application/problem+json' }));
    expect(n.headers.get('content-type')).toBe('application/problem+json');
    expect(await n.text()).toBe(text);
  });

  it('utf8Length counts like TextEncoder, lone surrogates included', () => {
    for (const t of ['', 'abc', 'é', '✓', '😀', 'a\ud800b', '\udc00', 'x\ud83d', '😀\ud83d\ude00é✓']) {
      expect(utf8Length(t)).toBe(new TextEncoder().encode(t).byteLength);
    }
  });

  it('toNativeResponse returns platform responses unchanged', () => {
    const native = new Response('x');
    expect(toNativeResponse(native)).toBe(native);
    expect(fastState(native)).toBeUndefined();
  });

  it('withHeaders adds headers without touching the original; merges of two frozen sets are made once', async () => {
    const shared = Object.freeze({ 'Content-Type': 'application/json', 'Content-Length': '2' });
    const vary = Object.freeze({ Vary: 'Origin' });
    const a = withHeaders(new FastResponse('{}', { headers: shared }) as unknown as Response, vary);
    const b = withHeaders(new FastResponse('{}', { headers: shared }) as unknown as Response, vary);
    expect(fastState(a)!.headers).toEqual({ 'Content-Type': 'application/json', 'Content-Length': '2', Vary: 'Origin' });
    expect(fastState(b)!.headers).toBe(fastState(a)!.headers); // memoised
    expect(Object.isFrozen(fastState(a)!.headers)).toBe(true);
    expect(shared).toEqual({ 'Content-Type': 'application/json', 'Content-Length': '2' });
    expect(a).toBeInstanceOf(Response);
    expect(a.headers.get('vary')).toBe('Origin');
    expect(await a.text()).toBe('{}');
    // a header set that is not frozen is merged per call, into a fresh object
    const own = { 'X-A': '1' };
    const m1 = mergeHeaders(own, vary);
    const m2 = mergeHeaders(own, vary);
    expect(m1).toEqual({ 'X-A': '1', Vary: 'Origin' });
    expect(m1).not.toBe(m2);
    m1['X-B'] = '2';
    expect(own).toEqual({ 'X-A': '1' });
    // the extra set wins over the response's own value, whatever the spelling of its name…
    const acao = Object.freeze({ 'Access-Control-Allow-Origin': 'http://app.example' });
    expect(mergeHeaders({ 'access-control-allow-origin': 'https://other.example', 'x-a': '1' }, acao)).toEqual({ 'x-a': '1', 'Access-Control-Allow-Origin': 'http://app.example' });
    // …except Vary, a list: its entries are added (once)
    expect(mergeHeaders(Object.freeze({ Vary: 'Accept' }), vary)).toEqual({ Vary: 'Accept, Origin' });
    expect(mergeHeaders({ vary: 'origin, Accept-Encoding' }, vary)).toEqual({ Vary: 'origin, Accept-Encoding' });
    expect(mergeHeaders({ vary: '*' }, vary)).toEqual({ Vary: '*' });
    // frozen pairs one after another: each pair its own merge (the last pair is remembered)
    const other = Object.freeze({ 'Content-Type': 'text/plain' });
    const pairs: Array<[typeof shared | typeof other, typeof vary | typeof acao]> = [[shared, vary], [shared, vary], [shared, acao], [other, acao], [other, vary], [shared, vary]];
    expect(pairs.map(([base, extra]) => mergeHeaders(base, extra))).toEqual([
      { 'Content-Type': 'application/json', 'Content-Length': '2', Vary: 'Origin' },
      { 'Content-Type': 'application/json', 'Content-Length': '2', Vary: 'Origin' },
      { 'Content-Type': 'application/json', 'Content-Length': '2', 'Access-Control-Allow-Origin': 'http://app.example' },
      { 'Content-Type': 'text/plain', 'Access-Control-Allow-Origin': 'http://app.example' },
      { 'Content-Type': 'text/plain', Vary: 'Origin' },
      { 'Content-Type': 'application/json', 'Content-Length': '2', Vary: 'Origin' },
    ]);
    expect(mergeHeaders(shared, vary)).toBe(fastState(b)!.headers);
  });

  it('CORS header sets are frozen and reused per origin, except when an origin function decides', () => {
    const defaults = { credentials: false, maxAge: 600, methods: 'GET', allowAnyWithCredentials: false };
    const list = resolveCors({ origins: ['http://a.test'] }, 'cors', defaults, false)!;
    const first = corsHeaders(list, 'http://a.test');
    expect(first).toEqual({ 'Access-Control-Allow-Origin': 'http://a.test', Vary: 'Origin' });
    expect(Object.isFrozen(first)).toBe(true);
    expect(corsHeaders(list, 'http://a.test')).toBe(first);
    expect(corsHeaders(list, 'http://b.test')).toEqual({ Vary: 'Origin' });
    expect(corsHeaders(list, null)).toEqual({ Vary: 'Origin' });
    // origins one after another, each its own set (the last one asked is remembered)
    const two = resolveCors({ origins: ['http://a.test', /^http:\/\/localhost(:\d+)?$/] }, 'cors', defaults, false)!;
    const asked = ['', 'http://a.test', 'http://a.test', 'http://localhost:5173', '', 'http://b.test', 'http://localhost:5173', 'http://a.test', 'http://b.test'];
    expect(asked.map((o) => corsHeaders(two, o.split('').join(''))['Access-Control-Allow-Origin'] ?? null)).toEqual(
      [null, 'http://a.test', 'http://a.test', 'http://localhost:5173', null, null, 'http://localhost:5173', 'http://a.test', null],
    );
    let allowed = true;
    const fn = resolveCors({ origins: () => allowed }, 'cors', defaults, false)!;
    expect(corsHeaders(fn, 'http://c.test')).toEqual({ 'Access-Control-Allow-Origin': 'http://c.test', Vary: 'Origin' });
    allowed = false; // the function's answer changes: never served from a cache
    expect(corsHeaders(fn, 'http://c.test')).toEqual({ Vary: 'Origin' });
    expect(corsHeaders(undefined, 'http://a.test')).toEqual({});
  });

  it('text/json/arrayBuffer/bytes read the plain state once, as a native Response would', async () => {
    const shared = new TextEncoder().encode('{"a":1}');
    const r = FastResponse.bytes(shared, 200, { 'Content-Type': 'application/json' });
    expect(r.bodyUsed).toBe(false);
    const buf = new Uint8Array(await r.arrayBuffer());
    expect(r.bodyUsed).toBe(true);
    buf[0] = 0x5b; // the answer's bytes are a copy: the cached bytes never change
    expect(shared[0]).toBe(0x7b);
    await expect(r.text()).rejects.toThrow(TypeError);
    await expect(r.json()).rejects.toThrow(TypeError);
    expect(() => r.clone()).toThrow(TypeError); // the native form is used too
    expect(r.headers.get('content-type')).toBe('application/json');

    const j = FastResponse.json('{"b":[1,2]}');
    expect(await j.json()).toEqual({ b: [1, 2] });
    await expect(j.arrayBuffer()).rejects.toThrow(/already been read/);
    // a leading BOM is dropped and lone surrogates become U+FFFD, as Response.text() does
    const t = new FastResponse('\ufeffa\ud800b', { headers: { 'Content-Type': 'text/plain' } }) as unknown as Response;
    const native = new Response('\ufeffa\ud800b');
    expect(await t.text()).toBe(await native.text());
    const bytesBom = new FastResponse(new Uint8Array([0xef, 0xbb, 0xbf, 0x68, 0x69])) as unknown as Response;
    expect(await bytesBom.text()).toBe('hi');
    // invalid JSON rejects with the parser's SyntaxError; the body is used all the same
    const bad = FastResponse.json('{');
    await expect(bad.json()).rejects.toThrow(SyntaxError);
    expect(bad.bodyUsed).toBe(true);
    // no body: '' and never "used", as a native Response with a null body
    const empty = FastResponse.empty(204);
    expect(await empty.text()).toBe('');
    expect(await empty.text()).toBe('');
    expect(empty.bodyUsed).toBe(false);
    expect(new Uint8Array(await FastResponse.empty(204).bytes()).byteLength).toBe(0);
    // once the native Response exists, it answers
    const n = FastResponse.json('{"c":3}');
    expect(n.headers.get('content-length')).toBe('7');
    expect(await n.json()).toEqual({ c: 3 });
    expect(n.bodyUsed).toBe(true);
  });

  it('a native Response built from a text body keeps the given Content-Type, and bytes without one get none', async () => {
    const typed = toNativeResponse(new FastResponse('{"x":1}', { headers: { 'content-type': 'application/json' } }) as unknown as Response);
    expect(typed.headers.get('content-type')).toBe('application/json');
    expect(await typed.json()).toEqual({ x: 1 });
    const untyped = toNativeResponse(new FastResponse('plain') as unknown as Response);
    expect(untyped.headers.get('content-type')).toBeNull();
    expect(await untyped.text()).toBe('plain');
  });
});
