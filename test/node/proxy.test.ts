/**
 * `mock.proxy` end to end: a real upstream node:http server, the mock API served by `serve()`,
 * real clients. What no handler or file answers reaches the upstream; the rest never does.
 */
import { request as httpRequest, type ClientRequest, type ServerResponse } from 'node:http';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMockApi } from '../../src/engine/create-mock-api.js';
import { Sleeper } from '../../src/engine/sleeper.js';
import { PROXY_MESSAGES } from '../../src/engine/proxy/layer.js';
import { fetchTransport, type UpstreamTransportFactory } from '../../src/engine/upstream/transport.js';
import { nodeRuntime } from '../../src/node/runtime.js';
import type { ServeOptions } from '../../src/node/serve.js';
import { undiciTransport } from '../../src/node/upstream-undici.js';
import type { MockApiOptions } from '../../src/engine/mock-api-options.js';
import { closeServers, fakeEngine, rawRequest, startServer as startAnyServer } from '../helpers/server.js';
import { makeTempDir, removeTempDirs } from '../helpers/temp-dir.js';
import { closeUpstreams, deadUrl, startUpstream, type UpstreamHandler } from '../helpers/upstream.js';

afterEach(async () => {
  await closeServers();
  await closeUpstreams();
  await removeTempDirs();
});

async function setup(handler: UpstreamHandler, extra: Partial<MockApiOptions> = {}, upstreamOptions: { streaming?: boolean } = {}) {
  const upstream = await startUpstream(handler, upstreamOptions);
  const root = await makeTempDir();
  const dir = join(root, 'mocks');
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'local.json'), JSON.stringify({ from: 'file' }));
  const server = await startServer({
    mock: { endpointPrefix: '/api', fsDir: dir, logLevel: 'silent', proxy: { target: upstream.url }, ...extra },
  });
  return { upstream, server, url: server.url, dir };
}

/**
 * `targetClosed` resolves once a target's answer watched with `closedEarly(res)` is closed before
 * it finished: the proxy dropped the exchange.
 */
function droppedByProxy() {
  let dropped!: () => void;
  const targetClosed = new Promise<void>((resolve) => { dropped = resolve; });
  const closedEarly = (res: ServerResponse) => res.on('close', () => { if (!res.writableFinished) dropped(); });
  return { targetClosed, closedEarly };
}

/** A GET of `path` on a connection of its own, sent; the request is returned to be destroyed. */
function openGet(base: string, path: string): ClientRequest {
  const target = new URL(path, base);
  const req = httpRequest({ host: target.hostname, port: target.port, path: target.pathname, agent: false });
  req.on('error', () => {});
  req.end();
  return req;
}

/** Resolves once `check()` holds (polled every 10 ms). */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 10));
}

const json = (body: unknown, status = 200, headers: Record<string, string | string[]> = {}): UpstreamHandler => (_req, res) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
};

// Every behaviour holds with both transports: undici (what the node hosts register) and
// WHATWG fetch (the default everywhere else: browsers, workers, other runtimes).
const transports: Array<[string, UpstreamTransportFactory]> = [['undici', undiciTransport], ['fetch', fetchTransport]];
/** The transport the servers and engines of the running test reach their target with. */
let transport: UpstreamTransportFactory = undiciTransport;
const runtime = () => ({ ...nodeRuntime, upstream: transport });
const startServer = (options: ServeOptions) => startAnyServer({ runtime: runtime(), ...options });
afterAll(() => {
  transport = undiciTransport;
});

