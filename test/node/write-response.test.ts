/**
 * Writing engine answers to node:http: FastResponse, native Responses (streamed), HEAD, errors,
 * the JSON 404 for requests no engine answers, engine order.
 */
import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { FastResponse, fastState } from '../../src/core/fast-response.js';
import { HttpError } from '../../src/core/errors.js';
import { closeServers, fakeEngine, rawRequest, startServer } from '../helpers/server.js';

afterEach(closeServers);

describe('FastResponse', () => {
  it('is written with its status, headers and bytes (never materialised)', async () => {
    const responses: Response[] = [];
    const server = await startServer({
      engines: [fakeEngine({
        handle: () => {
          const r = FastResponse.json('{"a":1}', 201, { 'X-Total-Count': '7', Location: '/api/a' });
          responses.push(r);
          return r;
        },
      })],
    });
    const res = await fetch(`${server.url}/a`);
    expect(res.status).toBe(201);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('content-length')).toBe('7');
    expect(res.headers.get('x-total-count')).toBe('7');
    expect(res.headers.get('location')).toBe('/api/a');
    expect(await res.text()).toBe('{"a":1}');
    // The host wrote it from the plain state: the response still holds it, so no native Response
    // was ever built (building one gives the state up, as the two lines after show).
    expect(responses).toHaveLength(1);
    expect(fastState(responses[0]!)).toMatchObject({ status: 201, headers: { 'X-Total-Count': '7', Location: '/api/a' } });
    expect(responses[0]!.headers.get('location')).toBe('/api/a'); // materialises it
    expect(fastState(responses[0]!)).toBeUndefined();
  });

  it('text bodies (short JSON) go out as UTF-8 with a byte-exact Content-Length', async () => {
    const text = JSON.stringify({ name: 'Zoë 😀 ✓ 日本' });
    const server = await startServer({ engines: [fakeEngine({ handle: () => FastResponse.json(text) })] });
    const res = await rawRequest(server.url, { path: '/a' });
    expect(res.headers['content-length']).toBe(String(Buffer.byteLength(text)));
    expect(res.body.toString('utf8')).toBe(text);
  });

  it('HEAD: same headers, no body, even when the engine left the bytes in', async () => {
    const server = await startServer({ engines: [fakeEngine({ handle: () => FastResponse.json('{"a":1}') })] });
    const res = await rawRequest(server.url, { method: 'HEAD', path: '/a' });
    expect(res.status).toBe(200);
    expect(res.headers['content-length']).toBe('7');
    expect(res.body.byteLength).toBe(0);
  });

  it('204 without body', async () => {
    const server = await startServer({ engines: [fakeEngine({ handle: () => FastResponse.empty(204, { 'X-Deleted-Count': '1' }) })] });
    const res = await fetch(`${server.url}/a`, { method: 'DELETE' });
    expect(res.status).toBe(204);
    expect(res.headers.get('x-deleted-count')).toBe('1');
    expect(await res.text()).toBe('');
  });
});

