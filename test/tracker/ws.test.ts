import { describe, expect, it } from 'vitest';
import type { Collector } from '../../src/tracker/types.js';
import { createLogger } from '../../src/core/logger.js';
import { TrackerSocket } from '../../src/tracker/ws-session.js';
import { connect, FakePeer } from '../helpers/fake-socket-peer.js';
import { BASE, batch, ev, ingest, collectorPerTest } from './collector-client.js';

let c: Collector;
const make = collectorPerTest((created) => (c = created));
const WS = `${BASE}/_tracker/ws`;
const T = '2026-03-01T10:00:00Z';
const QUERY = { since: '2026-03-01T00:00:00Z', until: '2026-03-01T23:59:59Z' };

describe('WebSocket protocol', () => {
  it('auth → auth_ok; then ingest → ack with ids assigned; events:query → events:response', async () => {
    make({ apiKey: 'k' });
    const a = await connect(c, WS);
    a.say({ type: 'auth', key: 'k' });
    expect(await a.waitFor(1)).toEqual([{ type: 'auth_ok' }]);
    a.say({ type: 'ingest', events: [ev(T, { n: 1 }), ev('2026-03-01T11:00:00Z', { n: 2 })] });
    expect((await a.waitFor(2))[1]).toEqual({ type: 'ack', saved: 2 });
    a.say({ type: 'events:query', reqId: 'r-1', query: QUERY });
    const res = (await a.waitFor(3))[2];
    expect(res).toMatchObject({ type: 'events:response', reqId: 'r-1', response: { total: 2, page: 1, limit: 2 } });
    expect(res.response.events.map((e: any) => e.n)).toEqual([2, 1]);
    for (const e of res.response.events) expect(e.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('a wrong key → close 1008', async () => {
    make({ apiKey: 'k' });
    const a = await connect(c, WS);
    a.say({ type: 'auth', key: 'x' });
    expect((await a.waitClosed()).code).toBe(1008);
    expect(a.sent).toEqual([]);
  });

  it('any other first message → close 1008, nothing stored', async () => {
    make({ apiKey: 'k' });
    const a = await connect(c, WS);
    a.say({ type: 'ingest', events: [ev(T)] });
    expect((await a.waitClosed()).code).toBe(1008);
    const b = await connect(c, WS);
    b.say('not json');
    expect((await b.waitClosed()).code).toBe(1008);
    expect(c.size).toBe(0);
  });

  it('no auth within wsAuthTimeoutMs → close 1008', async () => {
    make({ apiKey: 'k', limits: { wsAuthTimeoutMs: 20 } });
    const a = await connect(c, WS);
    expect((await a.waitClosed()).code).toBe(1008);
  });

  it('without apiKey the connection is ready at once (and an auth message still gets auth_ok)', async () => {
    make();
    const a = await connect(c, WS);
    a.say({ type: 'ingest', events: [ev(T)] });
    expect(await a.waitFor(1)).toEqual([{ type: 'ack', saved: 1 }]);
    a.say({ type: 'auth', key: 'whatever' });
    expect((await a.waitFor(2))[1]).toEqual({ type: 'auth_ok' });
  });

  it('invalid ingest and malformed messages → error message, connection stays open', async () => {
    make();
    const a = await connect(c, WS);
    a.say({ type: 'ingest', events: [ev(T), { timestamp: 'nope' }] });
    a.say('{oops');
    a.say({ type: 'dance' });
    a.say({ type: 'events:query', query: QUERY });
    a.say({ type: 'events:query', reqId: 'q', query: { since: 'x', until: 'y' } });
    a.say({ type: 'ingest', events: [ev(T)] });
    const m = await a.waitFor(6);
    expect(m[0]).toMatchObject({ type: 'error', message: expect.stringMatching(/index 1/) });
    expect(m[1]).toMatchObject({ type: 'error', message: expect.stringMatching(/Malformed/) });
    expect(m[2]).toMatchObject({ type: 'error', message: expect.stringMatching(/Unknown message type/) });
    expect(m[3]).toMatchObject({ type: 'error', message: expect.stringMatching(/reqId/) });
    expect(m[4]).toMatchObject({ type: 'error', reqId: 'q', message: expect.stringMatching(/since/) });
    expect(m[5]).toEqual({ type: 'ack', saved: 1 });
    expect(a.closed).toBeUndefined();
    expect(c.size).toBe(1);
  });

  it('messages over maxWsMessageBytes → close 1009', async () => {
    make({ limits: { maxWsMessageBytes: 200 } });
    const a = await connect(c, WS);
    a.say({ type: 'ingest', events: [ev(T, { pad: 'x'.repeat(300) })] });
    expect((await a.waitClosed()).code).toBe(1009);
    const b = await connect(c, WS);
    b.say({ type: 'ingest', events: [ev(T, { pad: 'é'.repeat(60) })] }); // 120 UTF-8 bytes of padding + envelope > 200
    expect((await b.waitClosed()).code).toBe(1009);
    expect(c.size).toBe(0);
  });

  it('push: a WS batch goes to every OTHER authenticated client; an HTTP batch to all', async () => {
    make({ apiKey: 'k' });
    const a = await connect(c, WS);
    const b = await connect(c, WS);
    const stranger = await connect(c, WS); // never authenticates
    a.say({ type: 'auth', key: 'k' });
    b.say({ type: 'auth', key: 'k' });
    await a.waitFor(1);
    await b.waitFor(1);
    a.say({ type: 'ingest', events: [ev(T, { n: 'from-a' })] });
    expect((await a.waitFor(2))[1]).toEqual({ type: 'ack', saved: 1 });
    const pushed = (await b.waitFor(2))[1];
    expect(pushed.type).toBe('push');
    expect(pushed.events).toHaveLength(1);
    expect(pushed.events[0]).toMatchObject({ n: 'from-a', timestamp: T });
    expect(pushed.events[0].id).toMatch(/^[0-9a-f-]{36}$/);
    expect(a.sent).toHaveLength(2); // no push to the sender

    const r = await ingest(c, batch([ev(T, { n: 'http' })]), { headers: { 'x-tracker-key': 'k' } });
    expect(r.status).toBe(200);
    expect((await a.waitFor(3))[2]).toMatchObject({ type: 'push', events: [{ n: 'http' }] });
    expect((await b.waitFor(3))[2]).toMatchObject({ type: 'push', events: [{ n: 'http' }] });
    expect(stranger.sent).toEqual([]);
  });

  it('a client that stops reading is closed (1013) instead of buffering without bound', async () => {
    make();
    const a = await connect(c, WS);
    const slow = await connect(c, WS);
    slow.bufferedAmount = 64 * 1024 * 1024;
    a.say({ type: 'ingest', events: [ev(T)] });
    expect((await slow.waitClosed()).code).toBe(1013);
  });

  it('close() shuts sockets with 1001', async () => {
    make();
    const a = await connect(c, WS);
    await c.close();
    expect(a.closed?.code).toBe(1001);
  });

  it('acks come back in message order', async () => {
    make();
    const a = await connect(c, WS);
    for (let i = 1; i <= 5; i++) a.say({ type: 'ingest', events: Array.from({ length: i }, () => ev(T)) });
    const m = await a.waitFor(5);
    expect(m.map((x) => x.saved)).toEqual([1, 2, 3, 4, 5]);
  });
});

describe('WebSocket input backpressure (a client flooding ingests faster than storage takes them)', () => {
  class PausablePeer extends FakePeer {
    pauses = 0;
    resumes = 0;
    pause(): void {
      this.pauses++;
    }
    resume(): void {
      this.resumes++;
    }
  }
  function session(peer: FakePeer, maxMessageBytes: number) {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const s = new TrackerSocket(peer, {
      requiresAuth: false,
      checkKey: () => true,
      maxMessageBytes,
      authTimeoutMs: 1000,
      logger: createLogger('silent'),
      ingest: async () => {
        await gate;
        return 1;
      },
      select: async () => '{}',
      sockets: new Set(),
    });
    peer.session = s;
    return { release };
  }
  const big = (chars: number) => `{"type":"ingest","events":[],"pad":"${'x'.repeat(chars)}"}`;

  it('asks the host to stop reading past 4 MiB queued and to read again once drained', async () => {
    const peer = new PausablePeer();
    const { release } = session(peer, 2 * 1024 * 1024);
    peer.say(big(1_500_000));
    peer.say(big(1_500_000));
    expect(peer.pauses).toBe(0);
    peer.say(big(1_500_000));
    expect(peer.pauses).toBe(1);
    release();
    expect(await peer.waitFor(3)).toEqual([{ type: 'ack', saved: 1 }, { type: 'ack', saved: 1 }, { type: 'ack', saved: 1 }]);
    expect(peer.resumes).toBe(1);
    expect(peer.closed).toBeUndefined();
  });

  it('closes with 1013 past 64 MiB queued where the host cannot pause (browser)', async () => {
    const peer = new FakePeer();
    session(peer, 20 * 1024 * 1024);
    for (let i = 0; i < 4 && !peer.closed; i++) peer.say(big(17_000_000));
    expect(peer.closed?.code).toBe(1013);
  });
});
