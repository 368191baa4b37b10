/**
 * The programmable layer through a real node:http server (`serve`, 127.0.0.1 port 0) with real
 * fetch and `ws` clients.
 */
import { request as httpRequest, Agent } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { HttpError } from '../../../src/core/errors.js';
import type { Engine } from '../../../src/core/engine.js';
import { createMockApi } from '../../../src/engine/create-mock-api.js';
import type { MockApiOptions } from '../../../src/engine/mock-api-options.js';
import { serve, type RunningServer } from '../../../src/node/serve.js';
import { memoryFs } from '../../../src/vfs/memory.js';
import { deferred } from './engine-helpers.js';

const servers: RunningServer[] = [];
const apis: Array<ReturnType<typeof createMockApi>> = [];
const sockets: WebSocket[] = [];

afterEach(async () => {
  for (const s of sockets.splice(0)) s.terminate();
  await Promise.all(servers.splice(0).map((s) => s.close()));
  await Promise.all(apis.splice(0).map((a) => a.close()));
});

async function start(options: Partial<MockApiOptions>, files: Record<string, unknown> = {}, engines: Engine[] = []): Promise<RunningServer> {
  const api = createMockApi({ endpointPrefix: '/api', fs: memoryFs(files as never), logLevel: 'silent', ...options });
  apis.push(api);
  const server = await serve({ mock: api, engines, port: 0, logLevel: 'silent' });
  servers.push(server);
  return server;
}

type Inbox = ReturnType<typeof inbox>;
const inboxes = new WeakMap<WebSocket, Inbox>();

/**
 * Opens a ws client and waits for the open event (rejects on an HTTP refusal). Its inbox is
 * attached before the handshake: a message sent in onConnect can arrive in the same tick as 'open'.
 */
function open(url: string, options: ConstructorParameters<typeof WebSocket>[2] = {}): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, options);
    sockets.push(ws);
    inboxes.set(ws, inbox(ws));
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    ws.once('error', reject);
  });
}

/** The inbox attached by open(). */
function box(ws: WebSocket): Inbox {
  return inboxes.get(ws)!;
}

/** Collects JSON messages; `next()` resolves with the next one. */
function inbox(ws: WebSocket) {
  const queue: unknown[] = [];
  const waiters: Array<(v: unknown) => void> = [];
  ws.on('message', (data, isBinary) => {
    const value = isBinary ? { binary: [...(data as Buffer)] } : JSON.parse(String(data));
    const w = waiters.shift();
    if (w) w(value);
    else queue.push(value);
  });
  return {
    next: () => (queue.length ? Promise.resolve(queue.shift()) : new Promise<unknown>((r) => waiters.push(r))),
    pending: () => queue.length,
  };
}

