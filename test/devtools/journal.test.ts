/**
 * The request journal (src/devtools/journal.ts): the ring bound, redaction of sensitive headers,
 * body truncation, filters, and its feeding by the mock API's observer hook.
 */
import { request as httpRequest } from 'node:http';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it } from 'vitest';
import { kRawHeaders } from '../../src/core/body.js';
import { FastResponse } from '../../src/core/fast-response.js';
import { createMockApi, type MockApi } from '../../src/engine/create-mock-api.js';
import type { Exchange } from '../../src/core/exchange.js';
import { createJournal, REDACTED } from '../../src/devtools/journal.js';
import { journalFor } from '../../src/host/journal.js';
import { serve, type RunningServer as Server } from '../../src/node/serve.js';
import { memoryFs } from '../../src/vfs/memory.js';
import { req } from '../helpers/engine-request.js';

function exchange(path: string, init: { status?: number; method?: string; headers?: Record<string, string>; response?: Response } = {}): Exchange {
  const [pathname, query] = path.split('?');
  const response = init.response ?? FastResponse.json('{"ok":true}', init.status ?? 200);
  return {
    method: init.method ?? 'GET',
    pathname: pathname!,
    search: query ? `?${query}` : '',
    status: response.status,
    ms: 1.5,
    answeredBy: { layer: 'files', detail: 'x.json' },
    request: req(init.method ?? 'GET', path, { headers: init.headers }),
    response,
  };
}

const opened: MockApi[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((a) => a.close()));
});

describe('journal ring', () => {
  it('keeps only the last `size` entries, newest first', () => {
    const j = createJournal({ size: 3 });
    for (let i = 1; i <= 5; i++) j.record(exchange(`/api/n/${i}`));
    const urls = j.list().map((e) => e.url);
    expect(urls).toEqual(['/api/n/5', '/api/n/4', '/api/n/3']);
    expect(j.list().map((e) => e.id)).toEqual([5, 4, 3]);
  });

  it('size 0 records nothing', () => {
    const j = createJournal({ size: 0 });
    j.record(exchange('/api/a'));
    expect(j.list()).toEqual([]);
  });

  it('clear() empties it; ids keep increasing', () => {
    const j = createJournal({ size: 5 });
    j.record(exchange('/api/a'));
    j.record(exchange('/api/b'));
    j.clear();
    expect(j.list()).toEqual([]);
    j.record(exchange('/api/c'));
    expect(j.list().map((e) => [e.url, e.id])).toEqual([['/api/c', 3]]);
  });

  it('filters by method, status (exact or class), path prefix, since and limit', () => {
    const j = createJournal();
    j.record(exchange('/api/users', { method: 'GET', status: 200 }));
    j.record(exchange('/api/users', { method: 'POST', status: 201 }));
    j.record(exchange('/api/orders/1', { method: 'GET', status: 404 }));
    expect(j.list({ method: 'post' }).map((e) => e.status)).toEqual([201]);
    expect(j.list({ status: '2xx' }).map((e) => e.status)).toEqual([201, 200]);
    expect(j.list({ status: '404' }).map((e) => e.url)).toEqual(['/api/orders/1']);
    expect(j.list({ path: '/api/users' }).map((e) => e.method)).toEqual(['POST', 'GET']);
    expect(j.list({ limit: 1 }).map((e) => e.url)).toEqual(['/api/orders/1']);
    const newest = j.list()[0]!;
    expect(j.list({ since: newest.time })).toEqual([]);
    expect(j.list({ since: newest.time - 60_000 })).toHaveLength(3);
  });

  it('tells subscribers about each new entry', () => {
    const j = createJournal();
    const seen: string[] = [];
    const off = j.subscribe((e) => seen.push(e.url));
    j.record(exchange('/api/a'));
    off();
    j.record(exchange('/api/b'));
    expect(seen).toEqual(['/api/a']);
  });
});