describe.each(transports)('proxy (%s transport)', (_name, each) => {
  beforeEach(() => {
    transport = each;
  });

  it('forwards what no file answers (path, query, status, body) and never what a file answers', async () => {
    const { upstream, url } = await setup(json({ from: 'upstream' }, 203));
    const local = await fetch(`${url}/api/local`);
    expect(await local.json()).toEqual({ from: 'file' });
    expect(upstream.seen).toHaveLength(0);

    const r = await fetch(`${url}/api/users?page=2&q=a%20b`);
    expect(r.status).toBe(203);
    expect(await r.json()).toEqual({ from: 'upstream' });
    expect(upstream.seen.map((s) => `${s.method} ${s.url}`)).toEqual(['GET /api/users?page=2&q=a%20b']);
  });

  it('handlers answer before the proxy; requests outside the prefix are not proxied', async () => {
    const { upstream, url } = await setup(json({}), {
      handlers: [{ pattern: '/mocked', method: 'GET', handle: (_req, res) => res.json({ from: 'handler' }) }],
    });
    expect(await (await fetch(`${url}/api/mocked`)).json()).toEqual({ from: 'handler' });
    expect((await fetch(`${url}/elsewhere`)).status).toBe(404);
    expect(upstream.seen).toHaveLength(0);
  });

  it('rewrites Host, drops hop-by-hop headers both ways, adds the configured headers and X-Forwarded-*', async () => {
    const upstream = await startUpstream((_req, res) => {
      res.setHeader('content-type', 'text/plain');
      res.setHeader('connection', 'keep-alive, x-upstream-private');
      res.setHeader('x-upstream-private', 'hop');
      res.setHeader('keep-alive', 'timeout=77');
      res.setHeader('set-cookie', ['a=1; Path=/', 'b=2; Path=/']);
      res.setHeader('x-kept', 'yes');
      res.end('ok');
    });
    const s2 = await startServer({ mock: { endpointPrefix: '/api', fsDir: null, logLevel: 'silent', proxy: { target: upstream.url, headers: { 'X-Api-Key': 'k-123', 'user-agent': 'mockyard-proxy' } } } });
    const r = await rawRequest(s2.url, {
      path: '/api/things',
      headers: { connection: 'keep-alive, x-client-private', 'x-client-private': 'hop', 'keep-alive': 'timeout=5', 'proxy-authorization': 'Basic eA==', 'x-client': 'kept', 'user-agent': 'client' },
    });
    expect(r.status).toBe(200);
    expect(r.body.toString()).toBe('ok');
    const seen = upstream.seen[0]!.headers;
    expect(seen.host).toBe(`127.0.0.1:${upstream.port}`);
    expect(seen['x-forwarded-host']).toBe(new URL(s2.url).host);
    expect(seen['x-forwarded-proto']).toBe('http');
    expect(seen['x-client']).toBe('kept');
    expect(seen['x-api-key']).toBe('k-123');
    expect(seen['user-agent']).toBe('mockyard-proxy');
    expect(seen['x-client-private']).toBeUndefined();
    expect(seen['keep-alive']).toBeUndefined();
    expect(seen['proxy-authorization']).toBeUndefined();
    expect(r.headers['x-upstream-private']).toBeUndefined();
    expect(r.headers['keep-alive']).not.toBe('timeout=77'); // the host's own keep-alive may be there
    expect(r.headers['x-kept']).toBe('yes');
    expect(r.headers['set-cookie']).toEqual(['a=1; Path=/', 'b=2; Path=/']);
  });

  it('streams the request body and the answer: the upstream answers the first chunk before the client sends the second', async () => {
    const upstream = await startUpstream((req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      req.on('data', (chunk: Buffer) => res.write(`echo:${chunk.toString()};`));
      req.on('end', () => res.end('done'));
    }, { streaming: true });
    const server = await startServer({ mock: { endpointPrefix: '/api', fsDir: null, logLevel: 'silent', proxy: { target: upstream.url } } });
    const target = new URL('/api/stream', server.url);
    const received = await new Promise<string>((resolve, reject) => {
      const req = httpRequest({ host: target.hostname, port: target.port, path: target.pathname, method: 'POST', headers: { 'content-type': 'text/plain', 'transfer-encoding': 'chunked' }, agent: false }, (res) => {
        let text = '';
        res.on('data', (c: Buffer) => {
          text += c.toString();
          // Only once the first chunk came back through both streams is the second one sent.
          if (text.includes('echo:one;') && !text.includes('echo:two;')) req.end('two');
        });
        res.on('end', () => resolve(text));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.write('one');
      req.flushHeaders();
    });
    expect(received).toBe('echo:one;echo:two;done');
  });

  it('the client going away before the target answers drops the exchange with the target', async () => {
    const { targetClosed, closedEarly } = droppedByProxy();
    const upstream = await startUpstream((_req, res) => {
      // Never answers; tells when the proxy dropped the request.
      closedEarly(res);
    }, { streaming: true });
    const server = await startServer({ mock: { endpointPrefix: '/api', fsDir: null, logLevel: 'silent', proxy: { target: upstream.url, timeout: 30_000 } } });
    const req = openGet(server.url, '/api/slow');
    await until(() => upstream.seen.length === 1);
    req.destroy();
    await targetClosed; // bounded by the test's timeout, not a measured time
    // The journal shows what happened: 499 (client closed request), not a failing target.
    const journal = async () => ((await (await fetch(`${server.url}/_mockyard/api/requests`)).json()) as { entries: Array<{ url: string; status: number }> }).entries;
    await vi.waitFor(async () => expect((await journal()).find((e) => e.url.startsWith('/api/slow'))?.status).toBe(499), { timeout: 10_000, interval: 20 });
  });

  it('the client going away while the answer streams closes the exchange with the target', async () => {
    const { targetClosed, closedEarly } = droppedByProxy();
    const upstream = await startUpstream((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('first;');
      closedEarly(res);
    }, { streaming: true });
    const server = await startServer({ mock: { endpointPrefix: '/api', fsDir: null, logLevel: 'silent', proxy: { target: upstream.url } } });
    const target = new URL('/api/stream', server.url);
    const first = await new Promise<string>((resolve, reject) => {
      const req = httpRequest({ host: target.hostname, port: target.port, path: target.pathname, agent: false }, (res) => {
        res.once('data', (c: Buffer) => {
          resolve(c.toString());
          req.destroy();
        });
      });
      req.on('error', () => {});
      req.on('close', () => reject(new Error('closed before the first chunk')));
      req.end();
    });
    expect(first).toBe('first;');
    await targetClosed; // bounded by the test's timeout, not a measured time
  });

  it("passes the target's reason phrase on, for a short answer and for one that streams", async () => {
    const upstream = await startUpstream((req, res) => {
      if (req.url === '/api/short') {
        res.writeHead(200, 'Fine Thanks', { 'content-type': 'application/json' });
        res.end('{"ok":true}');
        return;
      }
      res.writeHead(202, 'Still Coming', { 'content-type': 'text/plain' });
      res.write('part;');
      setTimeout(() => res.end('end'), 30);
    });
    const server = await startServer({ mock: { endpointPrefix: '/api', fsDir: null, logLevel: 'silent', proxy: { target: upstream.url } } });
    const short = await rawRequest(server.url, { path: '/api/short' });
    expect([short.status, short.statusMessage, short.body.toString()]).toEqual([200, 'Fine Thanks', '{"ok":true}']);
    const streamed = await rawRequest(server.url, { path: '/api/streamed' });
    expect([streamed.status, streamed.statusMessage, streamed.body.toString()]).toEqual([202, 'Still Coming', 'part;end']);
  });

  it('interim answers (103 Early Hints) are skipped: the client gets the final one', async () => {
    const upstream = await startUpstream((_req, res) => {
      res.writeEarlyHints({ link: '</style.css>; rel=preload; as=style' });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"final":true}');
    });
    const server = await startServer({ mock: { endpointPrefix: '/api', fsDir: null, logLevel: 'silent', proxy: { target: upstream.url } } });
    const r = await rawRequest(server.url, { path: '/api/hinted' });
    expect([r.status, r.body.toString()]).toEqual([200, '{"final":true}']);
  });

  it("CORS replaces the target's own CORS headers in any spelling and adds to its Vary, short or streamed", async () => {
    const upstream = await startUpstream((req, res) => {
      res.setHeader('access-control-allow-origin', 'https://other.example');
      res.setHeader('vary', 'Accept-Encoding');
      res.setHeader('content-type', 'application/json');
      res.end(req.url === '/api/big' ? JSON.stringify({ x: 'a'.repeat(200_000) }) : '{"ok":true}');
    });
    const server = await startServer({ mock: { endpointPrefix: '/api', fsDir: null, logLevel: 'silent', cors: { origins: ['https://app.example'] }, proxy: { target: upstream.url } } });
    for (const path of ['/api/small', '/api/big']) {
      const r = await rawRequest(server.url, { path, headers: { origin: 'https://app.example' } });
      expect(r.status).toBe(200);
      expect(r.headers['access-control-allow-origin']).toBe('https://app.example'); // one value (node joins duplicates with ", ")
      expect(String(r.headers.vary).split(',').map((t) => t.trim().toLowerCase()).sort()).toEqual(['accept-encoding', 'origin']);
    }
  });

  it('a client gone while a delayed answer waits: the exchange with the target is dropped, the answer is never written, nothing crashes', async () => {
    const { targetClosed, closedEarly } = droppedByProxy();
    const upstream = await startUpstream((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('first;'); // and never more: the answer streams
      closedEarly(res);
    }, { streaming: true });
    // The global delay runs once the proxy has the target's answer: the test knows when it starts
    // and when it ends by watching the engine's delays (no sleep).
    const delays: Array<Promise<void>> = [];
    const sleep = Sleeper.prototype.sleep;
    const spy = vi.spyOn(Sleeper.prototype, 'sleep').mockImplementation(function (this: Sleeper, ms: number) {
      const wait = sleep.call(this, ms);
      delays.push(wait);
      return wait;
    });
    try {
      const api = createMockApi({ endpointPrefix: '/api', fsDir: null, logLevel: 'silent', delay: 300, proxy: { target: upstream.url } });
      const exchanges: Array<number | undefined> = [];
      api.observe((e) => exchanges.push(e.status));
      const server = await startServer({ mock: api });
      const answers: ServerResponse[] = [];
      server.server.prependListener('request', (_req, res: ServerResponse) => answers.push(res));
      const req = openGet(server.url, '/api/slow');
      await until(() => delays.length === 1); // the head and first chunk are in; the delay runs
      req.destroy();
      await targetClosed; // bounded by the test's timeout, not a measured time
      await delays[0]; // the delay is over: the engine hands its (dropped) answer to the host
      await until(() => exchanges.length === 1);
      expect(answers).toHaveLength(1);
      expect(answers[0]!.headersSent).toBe(false); // the dropped answer is not written
      expect((await fetch(`${server.url}/local`)).status).toBe(404); // still serving
      await api.close(); // a ready engine stays the test's to close (the server is closed after each test)
    } finally {
      spy.mockRestore();
    }
  });

  it('an answer dropped for the gateway timeout releases its exchange with the target', async () => {
    let closed = 0;
    const upstream = await startUpstream((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.write(Buffer.alloc(256 * 1024, 97)); // more than is read ahead: the target is paused
      res.on('close', () => { closed++; });
    }, { streaming: true });
    const server = await startServer({ mock: { endpointPrefix: '/api', fsDir: null, logLevel: 'silent', delay: [300, 301], gatewayTimeout: 100, proxy: { target: upstream.url } } });
    for (let i = 0; i < 3; i++) expect((await fetch(`${server.url}/api/x${i}`)).status).toBe(504);
    await until(() => closed === 3);
  });

  it('a large answer (3 MiB) reaches a slow reader byte for byte, with CORS headers added', async () => {
    const bytes = Buffer.alloc(3 * 1024 * 1024);
    for (let i = 0; i < bytes.length; i += 4) bytes.writeUInt32LE((i * 2654435761) >>> 0, i);
    const upstream = await startUpstream((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(bytes.length) });
      res.end(bytes);
    });
    const server = await startServer({ mock: { endpointPrefix: '/api', fsDir: null, logLevel: 'silent', proxy: { target: upstream.url }, cors: true } });
    const r = await fetch(`${server.url}/api/blob`, { headers: { origin: 'http://localhost:5173' } });
    expect(r.headers.get('content-length')).toBe(String(bytes.length));
    expect(r.headers.get('access-control-allow-origin')).not.toBeNull();
    const reader = r.body!.getReader();
    const parts: Uint8Array[] = [];
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parts.push(value);
      if (parts.length % 8 === 0) await new Promise((resolve) => setTimeout(resolve, 5)); // a slow reader: the proxy must hold back
    }
    expect(Buffer.concat(parts).equals(bytes)).toBe(true);
  });

  it('forwards a POST body with its headers; passes redirects on without following them', async () => {
    const upstream = await startUpstream((req, res, body) => {
      if (req.url === '/api/moved') {
        res.writeHead(302, { location: '/api/new-place' });
        res.end();
        return;
      }
      void body().then((b) => {
        res.writeHead(201, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ got: JSON.parse(b.toString()), type: req.headers['content-type'], length: req.headers['content-length'] }));
      });
    });
    const server = await startServer({ mock: { endpointPrefix: '/api', fsDir: null, logLevel: 'silent', proxy: { target: upstream.url } } });
    const payload = JSON.stringify({ name: 'Ada' });
    const r = await fetch(`${server.url}/api/users`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: payload });
    expect(r.status).toBe(201);
    expect(await r.json()).toEqual({ got: { name: 'Ada' }, type: 'application/json', length: String(payload.length) });
    const moved = await fetch(`${server.url}/api/moved`, { redirect: 'manual' });
    expect(moved.status).toBe(302);
    expect(moved.headers.get('location')).toBe('/api/new-place');
    expect(upstream.seen.map((s) => s.url)).toEqual(['/api/users', '/api/moved']);
  });

  it('a gzip answer reaches the client decoded, without a stale Content-Encoding or Content-Length', async () => {
    const text = JSON.stringify({ big: 'x'.repeat(5000) });
    const { url } = await setup((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      res.end(gzipSync(text));
    });
    const r = await rawRequest(url, { path: '/api/zipped', headers: { 'accept-encoding': 'gzip' } });
    expect(r.status).toBe(200);
    expect(r.headers['content-encoding']).toBeUndefined();
    expect(r.body.toString()).toBe(text);
  });

  it('rewrite and a target path: /api/users?x=1 → /v2/users?x=1', async () => {
    const upstream = await startUpstream(json({ ok: true }));
    const server = await startServer({ mock: { endpointPrefix: '/api', fsDir: null, logLevel: 'silent', proxy: { target: `${upstream.url}/v2/`, rewrite: (p) => p.replace(/^\/api/, '') } } });
    expect((await fetch(`${server.url}/api/users?x=1`)).status).toBe(200);
    expect(upstream.seen[0]!.url).toBe('/v2/users?x=1');
  });

  it('an unreachable target is a 502 with the error shape and no internal detail', async () => {
    const server = await startServer({ mock: { endpointPrefix: '/api', fsDir: null, logLevel: 'silent', proxy: { target: await deadUrl() } } });
    const r = await fetch(`${server.url}/api/users`);
    expect(r.status).toBe(502);
    expect(r.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const body = (await r.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ status: 502, error: 'BAD_GATEWAY', message: PROXY_MESSAGES.unreachable, path: '/api/users' });
    expect(JSON.stringify(body)).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|fetch failed/);
  });

  it('a target that does not answer within proxy.timeout is a 504 with the error shape', async () => {
    const upstream = await startUpstream(() => { /* never answers */ });
    const server = await startServer({ mock: { endpointPrefix: '/api', fsDir: null, logLevel: 'silent', proxy: { target: upstream.url, timeout: 150 } } });
    const r = await fetch(`${server.url}/api/slow`);
    expect(r.status).toBe(504);
    expect(await r.json()).toMatchObject({ status: 504, error: 'GATEWAY_TIMEOUT', message: PROXY_MESSAGES.timeout(150), path: '/api/slow' });
  });

  it('a proxy whose target is itself answers 508 instead of looping; Via names the proxy', async () => {
    const upstream = await startUpstream(json({ ok: true }));
    const server = await startServer({ mock: { endpointPrefix: '/api', fsDir: null, logLevel: 'silent', proxy: { target: upstream.url } } });
    await fetch(`${server.url}/api/x`);
    expect(upstream.seen[0]!.headers.via).toMatch(/^1\.1 mockyard-[a-z0-9]+$/);
    // A mock API proxying to its own address: the request comes back carrying its Via.
    const { createMockApi } = await import('../../src/engine/create-mock-api.js');
    let api: ReturnType<typeof createMockApi> | undefined;
    const looped = await startServer({ engines: [fakeEngine({ prefixes: ['/api'], handle: (req) => api!.handle(req) })] });
    api = createMockApi({ endpointPrefix: '/api', fsDir: null, logLevel: 'silent', proxy: { target: looped.url } }, runtime());
    const r = await fetch(`${looped.url}/api/loop`);
    expect(r.status).toBe(508);
    expect(await r.json()).toMatchObject({ status: 508, error: 'LOOP_DETECTED', message: PROXY_MESSAGES.loop });
    await api.close();
  });

  it('observers see the proxy as the answering layer', async () => {
    const upstream = await startUpstream(json({ ok: 1 }));
    const { createMockApi } = await import('../../src/engine/create-mock-api.js');
    const api = createMockApi({ endpointPrefix: '/api', fsDir: null, logLevel: 'silent', proxy: { target: upstream.url } }, runtime());
    const seen: unknown[] = [];
    api.observe((e) => seen.push(e.answeredBy));
    const r = await api.handle(new Request('http://mock.local/api/x'));
    expect(await r!.json()).toEqual({ ok: 1 });
    expect(seen).toEqual([{ layer: 'proxy', detail: `GET ${upstream.url}/api/x` }]);
    await api.close();
  });
});