describe('REST handlers on a real server', () => {
  it('capture and decode params for every pattern form; 400 on malformed encoding', async () => {
    const s = await start({
      handlers: [
        { pattern: '/users/{id}/posts/{postId:\\d+}', handle: (req) => req.params },
        { pattern: '/files/*.txt', handle: (req) => req.params },
        { pattern: '/v?/ping', handle: () => 'pong' },
        { pattern: '/assets/**', handle: (req) => req.params },
      ],
    });
    expect(await (await fetch(`${s.url}/api/users/J%C3%BCrgen%20B/posts/12`)).json()).toEqual({ id: 'Jürgen B', postId: '12' });
    expect((await fetch(`${s.url}/api/users/x/posts/abc`)).status).toBe(404);
    expect(await (await fetch(`${s.url}/api/files/notes.txt`)).json()).toEqual({ 0: 'notes' });
    expect(await (await fetch(`${s.url}/api/v1/ping`)).json()).toBe('pong');
    expect(await (await fetch(`${s.url}/api/assets/img/logo.png`)).json()).toEqual({ 0: 'img/logo.png' });
    const bad = await fetch(`${s.url}/api/users/%E2%82/posts/1`);
    expect(bad.status).toBe(400);
  });

  it('serve HEAD from a GET handler without a body', async () => {
    const s = await start({ handlers: [{ pattern: '/items', handle: () => ({ items: [1, 2, 3] }) }] });
    const head = await fetch(`${s.url}/api/items`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(JSON.stringify({ items: [1, 2, 3] }).length));
    expect(await head.text()).toBe('');
  });

  it('support Node style, Express style, returned values and returned Responses', async () => {
    const s = await start({
      handlers: [
        { pattern: '/node', handle: (_req, res) => { res.statusCode = 201; res.setHeader('X-A', '1'); res.write('a'); res.end('b'); } },
        { pattern: '/express', handle: (_req, res) => { res.status(202).type('text').send('hi'); } },
        { pattern: '/value', handle: async () => ({ v: 1 }) },
        { pattern: '/response', handle: () => new Response('r', { status: 203, headers: { 'X-R': 'yes' } }) },
        { pattern: '/nothing', handle: () => undefined },
      ],
    });
    const node = await fetch(`${s.url}/api/node`);
    expect([node.status, node.headers.get('x-a'), await node.text()]).toEqual([201, '1', 'ab']);
    const ex = await fetch(`${s.url}/api/express`);
    expect([ex.status, ex.headers.get('content-type'), await ex.text()]).toEqual([202, 'text/plain; charset=utf-8', 'hi']);
    const value = await fetch(`${s.url}/api/value`);
    expect([value.status, await value.json()]).toEqual([200, { v: 1 }]);
    const r = await fetch(`${s.url}/api/response`);
    expect([r.status, r.headers.get('x-r'), await r.text()]).toEqual([203, 'yes', 'r']);
    const nothing = await fetch(`${s.url}/api/nothing`);
    expect(nothing.status).toBe(500);
    expect(((await nothing.json()) as { message: string }).message).toMatch(/did not send a response/);
  });

  it('run middlewares: continue, stop, next(err) and throw through errorMiddlewares; a 404 stays 404', async () => {
    const calls: string[] = [];
    const s = await start({
      handlerMiddlewares: [
        (req, res, next) => {
          calls.push('mw');
          if (req.query.stop) return void res.status(429).json({ stopped: true });
          if (req.query.fail) return next(new HttpError(409, 'from middleware'));
          next();
        },
      ],
      errorMiddlewares: [
        (err, _req, _res, next) => { calls.push(`err1:${err.status}`); next(err); },
        (err, req, res, next) => { if (req.query.shape) res.status(err.status).json({ shaped: err.message }); else next(err); },
      ],
      handlers: [
        { pattern: '/ok', handle: () => { calls.push('handler'); return 'ok'; } },
        { pattern: '/gone', handle: () => { throw new HttpError(404, 'Gone fishing'); } },
      ],
    });
    expect(await (await fetch(`${s.url}/api/ok`)).json()).toBe('ok');
    expect(calls).toEqual(['mw', 'handler']);
    calls.length = 0;
    const stopped = await fetch(`${s.url}/api/ok?stop=1`);
    expect([stopped.status, await stopped.json()]).toEqual([429, { stopped: true }]);
    expect(calls).toEqual(['mw']);
    calls.length = 0;
    const failed = await fetch(`${s.url}/api/ok?fail=1&shape=1`);
    expect([failed.status, await failed.json()]).toEqual([409, { shaped: 'from middleware' }]);
    expect(calls).toEqual(['mw', 'err1:409']);
    const gone = await fetch(`${s.url}/api/gone`);
    expect(gone.status).toBe(404);
    expect(await gone.json()).toMatchObject({ status: 404, message: 'Gone fishing', path: '/api/gone' });
  });

  it('answer 401 when authenticate fails', async () => {
    const s = await start({ handlers: [{ pattern: '/me', authenticate: true, handle: () => ({ me: true }) }] });
    const denied = await fetch(`${s.url}/api/me`);
    expect(denied.status).toBe(401);
    expect(await denied.json()).toMatchObject({ status: 401, error: 'UNAUTHORIZED' });
    expect((await fetch(`${s.url}/api/me`, { headers: { Authorization: 'Bearer x' } })).status).toBe(200);
  });

  it('parse JSON, urlencoded, multipart, text and bytes; 400 on invalid JSON; 413 past the limit', async () => {
    const s = await start({
      bodyLimit: 1024,
      handlers: [
        {
          pattern: '/echo',
          method: 'POST',
          handle: (req) => ({
            body: req.body instanceof Uint8Array ? { bytes: [...req.body] } : req.body,
            files: req.files.map((f) => ({ field: f.fieldName, name: f.filename, type: f.contentType, text: new TextDecoder().decode(f.bytes) })),
          }),
        },
      ],
    });
    const post = (body: BodyInit, type?: string) => fetch(`${s.url}/api/echo`, { method: 'POST', body, headers: type ? { 'Content-Type': type } : {} });
    expect(await (await post('{"a":[1]}', 'application/json')).json()).toEqual({ body: { a: [1] }, files: [] });
    expect(await (await post('a=1&a=2&b=%C3%A9', 'application/x-www-form-urlencoded')).json()).toEqual({ body: { a: ['1', '2'], b: 'é' }, files: [] });
    expect(await (await post('just text', 'text/plain')).json()).toEqual({ body: 'just text', files: [] });
    expect(await (await post(new Uint8Array([1, 2, 250]), 'application/octet-stream')).json()).toEqual({ body: { bytes: [1, 2, 250] }, files: [] });
    const form = new FormData();
    form.append('title', 'report');
    form.append('doc', new Blob(['hello file'], { type: 'text/plain' }), 'hello.txt');
    expect(await (await post(form)).json()).toEqual({ body: { title: 'report' }, files: [{ field: 'doc', name: 'hello.txt', type: 'text/plain', text: 'hello file' }] });
    const invalid = await post('{"a":', 'application/json');
    expect(invalid.status).toBe(400);
    expect(((await invalid.json()) as { message: string }).message).toMatch(/Malformed JSON/);
    const big = new FormData();
    big.append('doc', new Blob(['x'.repeat(5000)]), 'big.bin');
    expect((await post(big)).status).toBe(413);
  });

  it('parse multipart on the node host: fields, repeated names, several files, limits, malformed bodies', async () => {
    const s = await start({
      bodyLimit: 4096,
      handlers: [
        {
          pattern: '/upload',
          method: 'POST',
          handle: (req) => ({
            body: req.body,
            files: req.files.map((f) => [f.fieldName, f.filename, f.contentType, new TextDecoder().decode(f.bytes)]),
          }),
        },
      ],
    });
    const form = new FormData();
    form.append('tag', 'a');
    form.append('tag', 'b');
    form.append('name', 'Zoë');
    form.append('one', new Blob(['first'], { type: 'text/plain' }), 'één.txt');
    form.append('two', new Blob([new Uint8Array([1, 2])]), 'two.bin');
    const ok = await fetch(`${s.url}/api/upload`, { method: 'POST', body: form });
    expect(await ok.json()).toEqual({
      body: { tag: ['a', 'b'], name: 'Zoë' },
      files: [['one', 'één.txt', 'text/plain', 'first'], ['two', 'two.bin', 'application/octet-stream', '\u0001\u0002']],
    });

    // Chunked upload (no Content-Length) past the limit: refused while streaming.
    const big = new FormData();
    big.append('doc', new Blob(['y'.repeat(20_000)]), 'big.bin');
    const encoded = new Response(big);
    const bytes = new Uint8Array(await encoded.arrayBuffer());
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(`${s.url}/api/upload`, { method: 'POST', headers: { 'Content-Type': encoded.headers.get('content-type')! } }, (res) => {
        res.resume();
        resolve(res.statusCode!);
      });
      req.on('error', reject);
      for (let i = 0; i < bytes.length; i += 1000) req.write(bytes.subarray(i, i + 1000));
      req.end();
    });
    expect(status).toBe(413);

    const noBoundary = await fetch(`${s.url}/api/upload`, { method: 'POST', body: 'x', headers: { 'Content-Type': 'multipart/form-data' } });
    expect(noBoundary.status).toBe(400);
  });

  it("apply a handler's own delay over the global one, including 0", async () => {
    const s = await start({ delay: 3_600_000, handlers: [{ pattern: '/now', delay: 0, handle: () => 'now' }] });
    // Would wait an hour (and time the test out) if the global delay applied.
    expect(await (await fetch(`${s.url}/api/now`)).json()).toBe('now');
  });

  it('answer 504 after gatewayTimeout and never write the late response', async () => {
    const gate = deferred();
    const lateDone = deferred();
    const s = await start({
      gatewayTimeout: 50,
      handlers: [
        { pattern: '/slow', handle: async (_req, res) => { await gate.promise; res.status(200).json({ late: true }); lateDone.resolve(); } },
        { pattern: '/fast', handle: () => ({ fast: true }) },
      ],
    });
    // One keep-alive connection for both requests: stray bytes from a second write would corrupt the next response.
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const get = (path: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = httpRequest(`${s.url}${path}`, { agent }, (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (c) => (body += c));
          res.on('end', () => resolve({ status: res.statusCode!, body }));
        });
        req.on('error', reject);
        req.end();
      });
    const slow = await get('/api/slow');
    expect(slow.status).toBe(504);
    expect(JSON.parse(slow.body)).toMatchObject({ status: 504, error: 'GATEWAY_TIMEOUT', message: 'Gateway Timeout' });
    gate.resolve();
    await lateDone.promise;
    const fast = await get('/api/fast');
    expect(fast).toEqual({ status: 200, body: '{"fast":true}' });
    agent.destroy();
  });

  it('a streamed answer that comes after the 504 is cancelled: its source is told, nothing is left open', async () => {
    const gate = deferred();
    const cancelled = deferred();
    const s = await start({
      gatewayTimeout: 50,
      handlers: [
        {
          pattern: '/late-stream',
          handle: async () => {
            await gate.promise;
            return new Response(new ReadableStream({ pull: () => new Promise(() => {}), cancel: () => cancelled.resolve() }), { headers: { 'content-type': 'text/plain' } });
          },
        },
      ],
    });
    const r = await fetch(`${s.url}/api/late-stream`);
    expect(r.status).toBe(504);
    await r.text();
    gate.resolve();
    await cancelled.promise; // the late body's source was cancelled (bounded by the test's timeout, not a measured time)
  });

  it("forward unhandled requests to the next engine with 'forward', answer 404 with '404'", async () => {
    const next: Engine = { prefixes: ['/'], handle: async () => new Response('from next engine', { status: 299 }) };
    const fwd = await start({ noHandledRestFsRequestsAction: 'forward', handlers: [{ pattern: '/known', handle: () => 'known' }] }, {}, [next]);
    const a = await fetch(`${fwd.url}/api/unknown`);
    expect([a.status, await a.text()]).toEqual([299, 'from next engine']);
    expect(await (await fetch(`${fwd.url}/api/known`)).json()).toBe('known');
    const nf = await start({ handlers: [{ pattern: '/known', handle: () => 'known' }] }, {}, [next]);
    const b = await fetch(`${nf.url}/api/unknown`);
    expect(b.status).toBe(404);
    expect(await b.json()).toMatchObject({ status: 404, error: 'NOT_FOUND' });
    // Outside the prefix the mock API never answers.
    expect((await fetch(`${nf.url}/elsewhere`)).status).toBe(299);
  });
});

