/**
 * The lazy IncomingMessage → Request adapter, through a real server on 127.0.0.1 port 0.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { hasBody, readBody, kHasBody } from '../../src/core/body.js';
import { FastResponse } from '../../src/core/fast-response.js';
import { isHttpError, responseForError } from '../../src/core/errors.js';
import { closeServers, fakeEngine, rawRequest, startServer } from '../helpers/server.js';

afterEach(closeServers);

const json = (value: unknown, status = 200) => FastResponse.json(JSON.stringify(value), status);

describe('lazy Request', () => {
  it('is a Request with method, url, headers and a query string', async () => {
    const server = await startServer({
      engines: [fakeEngine({
        handle: (r) => json({
          isRequest: r instanceof Request,
          method: r.method,
          url: r.url,
          path: new URL(r.url).pathname,
          search: new URL(r.url).search,
          custom: r.headers.get('X-Custom'),
          missing: r.headers.get('x-missing'),
          hasCustom: r.headers.has('x-custom'),
          all: [...r.headers].filter(([k]) => k.startsWith('x-')),
          headersInstance: r.headers instanceof Headers,
          cache: r.cache,
          redirect: r.redirect,
        }),
      })],
    });
    const res = await fetch(`${server.url}/api/users/1?a=1&b=%20x`, { method: 'PUT', headers: { 'X-Custom': 'yes', 'X-Other': 'two' }, body: 'x' });
    const body = await res.json();
    expect(body).toEqual({
      isRequest: true,
      method: 'PUT',
      url: `${server.url}/api/users/1?a=1&b=%20x`,
      path: '/api/users/1',
      search: '?a=1&b=%20x',
      custom: 'yes',
      missing: null,
      hasCustom: true,
      all: [['x-custom', 'yes'], ['x-other', 'two']],
      headersInstance: true,
      cache: 'default',
      redirect: 'follow',
    });
  });

  it('keeps every value of repeated headers once materialised', async () => {
    const server = await startServer({
      engines: [fakeEngine({ handle: (r) => json({ values: [...r.headers].filter(([k]) => k === 'x-multi').map(([, v]) => v), got: r.headers.get('x-multi') }) })],
    });
    const res = await rawRequest(server.url, { path: '/x', headers: { 'X-Multi': 'a' } });
    expect(JSON.parse(res.body.toString())).toEqual({ values: ['a'], got: 'a' });
  });

  it('falls back to the server address when the Host header is odd', async () => {
    const server = await startServer({ engines: [fakeEngine({ handle: (r) => json({ url: r.url }) })] });
    const res = await rawRequest(server.url, { path: '/p?q=1', headers: { Host: 'bad host/evil' } });
    expect(JSON.parse(res.body.toString()).url).toBe(`${server.url}/p?q=1`);
  });

  it('reads a body with text(), json() and the stream', async () => {
    const seen: unknown[] = [];
    const server = await startServer({
      engines: [fakeEngine({
        handle: async (r) => {
          const path = new URL(r.url).pathname;
          if (path === '/text') seen.push(await r.text());
          else if (path === '/json') seen.push(await r.json());
          else {
            const reader = r.body!.getReader();
            let n = 0;
            for (;;) {
              const { done, value } = await reader.read();
              if (done) break;
              n += value.byteLength;
            }
            seen.push(n);
          }
          return FastResponse.empty(204);
        },
      })],
    });
    await fetch(`${server.url}/text`, { method: 'POST', body: 'héllo' });
    await fetch(`${server.url}/json`, { method: 'POST', body: '{"a":[1,2]}', headers: { 'content-type': 'application/json' } });
    await fetch(`${server.url}/stream`, { method: 'POST', body: new Uint8Array(300_000) });
    expect(seen).toEqual(['héllo', { a: [1, 2] }, 300_000]);
  });

  it('text() still reads the body after `request.body` was looked at', async () => {
    const server = await startServer({
      engines: [fakeEngine({ handle: async (r) => json({ hasStream: r.body !== null, text: await r.text(), used: r.bodyUsed }) })],
    });
    const res = await fetch(`${server.url}/t`, { method: 'POST', body: 'payload' });
    expect(await res.json()).toEqual({ hasStream: true, text: 'payload', used: true });
  });

  it('works as the input of new Request() and fetch() (a handler proxying upstream)', async () => {
    const upstream = await startServer({
      engines: [fakeEngine({ handle: async (r) => json({ upstream: true, method: r.method, body: await r.text(), h: r.headers.get('x-h') }) })],
    });
    const server = await startServer({
      engines: [fakeEngine({
        handle: async (r) => {
          const copy = new Request(r);
          const proxied = await fetch(new Request(`${upstream.url}/p`, copy));
          return json({ copyMethod: copy.method, copyUrl: copy.url, upstream: await proxied.json() });
        },
      })],
    });
    const res = await fetch(`${server.url}/in?q=1`, { method: 'PUT', headers: { 'x-h': 'v' }, body: 'data' });
    expect(await res.json()).toEqual({
      copyMethod: 'PUT',
      copyUrl: `${server.url}/in?q=1`,
      upstream: { upstream: true, method: 'PUT', body: 'data', h: 'v' },
    });
  });

  it('GET/HEAD have a null body, like platform Requests', async () => {
    const server = await startServer({ engines: [fakeEngine({ handle: (r) => json({ body: r.body === null, used: r.bodyUsed }) })] });
    const res = await fetch(`${server.url}/x`);
    expect(await res.json()).toEqual({ body: true, used: false });
  });

  it('clone() and formData() go through a native Request', async () => {
    const server = await startServer({
      engines: [fakeEngine({
        handle: async (r) => {
          const form = await r.clone().formData();
          return json({ name: form.get('name') });
        },
      })],
    });
    const form = new FormData();
    form.set('name', 'Ada');
    const res = await fetch(`${server.url}/upload`, { method: 'POST', body: form });
    expect(await res.json()).toEqual({ name: 'Ada' });
  });
});

describe('kReadBody / kHasBody', () => {
  const bodyEngine = (limit: number) => fakeEngine({
    handle: async (r) => {
      try {
        const bytes = await readBody(r, limit);
        return json({ size: bytes.byteLength, hasBody: hasBody(r), text: new TextDecoder().decode(bytes).slice(0, 20) });
      } catch (err) {
        return responseForError(err, new URL(r.url).pathname);
      }
    },
  });

  it('reads the body within the limit', async () => {
    const server = await startServer({ engines: [bodyEngine(100)] });
    const res = await fetch(`${server.url}/b`, { method: 'POST', body: 'x'.repeat(100) });
    expect(await res.json()).toEqual({ size: 100, hasBody: true, text: 'x'.repeat(20) });
  });

  it('answers 413 from Content-Length alone, before reading the body', async () => {
    const server = await startServer({ engines: [bodyEngine(10)] });
    // Headers say 1 MB, only 5 bytes are ever sent and the request is left open: a 413 can
    // only arrive if the limit is checked against Content-Length.
    const res = await rawRequest(server.url, { method: 'POST', path: '/b', headers: { 'Content-Length': 1_000_000 }, body: 'hello', endBody: false });
    expect(res.status).toBe(413);
    expect(res.headers.connection).toBe('close');
    const body = JSON.parse(res.body.toString());
    expect(body).toMatchObject({ status: 413, error: 'PAYLOAD_TOO_LARGE', path: '/b' });
  });

  it('answers 413 as soon as a chunked body crosses the limit (the rest is never sent)', async () => {
    const server = await startServer({ engines: [bodyEngine(1000)] });
    const res = await rawRequest(server.url, { method: 'POST', path: '/chunked', headers: { 'Transfer-Encoding': 'chunked' }, body: ['a'.repeat(800), 'b'.repeat(800)], endBody: false });
    expect(res.status).toBe(413);
    expect(res.headers.connection).toBe('close');
  });

  it('marks a GET that carries a body (Content-Length) with kHasBody', async () => {
    let seen: unknown;
    const server = await startServer({
      engines: [fakeEngine({
        handle: async (r) => {
          seen = { hasBody: hasBody(r), flag: (r as unknown as Record<symbol, unknown>)[kHasBody], method: r.method, text: new TextDecoder().decode(await readBody(r, 100)) };
          return json({ ok: true });
        },
      })],
    });
    const res = await rawRequest(server.url, { method: 'GET', path: '/g', headers: { 'Content-Type': 'application/json', 'Content-Length': 7 }, body: '{"a":1}' });
    expect(res.status).toBe(200);
    expect(seen).toEqual({ hasBody: true, flag: true, method: 'GET', text: '{"a":1}' });
  });

  it('marks a chunked GET body and a HEAD body; a plain GET has none', async () => {
    const seen: boolean[] = [];
    const server = await startServer({ engines: [fakeEngine({ handle: (r) => { seen.push(hasBody(r)); return FastResponse.empty(204); } })] });
    await rawRequest(server.url, { method: 'GET', path: '/g', headers: { 'Transfer-Encoding': 'chunked' }, body: 'abc' });
    await rawRequest(server.url, { method: 'HEAD', path: '/g', headers: { 'Content-Length': 3 }, body: 'abc' });
    await rawRequest(server.url, { method: 'GET', path: '/g' });
    await rawRequest(server.url, { method: 'GET', path: '/g', headers: { 'Content-Length': 0 } });
    expect(seen).toEqual([true, true, false, false]);
  });

  it('refuses a second read of the body', async () => {
    let second: unknown;
    const server = await startServer({
      engines: [fakeEngine({
        handle: async (r) => {
          await readBody(r, 100);
          second = await readBody(r, 100).catch((e: unknown) => e);
          return FastResponse.empty(204);
        },
      })],
    });
    await fetch(`${server.url}/b`, { method: 'POST', body: 'abc' });
    expect(second).toBeInstanceOf(TypeError);
    expect(isHttpError(second)).toBe(false);
  });
});

describe('request.signal', () => {
  it('aborts when the client disconnects', async () => {
    let aborted!: Promise<string>;
    let started!: () => void;
    const begun = new Promise<void>((r) => (started = r));
    const server = await startServer({
      engines: [fakeEngine({
        handle: (r) => {
          aborted = new Promise((resolve) => r.signal.addEventListener('abort', () => resolve((r.signal.reason as Error).name)));
          started();
          return new Promise(() => {}); // never answers
        },
      })],
    });
    const controller = new AbortController();
    const pending = fetch(`${server.url}/slow`, { signal: controller.signal }).catch(() => 'aborted');
    await begun;
    controller.abort();
    expect(await pending).toBe('aborted');
    expect(await aborted).toBe('AbortError');
  });

  it('an answer after the client left is dropped quietly; the server keeps serving', async () => {
    let answered!: () => void;
    const done = new Promise<void>((r) => (answered = r));
    let begin: () => void = () => {};
    const server = await startServer({
      engines: [fakeEngine({
        handle: async (r) => {
          if (new URL(r.url).pathname !== '/late') return json({ ok: true });
          begin();
          await new Promise((resolve) => r.signal.addEventListener('abort', resolve));
          setTimeout(answered, 50);
          // both kinds of answers, written to a closed connection
          return new URL(r.url).search === '?native' ? new Response('late') : json({ late: true });
        },
      })],
    });
    for (const q of ['', '?native']) {
      const controller = new AbortController();
      const begun = new Promise<void>((r) => (begin = r));
      const pending = fetch(`${server.url}/late${q}`, { signal: controller.signal }).catch(() => 'aborted');
      await begun;
      controller.abort();
      expect(await pending).toBe('aborted');
    }
    await done;
    expect(await (await fetch(`${server.url}/after`)).json()).toEqual({ ok: true });
  });
});
