/**
 * The tracker client's delivery by state (client/delivery-state.ts): for each state, each event
 * it accepts is driven through a real client against a real collector on 127.0.0.1 (HTTP and
 * WebSocket, a collector stopped and started again on the same port, a key it refuses) and lands
 * where the table says; what a state refuses throws.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket as WsSocket } from 'ws';
import { createTrackerClient, type TrackerClient, type TrackerClientOptions } from '../../../src/tracker/client.js';
import { DELIVERY_MOVES, deliveryMove, type DeliveryEvent } from '../../../src/tracker/client/delivery-state.js';
import type { TrackerState, WebSocketFactory } from '../../../src/tracker/client/types.js';
import { serve, type RunningServer } from '../../../src/node/serve.js';
import { memoryFs } from '../../../src/vfs/memory.js';
import type { Vfs } from '../../../src/vfs/types.js';

const KEY = 'the-key';
const servers = new Set<RunningServer>();
const clients: TrackerClient[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) c.stop();
  await Promise.all([...servers].map((s) => s.close()));
  servers.clear();
});

/** A collector on 127.0.0.1 (on `port` when given: started again where a stopped one was). */
async function collector(fs: Vfs, port = 0): Promise<RunningServer> {
  const s = await serve({ port, host: '127.0.0.1', logLevel: 'silent', tracker: { appId: 'states', apiKey: KEY, logLevel: 'silent', storage: { fs } } });
  servers.add(s);
  return s;
}
async function stopCollector(s: RunningServer): Promise<void> {
  servers.delete(s);
  await s.close();
}
async function stored(s: RunningServer): Promise<number> {
  const res = await fetch(`${s.url}/_tracker?since=2000-01-01T00:00:00.000Z&until=2100-01-01T00:00:00.000Z`, { headers: { 'X-Tracker-Key': KEY } });
  return ((await res.json()) as { total: number }).total;
}

async function until(what: () => boolean | Promise<boolean>, ms = 8000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await what()) && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
  expect(await what()).toBe(true);
}

function client(options: TrackerClientOptions): TrackerClient {
  const c = createTrackerClient({ flushInterval: 0, flushTimeout: 2000, compress: false, beaconOnPageHide: false, persist: false, logger: { info() {}, warn() {}, error() {} }, ...options });
  clients.push(c);
  return c;
}
const http = (s: RunningServer, key = KEY, extra: TrackerClientOptions = {}) => client({ storage: { writeEndpoint: `${s.url}/_tracker/events`, apiKey: key }, ...extra });
const ws = (s: RunningServer, key = KEY) =>
  client({ storage: { mode: 'websocket', wsEndpoint: `ws://127.0.0.1:${s.port}/_tracker/ws`, apiKey: key }, WebSocket: WsSocket as unknown as WebSocketFactory });
const track = (c: TrackerClient, n = 1) => {
  for (let i = 0; i < n; i++) c.track({ type: 'click', level: 'info' });
};
const state = (c: TrackerClient) => c.stats().state;

/** A client in backoff: its collector was stopped (the port is kept for `back()`). */
async function inBackoff(extra: TrackerClientOptions = {}) {
  const fs = memoryFs();
  const s = await collector(fs);
  const c = http(s, KEY, { backoff: { base: 60_000, max: 60_000 }, ...extra });
  await stopCollector(s);
  track(c);
  expect(await c.flush()).toBe(false);
  expect(state(c)).toBe('backoff');
  return { c, back: () => collector(fs, s.port) };
}

/** A client whose key the collector refused. */
async function inStopped(mode: 'http' | 'ws') {
  const s = await collector(memoryFs());
  const c = mode === 'http' ? http(s, 'wrong') : ws(s, 'wrong');
  track(c);
  if (mode === 'http') await c.flush();
  await until(() => state(c) === 'stopped');
  return { c, s };
}

/** A WebSocket client whose collector is down (`back()` starts it on the same port). */
async function inOffline() {
  const fs = memoryFs();
  const s = await collector(fs);
  await stopCollector(s);
  const c = ws(s);
  track(c);
  expect(state(c)).toBe('offline');
  return { c, back: () => collector(fs, s.port) };
}

