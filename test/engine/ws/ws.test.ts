/**
 * WebSocket handlers through `engine.upgrade(request)` and the socket seam, with an in-memory
 * peer (the real-server tests use `ws` clients: test/engine/handlers/server.test.ts).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SocketAccept, SocketPeer, SocketSession } from '../../../src/core/socket.js';
import { OptionsError } from '../../../src/core/options.js';
import type { WsConnection, WsHandler } from '../../../src/engine/types.js';
import { call, closeApis, mockApi, type TestApi } from '../handlers/engine-helpers.js';

afterEach(async () => {
  vi.useRealTimers();
  await closeApis();
});

class FakePeer implements SocketPeer {
  sent: Array<string | Uint8Array> = [];
  closed: [number | undefined, string | undefined] | undefined;
  terminated = false;
  pings = 0;
  bufferedAmount = 0;
  session!: SocketSession;
  send(data: string | Uint8Array) { if (!this.closed && !this.terminated) this.sent.push(data); }
  close(code?: number, reason?: string) { this.closed = [code, reason]; }
  terminate() { this.terminated = true; this.session.close(1006, ''); }
  ping() { this.pings++; return true; }
  json(): unknown[] { return this.sent.map((s) => JSON.parse(s as string)); }
}

async function connect(api: TestApi, path: string, headers?: HeadersInit): Promise<FakePeer> {
  const result = await api.upgrade(new Request(`http://localhost${path}`, { headers }));
  if (typeof result !== 'function') throw new Error(`not accepted: ${result ? (result as Response).status : 'undefined'}`);
  const peer = new FakePeer();
  peer.session = (result as SocketAccept)(peer);
  await flush();
  return peer;
}

const flush = () => new Promise((r) => setTimeout(r, 0));

describe('WebSocket handlers', () => {
  it('require wsHandlers when enableWs is true, and validate patterns at start-up', () => {
    expect(() => mockApi({ enableWs: true })).toThrow(OptionsError);
    expect(() => mockApi({ enableWs: true, wsHandlers: [{ pattern: '/ws/{id', onMessage() {} }] })).toThrow(/pattern/);
  });

  it('ignore upgrades when enableWs is off, outside the prefix, or for unmatched paths', async () => {
    const off = mockApi({ wsHandlers: [{ pattern: '/ws', onMessage() {} }] });
    expect(await off.upgrade(new Request('http://localhost/api/ws'))).toBeUndefined();
    const on = mockApi({ enableWs: true, wsHandlers: [{ pattern: '/ws', onMessage() {} }] });
    expect(await on.upgrade(new Request('http://localhost/other/ws'))).toBeUndefined();
    expect(await on.upgrade(new Request('http://localhost/api/nope'))).toBeUndefined();
  });

  it('connect with params, query and headers, and echo JSON', async () => {
    let conn: WsConnection | undefined;
    const api = mockApi({
      enableWs: true,
      wsHandlers: [{ pattern: '/rooms/{room}', onConnect: (c) => { conn = c; c.send({ hello: c.params.room }); }, onMessage: (c, msg) => c.send({ echo: msg }) }],
    });
    const peer = await connect(api, '/api/rooms/r%201?x=1&x=2', { 'X-User': 'ann' });
    expect(conn!.params).toEqual({ room: 'r 1' });
    expect(conn!.query).toEqual({ x: ['1', '2'] });
    expect(conn!.headers.get('x-user')).toBe('ann');
    expect(typeof conn!.id).toBe('string');
    peer.session.message('{"a":1}');
    peer.session.message('not json');
    peer.session.message('42');
    peer.session.message(new Uint8Array([1, 2]));
    await flush();
    expect(peer.json()).toEqual([{ hello: 'r 1' }, { echo: { a: 1 } }, { echo: 'not json' }, { echo: 42 }, { echo: { 0: 1, 1: 2 } }]);
  });

  it('send strings as text and bytes as binary frames', async () => {
    const api = mockApi({ enableWs: true, wsHandlers: [{ pattern: '/ws', onMessage: (c) => { c.send('plain'); c.send(new Uint8Array([9])); } }] });
    const peer = await connect(api, '/api/ws');
    peer.session.message('x');
    await flush();
    expect(peer.sent[0]).toBe('plain');
    expect(peer.sent[1]).toBeInstanceOf(Uint8Array);
  });

  it('broadcast to the other clients of the handler (includeSelf on demand), and to rooms', async () => {
    const handler: WsHandler = {
      pattern: '/chat',
      onMessage: (c, msg) => {
        const m = msg as { join?: string; to?: string; text?: string; all?: boolean };
        if (m.join) c.join(m.join);
        else if (m.to) c.broadcast({ room: m.to, text: m.text }, { room: m.to, includeSelf: true });
        else c.broadcast({ text: m.text }, { includeSelf: m.all });
      },
    };
    const api = mockApi({ enableWs: true, wsHandlers: [handler, { pattern: '/other', onMessage() {} }] });
    const a = await connect(api, '/api/chat');
    const b = await connect(api, '/api/chat');
    const c = await connect(api, '/api/chat');
    const other = await connect(api, '/api/other');
    a.session.message(JSON.stringify({ text: 'hi' }));
    await flush();
    expect(a.sent).toEqual([]);
    expect(b.json()).toEqual([{ text: 'hi' }]);
    expect(c.json()).toEqual([{ text: 'hi' }]);
    expect(other.sent).toEqual([]);
    a.session.message(JSON.stringify({ text: 'all', all: true }));
    await flush();
    expect(a.json()).toEqual([{ text: 'all' }]);

    a.sent = []; b.sent = []; c.sent = [];
    a.session.message(JSON.stringify({ join: 'blue' }));
    b.session.message(JSON.stringify({ join: 'blue' }));
    await flush();
    a.session.message(JSON.stringify({ to: 'blue', text: 'team' }));
    await flush();
    expect(a.json()).toEqual([{ room: 'blue', text: 'team' }]);
    expect(b.json()).toEqual([{ room: 'blue', text: 'team' }]);
    expect(c.sent).toEqual([]);
    expect(api.ws.broadcast('/chat', { server: true }, { room: 'blue' })).toBe(2);
  });

  it('leave rooms, and drop closed clients from broadcasts; onClose gets code and reason', async () => {
    const closes: Array<[number, string]> = [];
    const conns: WsConnection[] = [];
    const api = mockApi({ enableWs: true, wsHandlers: [{ pattern: '/ws', onConnect: (c) => { conns.push(c); c.join('r'); }, onMessage() {}, onClose: (_c, code, reason) => { closes.push([code, reason]); } }] });
    const a = await connect(api, '/api/ws');
    const b = await connect(api, '/api/ws');
    expect(api.ws.broadcast('/ws', 'x', { room: 'r' })).toBe(2);
    conns[0]!.leave('r');
    expect([...conns[0]!.rooms]).toEqual([]);
    expect(api.ws.broadcast('/ws', 'x', { room: 'r' })).toBe(1);
    b.session.close(1000, 'bye');
    await flush();
    expect(closes).toEqual([[1000, 'bye']]);
    expect(api.ws.broadcast('/ws', 'x')).toBe(1);
    conns[0]!.close(4000, 'done');
    expect(a.closed).toEqual([4000, 'done']);
  });

  it('refuse the handshake with 401 when authenticate fails', async () => {
    const api = mockApi({ enableWs: true, wsHandlers: [{ pattern: '/ws', authenticate: (req) => req.query.token === 't', onMessage() {} }] });
    const refused = await api.upgrade(new Request('http://localhost/api/ws?token=bad'));
    expect(refused).toBeInstanceOf(Response);
    expect((refused as Response).status).toBe(401);
    expect(typeof (await api.upgrade(new Request('http://localhost/api/ws?token=t')))).toBe('function');
  });

  it('run callbacks in order and send errors to onError without closing', async () => {
    const order: string[] = [];
    const errors: string[] = [];
    const api = mockApi({
      enableWs: true,
      wsHandlers: [{
        pattern: '/ws',
        onConnect: async () => { await new Promise((r) => setTimeout(r, 5)); order.push('connect'); },
        onMessage: (_c, msg) => { order.push(`msg:${msg}`); if (msg === 'boom') throw new Error('bad message'); },
        onError: (_c, err) => { errors.push((err as Error).message); },
      }],
    });
    const result = await api.upgrade(new Request('http://localhost/api/ws'));
    const peer = new FakePeer();
    peer.session = (result as SocketAccept)(peer);
    peer.session.message('first');
    peer.session.message('boom');
    peer.session.message('after');
    await new Promise((r) => setTimeout(r, 20));
    expect(order).toEqual(['connect', 'msg:first', 'msg:boom', 'msg:after']);
    expect(errors).toEqual(['bad message']);
    expect(peer.closed).toBeUndefined();
  });

  it('heartbeat pings and terminates a peer that missed two pongs', async () => {
    vi.useFakeTimers();
    const closes: number[] = [];
    const api = mockApi({ enableWs: true, wsHandlers: [{ pattern: '/ws', heartbeat: 100, onMessage() {}, onClose: (_c, code) => { closes.push(code); } }] });
    const result = await api.upgrade(new Request('http://localhost/api/ws'));
    const alive = new FakePeer();
    alive.session = (result as SocketAccept)(alive);
    const silent = new FakePeer();
    silent.session = (result as SocketAccept)(silent);
    for (let i = 0; i < 5; i++) {
      vi.advanceTimersByTime(100);
      alive.session.pong!();
    }
    expect(alive.pings).toBe(5);
    expect(alive.terminated).toBe(false);
    expect(silent.pings).toBe(2);
    expect(silent.terminated).toBe(true);
    await vi.runOnlyPendingTimersAsync();
    expect(closes).toEqual([1006]);
  });

  it('let REST handlers push to WebSocket clients through req.app.ws.broadcast', async () => {
    const conns: WsConnection[] = [];
    const api = mockApi({
      enableWs: true,
      wsHandlers: [{ pattern: '/feed', onConnect: (c) => { conns.push(c); }, onMessage() {} }],
      handlers: [
        { pattern: '/news', method: 'POST', handle: (req) => ({ delivered: req.app.ws.broadcast('/feed', { news: req.body }) }) },
        { pattern: '/typo', method: 'POST', handle: (req) => ({ delivered: req.app.ws.broadcast('/fed', 1) }) },
      ],
    });
    const a = await connect(api, '/api/feed');
    const b = await connect(api, '/api/feed');
    const res = await call(api, '/api/news', { method: 'POST', body: '{"title":"t"}', headers: { 'Content-Type': 'application/json' } });
    expect(await res.json()).toEqual({ delivered: 2 });
    expect(a.json()).toEqual([{ news: { title: 't' } }]);
    expect(b.json()).toEqual([{ news: { title: 't' } }]);
    expect(() => api.ws.broadcast('/nope', 1)).toThrow(/no WebSocket handler/);
    // conn.app reaches the same services from WebSocket handlers.
    expect(conns[0]!.app).toBe(api.app);
    expect((await call(api, '/api/typo', { method: 'POST' })).status).toBe(500);
  });

  it('close every connection with 1001 when the engine closes', async () => {
    const api = mockApi({ enableWs: true, wsHandlers: [{ pattern: '/ws', heartbeat: 50, onMessage() {} }] });
    const a = await connect(api, '/api/ws');
    await api.close();
    expect(a.closed?.[0]).toBe(1001);
  });
});