describe('journal redaction', () => {
  it('redacts Authorization, Cookie, X-Tracker-Key, X-Api-Key in requests and Set-Cookie in responses', () => {
    const j = createJournal();
    const response = new FastResponse('{}', { headers: { 'content-type': 'application/json', 'Set-Cookie': 'sid=secret', 'x-kept': 'yes' } }) as unknown as Response;
    j.record(
      exchange('/api/a', {
        headers: { Authorization: 'Bearer secret', Cookie: 'sid=secret', 'X-Tracker-Key': 'secret', 'X-Api-Key': 'secret', Accept: 'application/json' },
        response,
      }),
    );
    const e = j.list()[0]!;
    expect(e.request.headers).toMatchObject({ authorization: REDACTED, cookie: REDACTED, 'x-tracker-key': REDACTED, 'x-api-key': REDACTED, accept: 'application/json' });
    expect(e.response!.headers).toMatchObject({ 'set-cookie': REDACTED, 'x-kept': 'yes' });
    expect(JSON.stringify(e)).not.toContain('secret');
  });

  it('redacts Set-Cookie of a native Response too', () => {
    const j = createJournal();
    const headers = new Headers({ 'content-type': 'text/plain' });
    headers.append('set-cookie', 'a=secret1');
    headers.append('set-cookie', 'b=secret2');
    j.record(exchange('/api/a', { response: new Response('hi', { headers }) }));
    const e = j.list()[0]!;
    expect(e.response!.headers['set-cookie']).toBe(REDACTED);
    expect(JSON.stringify(e)).not.toContain('secret');
  });
});

describe('journal bodies', () => {
  it('truncates text bodies to bodyLimit bytes and keeps the full size', () => {
    const j = createJournal({ bodyLimit: 16 });
    const big = 'x'.repeat(100);
    j.record(exchange('/api/a', { response: new FastResponse(big, { headers: { 'content-type': 'text/plain' } }) as unknown as Response }));
    const body = j.list()[0]!.response!.body!;
    expect(body).toEqual({ captured: true, size: 100, text: 'x'.repeat(16), truncated: true });
  });

  it('keeps a small JSON body whole', () => {
    const j = createJournal();
    j.record(exchange('/api/a'));
    expect(j.list()[0]!.response!.body).toEqual({ captured: true, size: 11, text: '{"ok":true}', truncated: false });
  });

  it('keeps only the size of a binary body', () => {
    const j = createJournal();
    j.record(exchange('/api/a', { response: FastResponse.bytes(new Uint8Array([1, 2, 3]), 200, { 'content-type': 'image/png' }) as unknown as Response }));
    expect(j.list()[0]!.response!.body).toEqual({ captured: true, size: 3 });
  });

  it('does not read a native stream body (captured: false)', () => {
    const j = createJournal();
    const response = new Response('streamed', { headers: { 'content-type': 'text/plain' } });
    j.record(exchange('/api/a', { response }));
    expect(j.list()[0]!.response!.body).toEqual({ captured: false, size: null });
    expect(response.bodyUsed).toBe(false);
  });
});

