/**
 * The events panel: TrackerEvents sent to the collector three ways — gzip fetch
 * (CompressionStream), plain JSON fetch, and sendBeacon (also what happens on `pagehide`) — and
 * the collector's read of the last 24 hours, newest first, as it returns it.
 */
import { createTrackerClient } from 'mockyard/tracker';
import { $, api, h, toast } from './ui.js';

interface StoredEvent {
  id: string;
  timestamp: string;
  type?: string;
  via?: string;
  label?: string;
}

const gzipClient = createTrackerClient({ flushInterval: 5000 });
const plainClient = createTrackerClient({ compress: false, flushInterval: 0, beaconOnPageHide: false, persist: false });
// The beacon button's own client: a beacon is never acknowledged, so its batch stays pending here;
// no interval, no unload beacons and no persisted copy, so the demo sends it exactly once.
const beaconClient = createTrackerClient({ flushInterval: 0, beaconOnPageHide: false, persist: false });
let seq = 0;

function event(via: string) {
  seq += 1;
  return { type: 'ui.click', level: 'info', via, label: `${via} #${seq}`, route: location.pathname, userId: 'playground' };
}

export async function refreshEvents(): Promise<number> {
  const now = Date.now();
  const since = new Date(now - 24 * 3600_000).toISOString();
  const until = new Date(now + 60_000).toISOString();
  const res = await api(`/_tracker?since=${encodeURIComponent(since)}&until=${encodeURIComponent(until)}`);
  const body = (await res.json()) as { events: StoredEvent[]; total: number };
  $('events-total').textContent = `${body.total} in the last 24 h`;
  const list = $('event-list');
  list.replaceChildren(
    ...(body.events.length
      ? body.events.slice(0, 50).map((e) =>
          h('li', { 'data-id': e.id },
            h('span', { class: 'via', text: e.via ?? '' }),
            h('span', { text: e.label ?? e.type ?? '(event)' }),
            h('time', { datetime: e.timestamp, text: new Date(e.timestamp).toLocaleTimeString() }),
          ))
      : [h('li', { class: 'empty', text: 'No events yet — send some.' })]),
  );
  return body.total;
}

async function waitForMore(before: number): Promise<void> {
  for (let i = 0; i < 20; i++) {
    if ((await refreshEvents()) > before) return;
    await new Promise((r) => setTimeout(r, 100));
  }
}

export function initEvents(): void {
  const total = () => Number(/^\d+/.exec($('events-total').textContent ?? '')?.[0] ?? 0);
  $('send-gzip').onclick = async () => {
    gzipClient.track(event('gzip'));
    if (await gzipClient.flush()) await refreshEvents();
    else toast('Ingest failed — kept for the next flush', 'error');
  };
  $('send-plain').onclick = async () => {
    plainClient.track(event('plain'));
    if (await plainClient.flush()) await refreshEvents();
    else toast('Ingest failed — kept for the next flush', 'error');
  };
  $('send-beacon').onclick = async () => {
    const before = total();
    beaconClient.track(event('beacon'));
    if (!beaconClient.flushBeacon()) toast('The browser refused the beacon', 'error');
    await waitForMore(before);
  };
}
