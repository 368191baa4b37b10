/**
 * WebSocket mode with fake timers and a socket the test drives: auth before anything, ack
 * ownership, re-send after flushTimeout on a new connection, reconnect after a fixed 3 s,
 * close 1008 → stop.
 */
import { describe, expect, it, vi } from 'vitest';
import { ev, FakeSocket, harness, useFakeTimersPerTest } from './fakes.js';

const tick = () => vi.advanceTimersByTimeAsync(0);
const last = () => FakeSocket.all[FakeSocket.all.length - 1]!;

useFakeTimersPerTest();

/** A client in websocket mode, once its transport (loaded on demand) has opened the first socket. */
async function wsClient(options: Parameters<typeof harness>[0] = {}) {
  const h = harness({ storage: { mode: 'websocket', wsEndpoint: 'wss://collector.test/_tracker/ws' }, WebSocket: FakeSocket, flushTimeout: 5000, ...options });
  await vi.waitFor(() => expect(FakeSocket.all.length).toBeGreaterThan(0));
  return h;
}

describe('websocket mode', () => {
  it('with a key: sends auth first and nothing else until auth_ok', async () => {
    const h = await wsClient({ storage: { mode: 'websocket', wsEndpoint: 'wss://collector.test/_tracker/ws', apiKey: 'k1', batchSize: 2 } });
    expect(FakeSocket.all).toHaveLength(1);
    expect(last().url).toBe('wss://collector.test/_tracker/ws');
    h.client.track(ev(0));
    h.client.track(ev(1));
    expect(h.client.stats().state).toBe('offline');
    last().open();
    await tick();
    expect(last().sent).toEqual([{ type: 'auth', key: 'k1' }]);
    last().reply({ type: 'auth_ok' });
    await tick();
    expect(last().ingests()).toHaveLength(1);
    expect(last().ingests()[0]!.events.map((e) => e.i)).toEqual([0, 1]);
    expect(h.client.stats()).toMatchObject({ state: 'running', inFlight: 2 });
    last().reply({ type: 'ack', saved: 2 });
    await tick();
    expect(h.client.stats()).toMatchObject({ queued: 0, sent: 2 });
    expect(h.fetch.calls).toHaveLength(0);
  });

  it('without a key: no auth message, ready at open; pushes are ignored', async () => {
    const h = await wsClient();
    last().open();
    h.client.track(ev(0));
    void h.client.flush();
    await tick();
    last().reply({ type: 'push', events: [{ id: 'x' }] });
    await tick();
    expect(h.client.stats().queued).toBe(1);
    expect(last().sent).toEqual([expect.objectContaining({ type: 'ingest' })]);
    last().reply({ type: 'ack', saved: 1 });
    await tick();
    expect(h.client.stats().queued).toBe(0);
  });

  it('no ack within flushTimeout: drops the connection, reconnects after exactly 3 s, re-sends the same batchId', async () => {
    const h = await wsClient();
    last().open();
    h.client.track(ev(0));
    void h.client.flush();
    await tick();
    const first = last();
    const id = first.ingests()[0]!.batchId;
    await vi.advanceTimersByTimeAsync(4999);
    expect(first.closedWith).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(first.closedWith?.code).toBe(4000);
    expect(h.client.stats()).toMatchObject({ state: 'offline', queued: 1, retries: 1 });
    // A late ack on the dropped connection is not taken for anything.
    first.reply({ type: 'ack', saved: 1 });
    await vi.advanceTimersByTimeAsync(2999);
    expect(FakeSocket.all).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(FakeSocket.all).toHaveLength(2);
    last().open();
    await tick();
    expect(last().ingests().map((m) => m.batchId)).toEqual([id]);
    last().reply({ type: 'ack', saved: 0 });
    await tick();
    expect(h.client.stats()).toMatchObject({ queued: 0, sent: 1, state: 'running' });
  });

  it('a dropped connection: the unacknowledged batch goes again on the next one (3 s later), in order', async () => {
    const h = await wsClient({ storage: { mode: 'websocket', wsEndpoint: 'wss://c/_tracker/ws', batchSize: 2 } });
    last().open();
    for (let i = 0; i < 4; i++) h.client.track(ev(i));
    await tick();
    const id = last().ingests()[0]!.batchId;
    last().serverClose(1006);
    await tick();
    expect(h.client.stats().state).toBe('offline');
    await vi.advanceTimersByTimeAsync(3000);
    last().open();
    await tick();
    expect(last().ingests()[0]!.batchId).toBe(id);
    last().reply({ type: 'ack', saved: 2 });
    await tick();
    last().reply({ type: 'ack', saved: 2 });
    await tick();
    expect(h.client.stats()).toMatchObject({ queued: 0, sent: 4 });
    expect(FakeSocket.all[1]!.ingests().flatMap((m) => m.events.map((e) => e.i))).toEqual([0, 1, 2, 3]);
  });

  it('a connection that cannot open is retried every 3 s', async () => {
    await wsClient();
    for (let n = 1; n <= 3; n++) {
      last().serverClose(1006);
      await vi.advanceTimersByTimeAsync(2999);
      expect(FakeSocket.all).toHaveLength(n);
      await vi.advanceTimersByTimeAsync(1);
      expect(FakeSocket.all).toHaveLength(n + 1);
    }
  });

  it('close 1008 stops (no reconnect), keeps the queue, warns once; resume() reconnects', async () => {
    const h = await wsClient({ storage: { mode: 'websocket', wsEndpoint: 'wss://c/_tracker/ws', apiKey: 'bad' } });
    h.client.track(ev(0));
    last().open();
    last().serverClose(1008, 'Invalid key');
    await vi.advanceTimersByTimeAsync(60_000);
    expect(FakeSocket.all).toHaveLength(1);
    expect(h.client.stats()).toMatchObject({ state: 'stopped', queued: 1 });
    expect(h.warnings.filter((w) => w.includes('1008') && w.includes('Invalid key'))).toHaveLength(1);
    h.client.setApiKey('good');
    expect(FakeSocket.all).toHaveLength(2);
    last().open();
    expect(last().sent[0]).toEqual({ type: 'auth', key: 'good' });
  });

  it("an error answering an ingest isolates the bad event; 'Could not store the events' is retried", async () => {
    const h = await wsClient({ storage: { mode: 'websocket', wsEndpoint: 'wss://c/_tracker/ws', batchSize: 3 } });
    last().open();
    for (let i = 0; i < 3; i++) h.client.track(ev(i));
    await tick();
    last().reply({ type: 'error', message: 'Invalid event at index 1: timestamp is not ISO-8601' });
    await tick();
    expect(last().ingests()[1]!.events.map((e) => e.i)).toEqual([0]);
    last().reply({ type: 'ack', saved: 1 });
    await tick();
    expect(last().ingests()[2]!.events.map((e) => e.i)).toEqual([1]);
    last().reply({ type: 'error', message: 'Invalid event at index 0: timestamp is not ISO-8601' });
    await tick();
    expect(last().ingests()[3]!.events.map((e) => e.i)).toEqual([2]);
    last().reply({ type: 'error', message: 'Could not store the events' });
    await tick();
    expect(h.client.stats()).toMatchObject({ queued: 1, sent: 1, droppedBy: { rejected: 1 } });
    void h.client.flush();
    await tick();
    expect(last().ingests()[4]!.batchId).toBe(last().ingests()[3]!.batchId);
  });

  it('an ack naming a batchId settles that batch', async () => {
    const h = await wsClient();
    last().open();
    h.client.track(ev(0));
    void h.client.flush();
    await tick();
    last().reply({ type: 'ack', saved: 1, batchId: 'someone-else' });
    await tick();
    expect(h.client.stats().queued).toBe(1);
    last().reply({ type: 'ack', saved: 1, batchId: last().ingests()[0]!.batchId });
    await tick();
    expect(h.client.stats().queued).toBe(0);
  });
});
