// @vitest-environment happy-dom
/** The tracker client's page-lifecycle wiring: beacons on pagehide and when the page is hidden. */
import { afterEach, describe, expect, it } from 'vitest';
import { createTrackerClient, type TrackerClient } from '../../src/tracker/client.js';

let client: TrackerClient | undefined;
afterEach(() => client?.stop());

function setup() {
  const beacons: Array<{ url: string; blob: Blob }> = [];
  client = createTrackerClient({ flushInterval: 0, apiKey: 'k', sendBeacon: (url, blob) => (beacons.push({ url, blob }), true) });
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
    expect(client!.pending).toBe(0);
  });

  it('beacons when the page becomes hidden, not when it becomes visible', () => {
    const beacons = setup();
    client!.track({ type: 'b' });
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'visible' });
    document.dispatchEvent(new Event('visibilitychange'));
    expect(beacons).toHaveLength(0);
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
    document.dispatchEvent(new Event('visibilitychange'));
    expect(beacons).toHaveLength(1);
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