/** Every (state, event) pair the table accepts, tried through the real client. */
const CASES: Record<TrackerState, Partial<Record<DeliveryEvent, () => Promise<void>>>> = {
  running: {
    async sendFailed() {
      const { c } = await inBackoff(); // running → a refused connection → backoff
      expect(c.stats().retries).toBe(1);
    },
    async flush() {
      const s = await collector(memoryFs());
      const c = http(s);
      track(c, 3);
      expect(await c.flush()).toBe(true);
      expect(state(c)).toBe('running');
      expect(await stored(s)).toBe(3);
    },
    async refused() {
      const { c } = await inStopped('http');
      expect(c.stats().queued).toBe(1); // kept
    },
    async connected() {
      // No way through the client reaches this pair today: a running WebSocket client is
      // connected, and a new connection comes only after `disconnected` (offline + connected,
      // below). The table accepts it so that a late report of the transport never throws.
      expect(deliveryMove('running', 'connected', true)).toBe('running');
      // What the client does show: once connected it stays running while it sends.
      const s = await collector(memoryFs());
      const c = ws(s);
      await until(() => state(c) === 'running');
      track(c, 2);
      expect(await c.flush()).toBe(true);
      expect(state(c)).toBe('running');
      expect(await stored(s)).toBe(2);
    },
    async disconnected() {
      const s = await collector(memoryFs());
      const c = ws(s);
      await until(() => state(c) === 'running');
      await stopCollector(s);
      await until(() => state(c) === 'offline');
    },
    async resume() {
      const s = await collector(memoryFs());
      const c = http(s);
      c.resume();
      expect(state(c)).toBe('running');
    },
    async stop() {
      const s = await collector(memoryFs());
      const c = http(s);
      c.stop();
      track(c);
      expect(await c.flush()).toBe(false);
      expect(state(c)).toBe('closed');
      expect(await stored(s)).toBe(0);
    },
  },
  backoff: {
    async backoffOver() {
      const { c, back } = await inBackoff({ backoff: { base: 400, max: 400 } });
      const s = await back();
      await until(() => c.stats().sent === 1); // the timer ended the backoff, no flush asked
      expect(state(c)).toBe('running');
      expect(await stored(s)).toBe(1);
    },
    async flush() {
      const { c, back } = await inBackoff();
      const s = await back();
      expect(await c.flush()).toBe(true); // at once, not after the 60 s backoff
      expect(state(c)).toBe('running');
      expect(await stored(s)).toBe(1);
    },
    async resume() {
      const { c } = await inBackoff();
      c.resume();
      expect(state(c)).toBe('backoff');
    },
    async stop() {
      const { c, back } = await inBackoff();
      c.stop();
      const s = await back();
      expect(await c.flush()).toBe(false);
      expect(state(c)).toBe('closed');
      expect(await stored(s)).toBe(0);
    },
  },
  offline: {
    async flush() {
      const { c } = await inOffline();
      expect(await c.flush()).toBe(false);
      expect(state(c)).toBe('offline');
    },
    async refused() {
      await inStopped('ws'); // offline (connecting) → close 1008 → stopped
    },
    async connected() {
      const { c, back } = await inOffline();
      const s = await back(); // the transport reconnects (fixed 3 s)
      await until(() => state(c) === 'running');
      await until(async () => (await stored(s)) === 1);
    },
    async disconnected() {
      const { c } = await inOffline();
      await new Promise((r) => setTimeout(r, 50)); // its first connection fails
      expect(c.stats().lastError).toMatch(/WebSocket|connect|ECONNREFUSED/);
      expect(state(c)).toBe('offline');
    },
    async resume() {
      const { c } = await inOffline();
      c.resume();
      expect(state(c)).toBe('offline');
    },
    async stop() {
      const { c, back } = await inOffline();
      c.stop();
      const s = await back();
      await new Promise((r) => setTimeout(r, 100));
      expect(state(c)).toBe('closed');
      expect(await stored(s)).toBe(0);
    },
  },
  stopped: {
    async flush() {
      const { c, s } = await inStopped('http');
      expect(await c.flush()).toBe(false);
      expect(state(c)).toBe('stopped');
      expect(await stored(s)).toBe(0);
    },
    async refused() {
      const { c } = await inStopped('http');
      c.resume(); // the same wrong key: refused again
      await c.flush();
      expect(state(c)).toBe('stopped');
    },
    async resume() {
      const h = await inStopped('http');
      h.c.setApiKey(KEY); // ready transport → running
      expect(state(h.c)).toBe('running');
      expect(await h.c.flush()).toBe(true);
      expect(await stored(h.s)).toBe(1);
      const w = await inStopped('ws');
      w.c.setApiKey(KEY); // no connection yet → offline, then its reconnect → running
      expect(state(w.c)).toBe('offline');
      await until(() => state(w.c) === 'running');
      await until(async () => (await stored(w.s)) === 1);
    },
    async stop() {
      const { c } = await inStopped('http');
      c.stop();
      expect(state(c)).toBe('closed');
    },
  },
  closed: {},
};
const EVENTS: DeliveryEvent[] = ['sendFailed', 'backoffOver', 'flush', 'refused', 'connected', 'disconnected', 'resume', 'stop'];