describe('proxy on Node (undici transport)', () => {
  beforeEach(() => {
    transport = undiciTransport;
  });

  /**
   * A target serving one request per connection that drops the connection when a second one
   * arrives on it (a server closing an idle keep-alive connection just as it is reused), behind
   * a proxying mock API.
   */
  async function droppingTarget() {
    const served = new WeakSet<object>();
    const upstream = await startUpstream((req, res) => {
      if (served.has(req.socket)) {
        req.socket.destroy();
        return;
      }
      served.add(req.socket);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ url: req.url }));
    });
    const server = await startServer({ mock: { endpointPrefix: '/api', fsDir: null, logLevel: 'silent', proxy: { target: upstream.url } } });
    return { upstream, url: server.url };
  }

  it('a GET whose kept-alive connection the target drops as it is reused is retried once on a fresh one', async () => {
    const { upstream, url } = await droppingTarget();
    for (const n of [1, 2, 3]) {
      const r = await fetch(`${url}/api/item/${n}`);
      expect(r.status).toBe(200);
      expect(await r.json()).toEqual({ url: `/api/item/${n}` });
    }
    // Request 2 reached the target twice: once on the dropped connection, once retried. Request 3
    // did too when the pool reused the retry's connection, once when it opened a fresh one (the
    // pool's choice); never more.
    const seen = upstream.seen.map((s) => s.url);
    expect(seen.slice(0, 3)).toEqual(['/api/item/1', '/api/item/2', '/api/item/2']);
    expect(seen.slice(3)).toContain('/api/item/3');
    expect(seen.filter((u) => u === '/api/item/3').length).toBeLessThanOrEqual(2);
  });

  it('a POST is never retried: a dropped connection is a 502', async () => {
    const { upstream, url } = await droppingTarget();
    expect((await fetch(`${url}/api/a`)).status).toBe(200);
    const r = await fetch(`${url}/api/b`, { method: 'POST', body: 'x' });
    expect(r.status).toBe(502);
    expect(upstream.seen.filter((s) => s.url === '/api/b')).toHaveLength(1);
  });
});