describe('native Response', () => {
  it('copies status, headers and every Set-Cookie', async () => {
    const server = await startServer({
      engines: [fakeEngine({
        handle: () => {
          const headers = new Headers({ 'content-type': 'text/plain', 'x-a': 'b' });
          headers.append('set-cookie', 'a=1');
          headers.append('set-cookie', 'b=2');
          return new Response('hello', { status: 202, statusText: 'Accepted Later', headers });
        },
      })],
    });
    const res = await rawRequest(server.url, { path: '/n' });
    expect(res.status).toBe(202);
    expect(res.headers['set-cookie']).toEqual(['a=1', 'b=2']);
    expect(res.headers['x-a']).toBe('b');
    expect(res.body.toString()).toBe('hello');
  });

  it('streams a body chunk by chunk (each chunk reaches the client before the next is produced)', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const server = await startServer({
      engines: [fakeEngine({
        handle: () => new Response(new ReadableStream<Uint8Array>({
          async start(c) {
            c.enqueue(new TextEncoder().encode('first;'));
            await gate; // the second chunk only comes after the client saw the first
            c.enqueue(new TextEncoder().encode('second'));
            c.close();
          },
        }), { headers: { 'content-type': 'text/plain' } }),
      })],
    });
    const res = await fetch(`${server.url}/s`);
    const reader = res.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe('first;');
    release();
    let rest = '';
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      rest += new TextDecoder().decode(value);
    }
    expect(rest).toBe('second');
    expect(res.headers.get('transfer-encoding')).toBe('chunked');
  });

  it('streams a large body with backpressure intact', async () => {
    const chunk = new Uint8Array(64 * 1024).fill(120);
    const server = await startServer({
      engines: [fakeEngine({
        handle: () => {
          let n = 0;
          return new Response(new ReadableStream<Uint8Array>({
            pull(c) {
              if (n++ < 64) c.enqueue(chunk);
              else c.close();
            },
          }));
        },
      })],
    });
    const res = await fetch(`${server.url}/big`);
    expect((await res.arrayBuffer()).byteLength).toBe(64 * 64 * 1024);
  });

  it('HEAD never writes the body of a native Response', async () => {
    const server = await startServer({ engines: [fakeEngine({ handle: () => new Response('abcdef', { headers: { 'content-length': '6' } }) })] });
    const res = await rawRequest(server.url, { method: 'HEAD', path: '/n' });
    expect(res.headers['content-length']).toBe('6');
    expect(res.body.byteLength).toBe(0);
  });

  it('an error before the first byte becomes a JSON 500', async () => {
    const server = await startServer({
      engines: [fakeEngine({ handle: () => new Response(new ReadableStream({ pull(c) { c.error(new Error('disk on fire at /secret/path')); } })) })],
    });
    const res = await fetch(`${server.url}/e`);
    expect(res.status).toBe(500);
    const body = await res.json();
    expect(body).toMatchObject({ status: 500, error: 'INTERNAL_SERVER_ERROR', message: 'Internal Server Error', path: '/e' });
    expect(JSON.stringify(body)).not.toContain('/secret');
  });

  it('an error mid-stream destroys the connection (the client sees a broken response)', async () => {
    const server = await startServer({
      engines: [fakeEngine({
        handle: () => {
          let n = 0;
          return new Response(new ReadableStream<Uint8Array>({
            async pull(c) {
              if (n++ === 0) c.enqueue(new TextEncoder().encode('partial'));
              else {
                await new Promise((r) => setTimeout(r, 10));
                c.error(new Error('boom'));
              }
            },
          }));
        },
      })],
    });
    const outcome = await new Promise<string>((resolve) => {
      const req = httpRequest(`${server.url}/mid`, (res) => {
        res.on('data', () => {});
        res.on('end', () => resolve('ended cleanly'));
        res.on('error', () => resolve('broken'));
        res.on('aborted', () => resolve('broken'));
      });
      req.on('error', () => resolve('broken'));
      req.end();
    });
    expect(outcome).toBe('broken');
  });
});

describe('dispatch', () => {
  it('tries engines in order and uses the first answer', async () => {
    const calls: string[] = [];
    const server = await startServer({
      engines: [
        fakeEngine({ handle: (r) => { calls.push('a'); return new URL(r.url).pathname === '/a' ? FastResponse.json('"a"') : undefined; } }),
        fakeEngine({ handle: () => { calls.push('b'); return FastResponse.json('"b"'); } }),
      ],
    });
    expect(await (await fetch(`${server.url}/a`)).json()).toBe('a');
    expect(await (await fetch(`${server.url}/b`)).json()).toBe('b');
    expect(calls).toEqual(['a', 'a', 'b']);
  });

  it('answers the JSON 404 when no engine does', async () => {
    const server = await startServer({ engines: [fakeEngine({ handle: () => undefined })] });
    const res = await fetch(`${server.url}/nothing/here?x=1`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const body = await res.json();
    expect(body).toMatchObject({ status: 404, error: 'NOT_FOUND', message: 'Not Found', path: '/nothing/here' });
    expect(typeof body.timestamp).toBe('string');
  });

  it('an engine that throws gets the error body (HttpError keeps its status)', async () => {
    const server = await startServer({
      engines: [fakeEngine({ handle: (r) => { if (r.url.endsWith('/teapot')) throw new HttpError(418, 'short and stout'); throw new Error('at /home/me/secret'); } })],
    });
    const teapot = await fetch(`${server.url}/teapot`);
    expect(teapot.status).toBe(418);
    expect((await teapot.json()).message).toBe('short and stout');
    const boom = await fetch(`${server.url}/boom`);
    expect(boom.status).toBe(500);
    expect(await boom.text()).not.toContain('/home/me');
  });

  it('an answer Node refuses (bad header value, bad status) becomes a 500; the server lives on', async () => {
    const server = await startServer({
      engines: [fakeEngine({
        handle: (r) => {
          const path = new URL(r.url).pathname;
          if (path === '/header') return FastResponse.json('{}', 200, { 'X-Bad': 'a\r\nInjected: yes' });
          if (path === '/status') return FastResponse.json('{}', 1000);
          if (path === '/native') return new Response('x', { headers: { 'x-ok': '1' }, status: 200 });
          return FastResponse.json('{"ok":true}');
        },
      })],
    });
    for (const path of ['/header', '/status']) {
      const res = await rawRequest(server.url, { path });
      expect(res.status).toBe(500);
      expect(res.headers.injected).toBeUndefined();
    }
    expect((await fetch(`${server.url}/native`)).status).toBe(200);
    expect(await (await fetch(`${server.url}/fine`)).json()).toEqual({ ok: true });
  });

  it('close() closes the engines serve created, not the ones given', async () => {
    const given = fakeEngine({ handle: () => undefined });
    const server = await startServer({ engines: [given] });
    await server.close();
    expect(given.closed).toBe(false);
  });
});