describe.each(Object.keys(DELIVERY_MOVES) as TrackerState[])('tracker client delivery in %s', (from) => {
  if (from === 'closed') {
    it('every event → closed: answers arriving after stop(), flush, resume, a new key change nothing', async () => {
      for (const e of EVENTS) expect(deliveryMove('closed', e, true)).toBe('closed');
      const s = await collector(memoryFs());
      for (const key of ['wrong', KEY]) {
        const c = http(s, key); // refused (401) / acknowledged, answered after stop()
        track(c);
        const out = c.flush();
        c.stop();
        await out;
        expect(state(c)).toBe('closed');
        c.resume();
        c.setApiKey(KEY);
        track(c);
        expect(await c.flush()).toBe(false);
        expect(state(c)).toBe('closed');
      }
      const { c } = await inBackoff(); // a send failed after stop(): no backoff timer
      const out = c.flush();
      c.stop();
      await out;
      expect(state(c)).toBe('closed');
    });
    return;
  }
  for (const event of EVENTS.filter((e) => DELIVERY_MOVES[from][e] !== undefined)) {
    const to = DELIVERY_MOVES[from][event]!;
    it(`${event} → ${typeof to === 'string' ? to : `${to.ready} (transport ready) | ${to.notReady}`}`, async () => {
      const run = CASES[from][event];
      expect(run, `no case for ${from} + ${event}`).toBeDefined();
      await run!();
    }, 15_000);
  }
  const refused = EVENTS.filter((e) => DELIVERY_MOVES[from][e] === undefined);
  if (refused.length) {
    it(`refuses ${refused.join(', ')}`, () => {
      for (const e of refused) expect(() => deliveryMove(from, e, true)).toThrow(`'${e}' is refused in state '${from}'`);
    });
  }
});

describe('tracker client delivery: the unload beacon by state', () => {
  const beaconVia = (sent: string[]) => (url: string, data: Blob) => {
    sent.push(url);
    void data.arrayBuffer().then((b) => fetch(url, { method: 'POST', body: b, headers: { 'content-type': 'application/json' } }));
    return true;
  };
  it('running, backoff and offline hand the queue to sendBeacon; stopped and closed do not', async () => {
    const sent: string[] = [];
    const { c, back } = await inBackoff({ sendBeacon: beaconVia(sent) });
    const s = await back();
    expect(c.flushBeacon()).toBe(true); // in backoff: beaconed (with ?key=, beacons carry no headers)
    await until(async () => (await stored(s)) === 1);
    const stoppedClient = (await inStopped('http')).c;
    expect(stoppedClient.flushBeacon()).toBe(false); // the key was refused: kept, not beaconed
    c.stop();
    track(c);
    expect(c.flushBeacon()).toBe(false);
    expect(sent).toHaveLength(1);
  });
});
