/**
 * The page's last moments. On `pagehide`, and when the page becomes hidden (`visibilitychange`:
 * mobile browsers may never fire `pagehide`, and a hidden tab may be discarded without warning),
 * every unacknowledged batch is written to persistent storage, then handed to `sendBeacon` one
 * batch per beacon (same batchId as any earlier send), oldest first, within the page's 64 KiB
 * budget for keepalive bodies: a batch already travelling in a keepalive fetch is not sent again
 * (that request survives the unload); the browser's own verdict (`sendBeacon` returning false)
 * ends the loop. Nothing leaves the queue here: a beacon's fate is unknowable, so the batches
 * stay owned until an answer acknowledges them, and the persisted copy covers the rest.
 */
import { batchBody, type Batch } from './batch-queue.js';
import { bodyBytes } from './http-transport.js';
import { KEEPALIVE_BUDGET } from './options.js';

export type BeaconSender = (url: string, data: Blob) => boolean;

/** Beacons what it can; true when every batch not already travelling was handed over. */
export function beaconBatches(batches: readonly Batch[], url: string, send: BeaconSender, keepaliveInFlight: number): boolean {
  let budget = KEEPALIVE_BUDGET - keepaliveInFlight;
  let all = true;
  for (const batch of batches) {
    if (batch.keepaliveBytes > 0 || batch.beaconed) continue;
    const size = bodyBytes(batch);
    if (size > budget) {
      all = false;
      continue; // a smaller batch further on may still fit
    }
    let accepted: boolean;
    try {
      accepted = send(url, new Blob([batchBody(batch)], { type: 'application/json' }));
    } catch {
      accepted = false;
    }
    if (!accepted) return false; // the browser's budget is spent
    batch.beaconed = true;
    budget -= size;
  }
  return all;
}

/** The beacon URL: beacons carry no headers, so the key travels as `?key=` (the collector accepts it on ingest). */
export function beaconUrl(endpoint: string, apiKey: string | undefined): string {
  return apiKey ? `${endpoint}${endpoint.includes('?') ? '&' : '?'}key=${encodeURIComponent(apiKey)}` : endpoint;
}

/** Calls `hide` on pagehide / visibilitychange→hidden, `show` on visible / pageshow; returns the unsubscribe. */
export function watchPageLifecycle(hide: () => void, show: () => void): () => void {
  if (typeof window === 'undefined' || typeof document === 'undefined') return () => {};
  const onVisibility = () => (document.visibilityState === 'hidden' ? hide() : show());
  window.addEventListener('pagehide', hide);
  window.addEventListener('pageshow', show);
  document.addEventListener('visibilitychange', onVisibility);
  return () => {
    window.removeEventListener('pagehide', hide);
    window.removeEventListener('pageshow', show);
    document.removeEventListener('visibilitychange', onVisibility);
  };
}
