/**
 * Unload and the next page: beacons within the 64 KiB budget, the persisted copy (bounded,
 * expiring, opt-out), its re-send with the original batchIds, and the contract's option names.
 */
import { describe, expect, it, vi } from 'vitest';
import { createTrackerClient } from '../../../src/tracker/client.js';
import { ev, fakeStorage, harness, seq, useFakeTimersPerTest } from './fakes.js';

const tick = () => vi.advanceTimersByTimeAsync(0);

useFakeTimersPerTest();

describe('unload', () => {
  it('300 rich events: beacons up to the 64 KiB budget, one batch each, in order; everything persisted', async () => {
    const h = harness({ persist: true, flushInterval: 0 });
    // stopped by nothing: no automatic sends because the fetch never answers; take it out of the picture
    for (let i = 0; i < 300; i++) h.client.track(ev(i, 420));
    await tick();
    const inFetch = h.fetch.calls.length; // the first batch left by fetch (keepalive)
    expect(inFetch).toBe(1);
    expect(h.client.flushBeacon()).toBe(false); // the budget ran out before the end
    await tick();
    expect(h.beacon.used).toBeLessThanOrEqual(64 * 1024 - Number(h.fetch.calls[0]!.init.keepalive ? new TextEncoder().encode(String(h.fetch.calls[0]!.init.body)).byteLength : 0));
    const beaconed = h.beacon.beacons.flatMap((b) => b.body.events.map((e) => e.i as number));
    expect(beaconed).toEqual(Array.from({ length: beaconed.length }, (_, k) => 25 + k));
    expect(beaconed.length).toBeGreaterThanOrEqual(100);
    const stored = JSON.parse(h.storage.getItem(h.storage.key(0)!)!) as { batches: Array<{ e: Array<{ i: number }> }> };
    expect(stored.batches.flatMap((b) => b.e.map((e) => e.i))).toEqual(Array.from({ length: 300 }, (_, k) => k));
    // A second hide event (pagehide after visibilitychange) sends no batch twice.
    h.client.flushBeacon();
    await tick();
    const ids = h.beacon.beacons.map((b) => b.body.batchId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('the next client re-sends the persisted batches first, with their batchIds, then removes them', async () => {
    const storage = fakeStorage();
    const a = harness({ batchSize: 2 }, storage);
    for (let i = 0; i < 5; i++) a.client.track(ev(i));
    await tick();
    a.client.flushBeacon();
    a.client.stop();
    const ids = [a.fetch.calls[0]!.body.batchId, ...a.beacon.beacons.map((b) => b.body?.batchId)];
    await tick();
    const b = harness({ batchSize: 2 }, storage);
    b.client.track(ev(5));
    await tick();
    for (let n = 0; n < 5; n++) {
      b.fetch.answerAll();
      await tick();
    }
    expect(seq(b.fetch.calls)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(b.fetch.calls.slice(0, 3).map((c) => c.body.batchId)).toEqual([ids[0], a.beacon.beacons[0]!.body.batchId, a.beacon.beacons[1]!.body.batchId]);
    expect(storage.length).toBe(0);
    expect(b.client.stats()).toMatchObject({ sent: 6, queued: 0 });
  });

  it('persist: false writes nothing; maxAgeMs expires old batches (counted); maxBytes keeps the newest', async () => {
    const off = harness({ persist: false });
    off.client.track(ev(0));
    off.client.flushBeacon();
    expect(off.storage.length).toBe(0);

    const storage = fakeStorage();
    const a = harness({ persist: { maxAgeMs: 60_000 }, fetch: () => new Promise(() => {}) }, storage);
    a.client.track(ev(0));
    a.client.flushBeacon();
    a.client.stop();
    vi.advanceTimersByTime(60_001);
    const b = harness({ persist: { maxAgeMs: 60_000 } }, storage);
    expect(b.client.stats()).toMatchObject({ queued: 0, droppedBy: { expired: 1 } });
    expect(b.warnings.some((w) => w.includes('maxAgeMs'))).toBe(true);

    const small = harness({ persist: { maxBytes: 1000 }, batchSize: 1, fetch: () => new Promise(() => {}) });
    for (let i = 0; i < 10; i++) small.client.track(ev(i, 200));
    small.client.flushBeacon();
    const kept = JSON.parse(small.storage.getItem(small.storage.key(0)!)!) as { batches: Array<{ e: Array<{ i: number }> }> };
    expect(kept.batches.flatMap((x) => x.e.map((e) => e.i))).toEqual([7, 8, 9]); // ~260 bytes each
  });

  it('a storage that throws (quota, disabled) is warned about once and tracking goes on', async () => {
    const broken = { ...fakeStorage(), length: 0, key: () => null, getItem: () => null, removeItem() {}, setItem() { throw new DOMException('quota', 'QuotaExceededError'); } };
    const h = harness({}, broken as unknown as Storage);
    h.client.track(ev(0));
    h.client.flushBeacon();
    h.client.flushBeacon();
    expect(h.warnings.filter((w) => w.includes('localStorage'))).toHaveLength(1);
    expect(h.client.pending).toBe(1);
  });

  it('a refused beacon (the browser budget is spent) ends the loop; a later hide tries again', async () => {
    let allow = false;
    const h = harness({ batchSize: 1, sendBeacon: () => allow, fetch: () => new Promise(() => {}) });
    h.client.track(ev(0));
    h.client.track(ev(1));
    expect(h.client.flushBeacon()).toBe(false);
    allow = true;
    expect(h.client.flushBeacon()).toBe(true);
  });
});

describe('the contract option names', () => {
  it('storage.writeEndpoint / apiKey / batchSize drive the sends; the beacon carries ?key=', async () => {
    const h = harness({ endpoint: undefined, storage: { mode: 'http', writeEndpoint: 'https://c.test/ingest', readEndpoint: 'https://c.test/read', pingEndpoint: 'https://c.test/ping', apiKey: 'k&1', batchSize: 3 } });
    for (let i = 0; i < 3; i++) h.client.track(ev(i));
    await tick();
    expect(h.fetch.calls[0]!.url).toBe('https://c.test/ingest');
    expect(h.fetch.calls[0]!.init.headers).toMatchObject({ 'X-Tracker-Key': 'k&1', 'Content-Type': 'application/json' });
    expect(h.fetch.calls[0]!.body.events).toHaveLength(3);
    h.client.track(ev(3));
    h.client.flushBeacon();
    expect(h.beacon.beacons[0]!.url).toBe('https://c.test/ingest?key=k%261');
  });

  it("middleware mode uses /_tracker/events; defaults: batchSize 25", async () => {
    const h = harness({ endpoint: undefined, storage: { mode: 'middleware' } });
    for (let i = 0; i < 25; i++) h.client.track(ev(i));
    await tick();
    expect(h.fetch.calls[0]!.url).toBe('/_tracker/events');
    expect(h.fetch.calls[0]!.body.events).toHaveLength(25);
  });

  it('ping(): GET pingEndpoint with the key, true on 2xx; always true without a pingEndpoint', async () => {
    const seen: Array<[string, RequestInit | undefined]> = [];
    const client = createTrackerClient({ persist: false, beaconOnPageHide: false, flushInterval: 0, storage: { pingEndpoint: '/p', apiKey: 'k' }, fetch: async (url, init) => (seen.push([String(url), init]), new Response(null, { status: 503 })) });
    expect(await client.ping()).toBe(false);
    expect(seen[0]).toEqual(['/p', { headers: { 'X-Tracker-Key': 'k' } }]);
    const none = createTrackerClient({ persist: false, beaconOnPageHide: false, flushInterval: 0, fetch: async () => { throw new Error('no request expected'); } });
    expect(await none.ping()).toBe(true);
    client.stop();
    none.stop();
  });

  it('mistakes throw an OptionsError naming the option', () => {
    expect(() => createTrackerClient({ endpoint: '/a', storage: { writeEndpoint: '/b' } })).toThrow(/"storage.writeEndpoint" disagrees with "endpoint"/);
    expect(() => createTrackerClient({ storage: { mode: 'websocket' } })).toThrow(/"storage.wsEndpoint" is required/);
    expect(() => createTrackerClient({ storage: { mode: 'grpc' as 'http' } })).toThrow(/"storage.mode" must be one of/);
    expect(() => createTrackerClient({ batchSize: 0 })).toThrow(/"batchSize" must be an integer >= 1/);
    expect(() => createTrackerClient({ storage: { batchsize: 3 } as never })).toThrow(/"storage.batchsize" is not a known option/);
    expect(() => createTrackerClient({ maxEventBytes: 100_000 })).toThrow(/"maxEventBytes"/);
  });
});
