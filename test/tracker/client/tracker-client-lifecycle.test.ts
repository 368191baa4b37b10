// @vitest-environment happy-dom
/** The tracker client's page-lifecycle wiring: beacons on pagehide and when the page is hidden. */
import { afterEach, describe, expect, it } from 'vitest';
import { createTrackerClient, type TrackerClient } from '../../../src/tracker/client.js';

let client: TrackerClient | undefined;
afterEach(() => {
  client?.stop();
  localStorage.clear();
});

function setup() {
  const beacons: Array<{ url: string; blob: Blob }> = [];
  client = createTrackerClient({ flushInterval: 0, apiKey: 'k', persist: false, sendBeacon: (url, blob) => (beacons.push({ url, blob }), true) });
  return beacons;
}

describe('tracker client lifecycle', () => {
  it('beacons the queue on pagehide', async () => {
    const beacons = setup();
    client!.track({ type: 'a' });
    window.dispatchEvent(new Event('pagehide'));
    expect(beacons).toHaveLength(1);
    expect(beacons[0]!.url).toBe('/_tracker/events?key=k');
    expect(JSON.parse(await beacons[0]!.blob.text()).events[0].type).toBe('a');
    // A beacon's fate is unknowable: the batch stays owned until an answer acknowledges it.
    expect(client!.pending).toBe(1);
  });

  it('beacons when the page becomes hidden, not when it becomes visible', async () => {
    const beacons = setup();
    client!.track({ type: 'b' });
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'visible' });
    document.dispatchEvent(new Event('visibilitychange'));
    expect(beacons).toHaveLength(0);
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
    document.dispatchEvent(new Event('visibilitychange'));
    expect(beacons).toHaveLength(1);
    // pagehide right after: the batch already left in this hidden period, it is not beaconed twice.
    window.dispatchEvent(new Event('pagehide'));
    expect(beacons).toHaveLength(1);
    // Visible again, then hidden: still unacknowledged, so it goes out again (same batchId).
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'visible' });
    document.dispatchEvent(new Event('visibilitychange'));
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
    document.dispatchEvent(new Event('visibilitychange'));
    expect(beacons).toHaveLength(2);
    const ids = await Promise.all(beacons.map(async (b) => JSON.parse(await b.blob.text()).batchId));
    expect(ids[0]).toBe(ids[1]);
  });

  it('beaconOnPageHide: false sends no beacon at pagehide but still persists (persist: false does not)', () => {
    const beacons: Blob[] = [];
    const quiet = createTrackerClient({ flushInterval: 0, beaconOnPageHide: false, sendBeacon: (_u, b) => (beacons.push(b), true), fetch: () => new Promise(() => {}) });
    quiet.track({ type: 'q' });
    window.dispatchEvent(new Event('pagehide'));
    quiet.stop();
    expect(beacons).toHaveLength(0);
    expect(Object.keys(localStorage).filter((k) => k.startsWith('mockyard-tracker:'))).toHaveLength(1);
    localStorage.clear();
    const none = createTrackerClient({ flushInterval: 0, beaconOnPageHide: false, persist: false, fetch: () => new Promise(() => {}) });
    none.track({ type: 'q' });
    window.dispatchEvent(new Event('pagehide'));
    none.stop();
    expect(localStorage.length).toBe(0);
  });

  it('persists the unacknowledged queue at pagehide and the next client re-sends it with the same batchId', async () => {
    const sent: Array<{ batchId: string; events: Array<{ type: string }> }> = [];
    const first = createTrackerClient({ flushInterval: 0, sendBeacon: () => true, fetch: async () => new Response(null, { status: 503 }) });
    first.track({ type: 'kept' });
    window.dispatchEvent(new Event('pagehide'));
    first.stop();
    expect(Object.keys(localStorage).filter((k) => k.startsWith('mockyard-tracker:'))).toHaveLength(1);
    client = createTrackerClient({
      flushInterval: 0,
      compress: false,
      fetch: async (_url, init) => {
        sent.push(JSON.parse(String(init!.body)));
        return new Response(null, { status: 200 });
      },
    });
    await expect.poll(() => sent.length).toBe(1);
    expect(sent[0]!.events.map((e) => e.type)).toEqual(['kept']);
    await expect.poll(() => client!.pending).toBe(0);
    // Acknowledged: nothing left in storage for a third page.
    expect(Object.keys(localStorage).filter((k) => k.startsWith('mockyard-tracker:'))).toEqual([]);
  });

  it('stop() removes the listeners', () => {
    const beacons = setup();
    client!.track({ type: 'c' });
    client!.stop();
    window.dispatchEvent(new Event('pagehide'));
    expect(beacons).toHaveLength(0);
    expect(client!.pending).toBe(1);
  });
});
