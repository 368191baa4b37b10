/**
 * The collector's parts loaded on demand (their own chunks in browser bundles): the WebSocket
 * protocol (ws-session.ts) on the first handshake, the gzip read encoder (read-encoder.ts) only
 * when reads are gzipped, the gunzip of ingest bodies on the first gzip body. The module loads
 * are held back here (vi.mock with a gate) to pin down what happens while they are in flight.
 * (That readCompression 'none' never imports the encoder needs a module graph where nothing has
 * imported it yet: its own file, lazy-read-encoder.test.ts.)
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FakePeer } from '../helpers/fake-socket-peer.js';
import type { Collector } from '../../src/tracker/types.js';
import { BASE, batch, ev, ingest, read, collectorPerTest } from './collector-client.js';

const gates = vi.hoisted(() => {
  let open!: () => void;
  const sessionGate = new Promise<void>((r) => (open = r));
  return { sessionGate, openSession: () => open(), loaded: new Set<string>() };
});
vi.mock('../../src/tracker/ws-session.js', async (importOriginal) => {
  await gates.sessionGate;
  gates.loaded.add('ws-session');
  return importOriginal();
});
vi.mock('../../src/tracker/read-encoder.js', async (importOriginal) => {
  gates.loaded.add('read-encoder');
  return importOriginal();
});

let c: Collector;
const make = collectorPerTest((created) => (c = created));
const T = '2026-03-01T10:00:00Z';
afterEach(() => vi.restoreAllMocks());

describe('collector parts loaded on demand', () => {
  it('a socket accepted while the protocol code loads still gets the pushes of batches stored meanwhile', async () => {
    make();
    const pending = c.upgrade!(new Request(`${BASE}/_tracker/ws`));
    expect(pending).toBeInstanceOf(Promise);
    expect(gates.loaded.has('ws-session')).toBe(false);
    // A batch stored over HTTP while ws-session.ts is still loading (the page already shows the socket open).
    expect((await ingest(c, batch([ev(T, { n: 1 })]))).status).toBe(200);
    gates.openSession();
    const accept = await pending;
    expect(typeof accept).toBe('function');
    const peer = new FakePeer();
    peer.session = (accept as (p: FakePeer) => FakePeer['session'])(peer);
    expect(peer.messages).toMatchObject([{ type: 'push', events: [{ n: 1 }] }]);
    // Loaded now: later handshakes are accepted synchronously, and pushes flow as usual.
    const next = c.upgrade!(new Request(`${BASE}/_tracker/ws`));
    expect(typeof next).toBe('function');
    expect((await ingest(c, batch([ev(T, { n: 2 })]))).status).toBe(200);
    expect(peer.messages.map((m) => m.events[0].n)).toEqual([1, 2]);
  });

  it('gzip reads (the default) import it before the collector is ready', async () => {
    make();
    await c.ready;
    expect(gates.loaded.has('read-encoder')).toBe(true);
    expect((await ingest(c, batch([ev(T, { n: 1 })]))).status).toBe(200);
    const r = await read(c, { since: '2026-03-01T00:00:00Z', until: '2026-03-02T00:00:00Z' }, { 'accept-encoding': 'gzip' });
    expect(r.headers.get('content-encoding')).toBe('gzip');
  });
});