describe('WebSocket handlers on a real server', () => {
  it('connect with params and echo JSON; text and binary frames', async () => {
    const s = await start({
      enableWs: true,
      wsHandlers: [{ pattern: '/echo/{channel}', onConnect: (c) => c.send({ channel: c.params.channel, q: c.query.q }), onMessage: (c, msg) => c.send(msg instanceof Uint8Array ? msg : { echo: msg }) }],
    });
    const ws = await open(`${s.url.replace('http', 'ws')}/api/echo/ch%201?q=z`);
    const messages = box(ws);
    expect(await messages.next()).toEqual({ channel: 'ch 1', q: 'z' });
    ws.send(JSON.stringify({ hello: 'world' }));
    expect(await messages.next()).toEqual({ echo: { hello: 'world' } });
    ws.send('plain text');
    expect(await messages.next()).toEqual({ echo: 'plain text' });
    ws.send(new Uint8Array([7, 8]));
    expect(await messages.next()).toEqual({ binary: [7, 8] });
  });

  it('refuse unauthenticated handshakes with 401 and leave unmatched paths to the host', async () => {
    const s = await start({ enableWs: true, wsHandlers: [{ pattern: '/private', authenticate: 'X-Token', onMessage() {} }] });
    await expect(open(`${s.url.replace('http', 'ws')}/api/private`)).rejects.toThrow('HTTP 401');
    await expect(open(`${s.url.replace('http', 'ws')}/api/private`, { headers: { 'X-Token': 't' } })).resolves.toBeInstanceOf(WebSocket);
    await expect(open(`${s.url.replace('http', 'ws')}/api/elsewhere`)).rejects.toThrow('HTTP 404');
  });

  it('broadcast to two clients and to rooms only', async () => {
    const s = await start({
      enableWs: true,
      wsHandlers: [
        {
          pattern: '/chat',
          onMessage: (c, msg) => {
            const m = msg as { join?: string; room?: string; text?: string };
            if (m.join) { c.join(m.join); c.send({ joined: m.join }); } else c.broadcast({ text: m.text, room: m.room ?? null }, { room: m.room, includeSelf: true });
          },
        },
      ],
    });
    const base = `${s.url.replace('http', 'ws')}/api/chat`;
    const [a, b, c] = await Promise.all([open(base), open(base), open(base)]);
    const [ia, ib, ic] = [box(a), box(b), box(c)];
    a.send(JSON.stringify({ text: 'everyone' }));
    expect(await ia.next()).toEqual({ text: 'everyone', room: null });
    expect(await ib.next()).toEqual({ text: 'everyone', room: null });
    expect(await ic.next()).toEqual({ text: 'everyone', room: null });
    a.send(JSON.stringify({ join: 'blue' }));
    b.send(JSON.stringify({ join: 'blue' }));
    expect(await ia.next()).toEqual({ joined: 'blue' });
    expect(await ib.next()).toEqual({ joined: 'blue' });
    a.send(JSON.stringify({ text: 'team', room: 'blue' }));
    expect(await ia.next()).toEqual({ text: 'team', room: 'blue' });
    expect(await ib.next()).toEqual({ text: 'team', room: 'blue' });
    // c is not in the room: a message sent to everyone afterwards is the next thing it sees.
    b.send(JSON.stringify({ text: 'after' }));
    expect(await ic.next()).toEqual({ text: 'after', room: null });
  });

  it('heartbeat terminates a client that does not answer pings; a normal client stays', async () => {
    const closed = deferred<number>();
    const s = await start({ enableWs: true, wsHandlers: [{ pattern: '/hb', heartbeat: 40, onMessage() {}, onClose: (_c, code) => closed.resolve(code) }] });
    const url = `${s.url.replace('http', 'ws')}/api/hb`;
    const healthy = await open(url);
    let healthyPings = 0;
    healthy.on('ping', () => healthyPings++);
    const silent = await open(url, { autoPong: false });
    let silentPings = 0;
    silent.on('ping', () => silentPings++);
    const silentClosed = new Promise<number>((r) => silent.once('close', (code) => r(code)));
    expect(await closed.promise).toBe(1006);
    expect(await silentClosed).toBe(1006);
    expect(silentPings).toBeGreaterThanOrEqual(2);
    expect(healthy.readyState).toBe(WebSocket.OPEN);
    expect(healthyPings).toBeGreaterThanOrEqual(2);
  });

  it('push from a REST handler to WebSocket subscribers', async () => {
    const s = await start({
      enableWs: true,
      wsHandlers: [{ pattern: '/orders/feed', onConnect: (c) => c.send({ ready: true }), onMessage() {} }],
      handlers: [{ pattern: '/orders', method: 'POST', handle: (req, res) => { const n = req.app.ws.broadcast('/orders/feed', { created: req.body }); res.status(201).json({ notified: n }); } }],
    });
    const url = `${s.url.replace('http', 'ws')}/api/orders/feed`;
    const [a, b] = await Promise.all([open(url), open(url)]);
    const [ia, ib] = [box(a), box(b)];
    expect(await ia.next()).toEqual({ ready: true });
    expect(await ib.next()).toEqual({ ready: true });
    const res = await fetch(`${s.url}/api/orders`, { method: 'POST', body: '{"id":7}', headers: { 'Content-Type': 'application/json' } });
    expect([res.status, await res.json()]).toEqual([201, { notified: 2 }]);
    expect(await ia.next()).toEqual({ created: { id: 7 } });
    expect(await ib.next()).toEqual({ created: { id: 7 } });
  });
});