describe('journal the host feeds from the mock API (src/host/journal.ts)', () => {
  it('records file answers (fast path too), handler answers with the request body the handler read, and 404s', async () => {
    const api = createMockApi({
      endpointPrefix: '/api',
      fs: memoryFs({ 'mocks/users.json': [{ id: 1 }] }),
      fsDir: 'mocks',
      logLevel: 'silent',
      journal: { size: 10, bodyLimit: 8 },
      handlers: [{ pattern: '/echo', method: 'POST', handle: (r: any, res: any) => res.json({ got: r.body }) }],
    });
    opened.push(api);
    const journal = journalFor(api)!;
    await api.ready();
    await api.handle(req('GET', '/api/users'));
    api.handleCached(req('GET', '/api/users?page=1'));
    await api.handle(req('POST', '/api/echo', { json: { hello: 'world' }, headers: { authorization: 'Bearer t0ken' } }));
    await api.handle(req('GET', '/api/nothing'));
    const entries = journal.list();
    expect(entries.map((e) => [e.method, e.url, e.status, e.answeredBy?.layer])).toEqual([
      ['GET', '/api/nothing', 404, 'not-found'],
      ['POST', '/api/echo', 200, 'handlers'],
      ['GET', '/api/users?page=1', 200, 'files'],
      ['GET', '/api/users', 200, 'files'],
    ]);
    const post = entries[1]!;
    expect(post.request.headers.authorization).toBe(REDACTED);
    expect(post.request.body).toEqual({ captured: true, size: 17, text: '{"hello"', truncated: true });
    expect(entries[3]!.answeredBy).toEqual({ layer: 'files', detail: 'users.json' });
  });

  it('journal: false turns it off', async () => {
    const api = createMockApi({ endpointPrefix: '/api', fs: memoryFs(), logLevel: 'silent', journal: false });
    opened.push(api);
    expect(journalFor(api)).toBeNull();
  });

  it('rejects a bad journal option naming it', () => {
    const bad = (journal: unknown) => {
      const api = createMockApi({ endpointPrefix: '/api', fs: memoryFs(), logLevel: 'silent', journal: journal as never });
      opened.push(api);
      return () => journalFor(api);
    };
    expect(bad({ size: -1 })).toThrow(/mock\.journal\.size/);
    expect(bad('yes')).toThrow(/mock\.journal/);
  });

  it("never makes a host's own Response class build its body stream (judged by status, method and length)", () => {
    // As the node host's StreamResponse (proxied answers): `body` would build a WHATWG stream.
    class HostResponse extends Response {
      override get body(): Response["body"] {
        throw new Error('body read');
      }
    }
    const j = createJournal();
    j.record(exchange('/api/p', { response: new HostResponse(null, { status: 200, headers: { 'content-length': '1234' } }) }));
    j.record(exchange('/api/p', { response: new HostResponse(null, { status: 204 }) }));
    j.record(exchange('/api/p', { method: 'HEAD', response: new HostResponse(null, { status: 200, headers: { 'content-length': '9' } }) }));
    const [head, empty, streamed] = j.list();
    expect(streamed!.response!.body).toEqual({ captured: false, size: 1234 });
    expect(empty!.response!.body).toBeNull();
    expect(head!.response!.body).toBeNull();
    // a platform Response is asked directly
    j.record(exchange('/api/p', { response: new Response(null, { status: 200 }) }));
    expect(j.list()[0]!.response!.body).toBeNull();
  });
});

/** A string equal to `s` but its own object, as a request parser makes one per request. */
const fresh = (s: string) => s.split('').join('');

/** An exchange whose request carries a raw header list, as the node host's requests do. */
function rawExchange(path: string, raw: string[]): Exchange {
  const x = exchange(path);
  Object.defineProperty(x.request, kRawHeaders, { value: raw });
  return { ...x, answeredBy: { layer: fresh('files'), detail: fresh('x.json') } };
}

