/**
 * The page host's pieces that do not need a browser: prefix matching, decoding of encoded engine
 * responses, and the WebSocket seam over a page socket (with a fake PageSocket standing in for
 * msw's client connection).
 */
import { gzipSync, deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { Engine } from '../../src/core/engine.js';
import { FastResponse } from '../../src/core/fast-response.js';
import type { SocketPeer } from '../../src/core/socket.js';
import type { PageSocket } from '../../src/msw/routes.js';
import { toPageResponse } from '../../src/host/page-response.js';
import { underPrefix } from '../../src/core/engine.js';
import { httpRoutes } from '../../src/msw/routes.js';
import { socketRoute } from '../../src/msw/sockets.js';

describe('underPrefix', () => {
  it('matches the prefix itself and below it, on a segment boundary', () => {
    expect(underPrefix('/api', '/api')).toBe(true);
    expect(underPrefix('/api/', '/api')).toBe(true);
    expect(underPrefix('/api/users/1', '/api')).toBe(true);
    expect(underPrefix('/apix', '/api')).toBe(false);
    expect(underPrefix('/ap', '/api')).toBe(false);
    expect(underPrefix('/anything', '/')).toBe(true);
  });
});

describe('toPageResponse', () => {
  it('gives FastResponses as native Responses', async () => {
    const res = toPageResponse(FastResponse.json('{"a":1}', 201, { 'X-Total-Count': '3' }));
    expect(res.constructor).toBe(Response);
    expect(res.status).toBe(201);
    expect(res.headers.get('x-total-count')).toBe('3');
    expect(await res.json()).toEqual({ a: 1 });
  });

  it('decodes gzip and deflate bodies and drops Content-Encoding / Content-Length', async () => {
    const body = JSON.stringify({ events: Array.from({ length: 50 }, (_, i) => ({ i })) });
    for (const [encoding, bytes] of [['gzip', gzipSync(body)], ['deflate', deflateSync(body)]] as const) {
      const res = toPageResponse(FastResponse.bytes(new Uint8Array(bytes), 200, { 'Content-Encoding': encoding, Vary: 'Accept-Encoding' }));
      expect(res.headers.get('content-encoding')).toBeNull();
      expect(res.headers.get('content-length')).toBeNull();
      expect(res.headers.get('vary')).toBe('Accept-Encoding');
      expect(await res.text()).toBe(body);
    }
  });

  it('leaves identity and unknown codings alone', async () => {
    const br = toPageResponse(new Response('xx', { headers: { 'content-encoding': 'br' } }));
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(await toPageResponse(new Response('plain')).text()).toBe('plain');
  });
});

describe('httpRoutes', () => {
  const engine = (prefix: string, answer: string | undefined): Engine => ({
    prefixes: [prefix],
    handle: async () => (answer === undefined ? undefined : new Response(answer)),
  });

  it('one route per prefix, same origin only; engines tried in order, undefined falls through', async () => {
    const routes = httpRoutes([engine('/api', undefined), engine('/api', 'second'), engine('/_tracker', 't')], 'http://app.test');
    expect(routes).toHaveLength(2);
    const [api] = routes;
    expect(api!.test('http://app.test/api/x')).toBe(true);
    expect(api!.test('http://app.test/api?x=1')).toBe(true);
    expect(api!.test('http://app.test/x#/api')).toBe(false);
    expect(api!.test('http://other.test/api/x')).toBe(false);
    expect(api!.test('http://app.test:8080/api/x')).toBe(false);
    expect(api!.test('http://app.test/apix')).toBe(false);
    const anyOrigin = httpRoutes([engine('/api', 'x')], undefined)[0]!;
    expect(anyOrigin.test('https://elsewhere.example/api/y')).toBe(true);
    expect(anyOrigin.test('https://elsewhere.example/other')).toBe(false);
    expect(await (await api!.handle(new Request('http://app.test/api/x')))!.text()).toBe('second');
    const none = httpRoutes([engine('/api', undefined)], 'http://app.test');
    expect(await none[0]!.handle(new Request('http://app.test/api/x'))).toBeUndefined();
  });
});

class FakeSocket implements PageSocket {
  readonly url: URL;
  binaryType: BinaryType = 'arraybuffer';
  sent: unknown[] = [];
  closed: [number | undefined, string | undefined] | null = null;
  private messageListeners: Array<(d: string | ArrayBuffer | Blob) => void> = [];
  private closeListeners: Array<(code: number, reason: string) => void> = [];
  constructor(url: string) {
    this.url = new URL(url);
  }
  send(data: string | ArrayBuffer | Blob) {
    this.sent.push(data);
  }
  close(code?: number, reason?: string) {
    this.closed = [code, reason];
  }
  onMessage(l: (d: string | ArrayBuffer | ArrayBufferView | Blob) => void) {
    this.messageListeners.push(l);
  }
  onClose(l: (code: number, reason: string) => void) {
    this.closeListeners.push(l);
  }
  fromPage(data: string | ArrayBuffer | Blob) {
    for (const l of this.messageListeners) l(data);
  }
  pageCloses(code: number, reason: string) {
    for (const l of this.closeListeners) l(code, reason);
  }
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('socketRoute', () => {
  function wsEngine(opts: { slow?: Promise<void>; refuse?: boolean } = {}) {
    const log: unknown[] = [];
    let peer: SocketPeer | undefined;
    const engine: Engine = {
      prefixes: ['/api'],
      handle: async () => undefined,
      async upgrade(request) {
        log.push(['upgrade', new URL(request.url).href, request.headers.get('upgrade')]);
        await opts.slow;
        if (opts.refuse) return new Response(null, { status: 401 });
        if (!new URL(request.url).pathname.startsWith('/api/ws')) return undefined;
        return (p) => {
          peer = p;
          return {
            message: (data) => log.push(['message', data instanceof Uint8Array ? Array.from(data) : data]),
            close: (code, reason) => log.push(['close', code, reason]),
          };
        };
      },
    };
    return { engine, log, peer: () => peer! };
  }

  it('matches same-host sockets under a WebSocket engine prefix', () => {
    const { engine } = wsEngine();
    const route = socketRoute([engine, { prefixes: ['/plain'], handle: async () => undefined }], 'http://app.test')!;
    expect(route.test(new URL('ws://app.test/api/ws'))).toBe(true);
    expect(route.test(new URL('ws://app.test/plain/ws'))).toBe(false);
    expect(route.test(new URL('ws://elsewhere.test/api/ws'))).toBe(false);
    expect(socketRoute([{ prefixes: ['/x'], handle: async () => undefined }], 'http://app.test')).toBeUndefined();
    // The pattern msw intercepts: nothing else on the host (a dev server's HMR socket stays native).
    expect(route.pattern.test('ws://app.test/api/ws?x=1')).toBe(true);
    expect(route.pattern.test('wss://app.test/api')).toBe(true);
    expect(route.pattern.test('ws://app.test/?token=hmr')).toBe(false);
    expect(route.pattern.test('ws://app.test/apix')).toBe(false);
    expect(route.pattern.test('ws://app.test.evil/api/ws')).toBe(false);
  });

  it('hands the handshake as an http(s) Request and keeps frames sent before the engine accepted, in order', async () => {
    let release!: () => void;
    const { engine, log } = wsEngine({ slow: new Promise((r) => (release = r)) });
    const socket = new FakeSocket('wss://app.test/api/ws?x=1');
    const done = socketRoute([engine], 'https://app.test')!.connect(socket);
    socket.fromPage('first');
    socket.fromPage(new Uint8Array([1, 2]).buffer);
    socket.fromPage(new Blob([new Uint8Array([3])]));
    release();
    expect(await done).toBeUndefined();
    socket.fromPage('after');
    await tick();
    await tick();
    expect(log).toEqual([
      ['upgrade', 'https://app.test/api/ws?x=1', 'websocket'],
      ['message', 'first'],
      ['message', [1, 2]],
      ['message', [3]],
      ['message', 'after'],
    ]);
  });

  it('peer: text as text, bytes by binaryType, ping() false; close reaches the session once', async () => {
    const { engine, log, peer } = wsEngine();
    const socket = new FakeSocket('ws://app.test/api/ws');
    await socketRoute([engine], 'http://app.test')!.connect(socket);
    peer().send('hi');
    peer().send(new Uint8Array([9, 8]));
    socket.binaryType = 'blob';
    peer().send(new Uint8Array([7]));
    expect(socket.sent[0]).toBe('hi');
    expect(Array.from(new Uint8Array(socket.sent[1] as ArrayBuffer))).toEqual([9, 8]);
    expect(socket.sent[2]).toBeInstanceOf(Blob);
    expect(peer().ping()).toBe(false);
    peer().close(4000, 'bye');
    socket.pageCloses(4000, 'bye');
    await tick();
    expect(socket.closed).toEqual([4000, 'bye']);
    expect(log.filter((e) => (e as unknown[])[0] === 'close')).toEqual([['close', 4000, 'bye']]);
    peer().send('ignored after close');
    expect(socket.sent).toHaveLength(3);
  });

  it('a page that closes before the engine accepted still closes the session', async () => {
    let release!: () => void;
    const { engine, log } = wsEngine({ slow: new Promise((r) => (release = r)) });
    const socket = new FakeSocket('ws://app.test/api/ws');
    const done = socketRoute([engine], 'http://app.test')!.connect(socket);
    socket.fromPage('early');
    socket.pageCloses(1001, 'going away');
    release();
    await done;
    await tick();
    expect(log.slice(1)).toEqual([['message', 'early'], ['close', 1001, 'going away']]);
  });

  it('a refused handshake closes the page socket with 1006; no engine → passthrough', async () => {
    const refused = new FakeSocket('ws://app.test/api/ws');
    await socketRoute([wsEngine({ refuse: true }).engine], 'http://app.test')!.connect(refused);
    expect(refused.closed?.[0]).toBe(1006);
    const other = new FakeSocket('ws://app.test/api/other');
    expect(await socketRoute([wsEngine().engine], 'http://app.test')!.connect(other)).toBe('passthrough');
    expect(other.closed).toBeNull();
  });
});
