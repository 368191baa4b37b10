/**
 * The portable `res` (handler-api/response.ts) turned into a Response: bodies written as text,
 * bytes or both keep every byte, and Content-Length counts UTF-8 bytes.
 */
import { describe, expect, it } from 'vitest';
import { fastState } from '../../../src/core/fast-response.js';
import { ResponseBuilder } from '../../../src/engine/handler-api/response.js';

const enc = new TextEncoder();
async function bytesOf(r: Response): Promise<Uint8Array> {
  return new Uint8Array(await r.arrayBuffer());
}

describe('ResponseBuilder bodies', () => {
  it('res.json with non-ASCII text: exact Content-Length, same bytes natively', async () => {
    const res = new ResponseBuilder().json({ name: 'Zoë 😀 ✓' });
    const r = res.toResponse(false);
    const expected = enc.encode(JSON.stringify({ name: 'Zoë 😀 ✓' }));
    expect(fastState(r)!.headers['Content-Length']).toBe(String(expected.byteLength));
    expect(await bytesOf(r)).toEqual(expected);
  });

  it('text, then bytes, then text: every byte in order', async () => {
    const res = new ResponseBuilder();
    res.write('é');
    res.write(new Uint8Array([1, 2, 3]));
    res.end('✓');
    const r = res.toResponse(false);
    const expected = new Uint8Array([...enc.encode('é'), 1, 2, 3, ...enc.encode('✓')]);
    expect(fastState(r)!.headers['Content-Length']).toBe(String(expected.byteLength));
    expect(await bytesOf(r)).toEqual(expected);
  });

  it('a long text body and HEAD keep the GET length', async () => {
    const long = 'ü'.repeat(10_000);
    const get = new ResponseBuilder().send(long).toResponse(false);
    const head = new ResponseBuilder().send(long).toResponse(true);
    expect(await bytesOf(get)).toEqual(enc.encode(long));
    expect(fastState(head)!.headers['Content-Length']).toBe('20000');
    expect(fastState(head)!.body).toBeNull();
  });

  it('repeated headers (native Response path) keep text bodies intact', async () => {
    const res = new ResponseBuilder();
    res.setHeader('Set-Cookie', ['a=1', 'b=2']);
    res.json({ ok: 'ü' });
    const r = res.toResponse(false);
    expect(r.headers.get('content-length')).toBe(String(enc.encode('{"ok":"ü"}').byteLength));
    expect(r.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    expect(await r.text()).toBe('{"ok":"ü"}');
  });
});