describe('what the ring keeps of a request', () => {
  // The collector runs on demand; a new heap object is kept alive until the job that made it ends.
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const settle = () => new Promise((r) => setTimeout(r, 0));

  it("keeps a record's header list and answerer from the record before it when they say the same, so the request's own die with it", async () => {
    const j = createJournal({ size: 10 });
    j.record(rawExchange('/api/a', [fresh('Host'), fresh('127.0.0.1'), fresh('Accept'), fresh('*/*')]));
    const refs = ((): { list: WeakRef<object>; by: WeakRef<object> } => {
      const x = rawExchange('/api/a', [fresh('Host'), fresh('127.0.0.1'), fresh('Accept'), fresh('*/*')]);
      j.record(x);
      return { list: new WeakRef((x.request as unknown as Record<symbol, object>)[kRawHeaders]!), by: new WeakRef(x.answeredBy!) };
    })();
    // A list that differs is the record's own, and stays while the ring holds it.
    const differs = ((): WeakRef<object> => {
      const x = rawExchange('/api/b', [fresh('Host'), fresh('127.0.0.1'), fresh('Accept'), fresh('text/html')]);
      j.record(x);
      return new WeakRef((x.request as unknown as Record<symbol, object>)[kRawHeaders]!);
    })();
    await settle();
    gc();
    expect(refs.list.deref()).toBeUndefined();
    expect(refs.by.deref()).toBeUndefined();
    expect(differs.deref()).toBeDefined();
    expect(j.list().map((e) => [e.url, e.request.headers, e.answeredBy])).toEqual([
      ['/api/b', { host: '127.0.0.1', accept: 'text/html' }, { layer: 'files', detail: 'x.json' }],
      ['/api/a', { host: '127.0.0.1', accept: '*/*' }, { layer: 'files', detail: 'x.json' }],
      ['/api/a', { host: '127.0.0.1', accept: '*/*' }, { layer: 'files', detail: 'x.json' }],
    ]);
  });

  it('shows each request as sent when neighbours differ in one value, in length, or the ring holds one entry', () => {
    for (const size of [1, 2, 5]) {
      const j = createJournal({ size });
      const lists = [
        ['Host', 'h', 'Accept', '*/*'],
        ['Host', 'h', 'Accept', '*/*', 'Origin', 'http://localhost:5173'],
        ['Host', 'h', 'Accept', 'text/html'],
        ['Host', 'h', 'Accept', 'text/html'],
        ['Host', 'h'],
      ];
      for (const [i, list] of lists.entries()) {
        j.record(rawExchange(i % 2 ? '/api/x?q=1' : '/api/x', list.map(fresh)));
        const seen = j.list({ limit: 1 })[0]!;
        expect([seen.url, seen.request.headers]).toEqual([i % 2 ? '/api/x?q=1' : '/api/x', Object.fromEntries(Array.from({ length: list.length / 2 }, (_, k) => [list[2 * k]!.toLowerCase(), list[2 * k + 1]]))]);
      }
      expect(j.list()).toHaveLength(Math.min(size, lists.length));
    }
  });
});

describe('the journal through the node host', () => {
  let server: Server | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('shows each request with its own headers, session and URL when consecutive requests differ in one of them', async () => {
    server = await serve({ port: 0, logLevel: 'silent', mock: { endpointPrefix: '/api', fs: memoryFs({ 'users/1.json': { id: 1 }, 'users/2.json': { id: 2 } }), logLevel: 'silent' } });
    const url = new URL(server.url);
    const send = (path: string, headers: Record<string, string>) =>
      new Promise<number>((resolve, reject) => {
        const r = httpRequest({ host: url.hostname, port: url.port, path, headers, agent: false }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode!));
        });
        r.on('error', reject);
        r.end();
      });
    const sent: Array<[string, Record<string, string>]> = [
      ['/api/users/1', { 'x-demo': 'a' }],
      ['/api/users/1', { 'x-demo': 'a' }],
      ['/api/users/1', { 'x-demo': 'b' }],
      ['/api/users/2', { 'x-demo': 'b' }],
      ['/api/users/2', { 'x-demo': 'b', 'x-mockyard-session': 'one' }],
      ['/api/users/2', { 'x-demo': 'b', 'x-mockyard-session': 'two' }],
      ['/api/users/2?v=1', { 'x-demo': 'b' }],
    ];
    for (const [path, headers] of sent) expect(await send(path, headers)).toBe(200);
    const { entries } = (await (await fetch(`${server.url}/_mockyard/api/requests`)).json()) as { entries: JournalEntryLike[] };
    expect(entries.reverse().map((e) => [e.url, e.request.headers['x-demo'], e.session, e.answeredBy?.detail])).toEqual([
      ['/api/users/1', 'a', null, 'users/1.json'],
      ['/api/users/1', 'a', null, 'users/1.json'],
      ['/api/users/1', 'b', null, 'users/1.json'],
      ['/api/users/2', 'b', null, 'users/2.json'],
      ['/api/users/2', 'b', 'one', 'users/2.json'],
      ['/api/users/2', 'b', 'two', 'users/2.json'],
      ['/api/users/2?v=1', 'b', null, 'users/2.json'],
    ]);
  });
});

interface JournalEntryLike {
  url: string;
  session: string | null;
  answeredBy: { detail?: string } | null;
  request: { headers: Record<string, string> };
}
