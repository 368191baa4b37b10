/**
 * The browser tracker client: queues TrackerEvents and delivers them to the collector exactly
 * once as far as the platform allows (docs/collector.md, "Delivery guarantees").
 *
 *   const tracker = createTrackerClient({ storage: { writeEndpoint: '/_tracker/events', apiKey } });
 *   tracker.track({ type: 'click', level: 'info', route: location.pathname });
 *
 * The rooms (src/tracker/client/): options.ts (both the contract's and the client's option
 * names), event-encoding.ts (snapshot, size, oversize), batch-queue.ts (batches own their events
 * until acknowledged, each with a `batchId`), http-transport.ts (fetch, gzip, keepalive,
 * flushTimeout), ws-transport.ts (auth, ack, reconnect), backoff.ts, unload.ts (beacons within
 * the 64 KiB budget, page lifecycle), persistence.ts (localStorage across page loads).
 * This file is the delivery loop: one batch at a time, oldest first, and what each answer means.
 *
 * Browser-only APIs are looked up when used, so the module also loads (and is tested) in Node.
 *
 * Its states: delivery running | backoff | offline | stopped | closed, every move in the table of
 * client/delivery-state.ts (the loop a CoalescedRun); the WebSocket transport's connection connecting | authenticating | ready |
 * waiting | idle | refused | closed (fixed 3 s reconnect); `transport.ts` is the interface both transports implement.
 */
import { CoalescedRun } from '../core/coalesced-run.js';
import { Backoff } from './client/backoff.js';
import { BatchQueue, type Batch } from './client/batch-queue.js';
import { BEACONS, deliveryMove, type DeliveryEvent } from './client/delivery-state.js';
import { encodeEvent, utf8Length } from './client/event-encoding.js';
import { HttpTransport } from './client/http-transport.js';
import { MAX_BATCH_BYTES, resolveClientOptions } from './client/options.js';
import { BatchStore } from './client/persistence.js';
import type { SendResult, Transport } from './client/transport.js';
import type { TrackerClient, TrackerClientOptions, TrackerState, TrackerStats } from './client/types.js';
import { beaconBatches, beaconUrl, watchPageLifecycle, type BeaconSender } from './client/unload.js';

export type { TrackedEvent, TrackerClient, TrackerClientOptions, TrackerStats, TrackerStorageOptions, TrackerPersistOptions, TrackerState } from './client/types.js';

type DropReason = keyof TrackerStats['droppedBy'];

/** Where delivery stands (client/delivery-state.ts); backoff holds the timer that ends it. */
type Delivery =
  | { name: Exclude<TrackerState, 'backoff'> }
  | { name: 'backoff'; timer: ReturnType<typeof setTimeout> };

/** Stands in for the WebSocket transport while it loads: not ready, so nothing is sent. */
const loadingTransport: Transport = { ready: false, keepaliveInFlight: 0, send: async () => ({ kind: 'retry', message: 'WebSocket not connected' }), close() {} };

export function createTrackerClient(options: TrackerClientOptions = {}): TrackerClient {
  const o = resolveClientOptions(options);
  const log = o.logger;
  const doFetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const sendBeacon: BeaconSender | undefined =
    options.sendBeacon ??
    (typeof navigator !== 'undefined' && typeof navigator.sendBeacon === 'function' ? (url, data) => navigator.sendBeacon(url, data) : undefined);
  let apiKey = o.apiKey;

  const queue = new BatchQueue({ batchSize: o.batchSize, maxBatchBytes: MAX_BATCH_BYTES, maxQueue: o.maxQueue }, utf8Length);
  const backoff = new Backoff(o.backoffBase, o.backoffMax);
  const counters = { sent: 0, truncated: 0, retries: 0 };
  const droppedBy: Record<DropReason, number> = { queueFull: 0, oversize: 0, rejected: 0, invalid: 0, expired: 0 };
  let delivery: Delivery = { name: o.mode === 'websocket' ? 'offline' : 'running' };
  /**
   * The one way delivery changes state: the table's move for `event` (leaving backoff cancels
   * its timer; entering it starts the next one, `retryAfterMs` at least). True when it changed.
   */
  const on = (event: DeliveryEvent, retryAfterMs?: number): boolean => {
    const from = delivery;
    const to = deliveryMove(from.name, event, transport.ready);
    if (to === from.name) return false;
    if (from.name === 'backoff') clearTimeout(from.timer);
    delivery = to !== 'backoff' ? { name: to } : { name: to, timer: setTimeout(() => on('backoffOver') && void pump(), backoff.fail(retryAfterMs)) };
    return true;
  };
  let lastError: string | undefined;
  const warned = new Set<string>();

  /** Warns once per kind (a flood of oversized events is one warning; stats() has the counts). */
  const warnOnce = (kind: string, message: string) => {
    if (warned.has(kind)) return;
    warned.add(kind);
    log.warn(message);
  };
  const drop = (n: number, reason: DropReason, message: string) => {
    if (n <= 0) return;
    droppedBy[reason] += n;
    warnOnce(`drop:${reason}`, `${message} (counted in stats().droppedBy.${reason}; further drops of this kind are not logged)`);
  };

  let storage: BatchStore | undefined;
  if (o.persist) {
    let ls = options.localStorage;
    if (ls === undefined) {
      try {
        ls = typeof localStorage === 'undefined' ? null : localStorage;
      } catch {
        ls = null; // storage disabled (sandboxed frame, privacy settings)
      }
    }
    if (ls) storage = new BatchStore(ls, o.persist.key, o.persist.maxBytes, o.persist.maxAgeMs, (m) => warnOnce('storage', m));
  }

  // WebSocket mode loads its transport on demand (its own chunk in browser bundles, never fetched
  // by an HTTP client); until it is there the client is offline and only queues.
  let transport: Transport = loadingTransport;
  if (o.mode === 'websocket') {
    import('./client/ws-transport.js').then(
      (m) => {
        if (delivery.name === 'closed') return;
        transport = new m.WsTransport({
          url: o.wsEndpoint!,
          apiKey: () => apiKey,
          flushTimeout: o.flushTimeout,
          WebSocket: options.WebSocket,
          onReady: () => {
            on('connected');
            void pump();
          },
          onRefused: (message) => refusedKey(message),
          onDown: (message) => {
            lastError = message;
            on('disconnected');
          },
        });
      },
      (err: unknown) => {
        lastError = `could not load the WebSocket transport: ${(err as Error)?.message ?? err}`;
        warnOnce('ws-load', `${lastError}; events stay queued`);
      },
    );
  } else {
    transport = new HttpTransport({ endpoint: o.endpoint, apiKey: () => apiKey, compress: o.compress, flushTimeout: o.flushTimeout, fetch: doFetch });
  }

  /** The collector refused the key: sending stops, the queue is kept. */
  const refusedKey = (message: string) => {
    if (delivery.name === 'closed') return; // stop() was called while a send was out
    on('refused');
    lastError = message;
    warnOnce('auth', `${message}; sending stopped, ${queue.size} events kept (call resume() or setApiKey())`);
  };

  /** Rewrites the persisted copy when an acknowledged batch was in it. */
  const acknowledge = (batch: Batch) => {
    queue.remove(batch);
    counters.sent += batch.events.length;
    if (batch.persisted) storage?.save(queue.batches.filter((b) => b.persisted));
  };

  /** A batch the collector refuses as it is: isolate the bad event (named, or by halving). */
  const refused = (batch: Batch, result: Extract<SendResult, { kind: 'reject' }>) => {
    const n = batch.events.length;
    if (n === 1) {
      queue.remove(batch);
      droppedBy.rejected += 1;
      log.warn(`event dropped: ${result.message} (stats().droppedBy.rejected = ${droppedBy.rejected})`);
      if (batch.persisted) storage?.save(queue.batches.filter((b) => b.persisted));
      return;
    }
    const i = result.index;
    if (i !== undefined && i >= 0 && i < n) {
      // The collector named the event: it alone is sent on its own (and dropped if refused again).
      queue.replace(batch, [batch.events.slice(0, i), [batch.events[i]!], batch.events.slice(i + 1)]);
    } else {
      const half = Math.ceil(n / 2);
      queue.replace(batch, [batch.events.slice(0, half), batch.events.slice(half)]);
    }
  };

  const settle = (batch: Batch, result: SendResult): boolean => {
    switch (result.kind) {
      case 'ok':
        backoff.reset();
        acknowledge(batch);
        return true;
      case 'reject':
        refused(batch, result);
        return true;
      case 'auth':
        refusedKey(result.message);
        return false;
      case 'retry': {
        counters.retries += 1;
        lastError = result.message;
        options.onError?.(new Error(`Tracker ingest failed: ${result.message}`));
        if (result.misconfigured) warnOnce('misconfigured', `${result.message} (is ${o.endpoint} the collector's ingest URL?); retrying with backoff`);
        if (o.mode !== 'websocket') on('sendFailed', result.retryAfterMs); // WebSocket: the connection's own reconnect (fixed 3 s) paces it
        return false;
      }
    }
  };

  /** Sends batches, oldest first, until none is left or delivery is no longer running. */
  const deliver = async () => {
    while (delivery.name === 'running' && transport.ready) {
      const batch = queue.next();
      if (!batch) return;
      batch.inFlight = true;
      batch.attempts += 1;
      let result: SendResult;
      try {
        result = await transport.send(batch);
      } catch (err) {
        result = { kind: 'retry', message: String((err as Error)?.message ?? err) };
      } finally {
        batch.inFlight = false;
      }
      if (!settle(batch, result)) return;
    }
  };

  /** Runs the delivery loop; asked while it runs (new events, a reconnect), it runs once more. */
  const delivering = new CoalescedRun(deliver, () => delivery.name === 'running');
  const pump = () => delivering.run();

  const flush = async (): Promise<boolean> => {
    on('flush'); // asked explicitly: try now instead of waiting out the backoff
    await pump();
    return queue.size === 0;
  };

  /** Writes every unacknowledged batch to storage (their content is frozen from now on). */
  const persistAll = () => {
    queue.sealAll();
    storage?.save(queue.batches);
  };

  const flushBeacon = (): boolean => {
    persistAll();
    if (!BEACONS[delivery.name] || o.mode === 'websocket' || !sendBeacon) return queue.size === 0;
    return beaconBatches(queue.batches, beaconUrl(o.endpoint, apiKey), sendBeacon, transport.keepaliveInFlight);
  };

  // Batches a previous page left unacknowledged go first.
  if (storage) {
    const { batches, expired } = storage.load(Date.now(), (events) => queue.measure(events));
    drop(expired, 'expired', `${expired} persisted events were older than persist.maxAgeMs and are not re-sent`);
    drop(queue.restore(batches), 'queueFull', `the queue is full (maxQueue ${o.maxQueue}): oldest events dropped`);
    if (batches.length) queueMicrotask(() => void pump());
  }

  const timer = o.flushInterval > 0 ? setInterval(() => void pump(), o.flushInterval) : undefined;
  // Leaving the page: beacons (unless beaconOnPageHide is false) and the persisted copy (unless persist is false).
  const unwatch = o.lifecycle || storage
    ? watchPageLifecycle(
        () => void (o.lifecycle ? flushBeacon() : persistAll()),
        () => {
          for (const b of queue.batches) b.beaconed = false;
        },
      )
    : () => {};

  const resume = () => {
    if (!on('resume')) return; // only a stopped client resumes
    warned.delete('auth');
    transport.reconnectNow?.();
    void pump();
  };

  return {
    track(event) {
      const encoded = encodeEvent(event, o.maxEventBytes, o.oversize);
      if (!encoded.ok) {
        drop(1, encoded.reason, encoded.message);
        return;
      }
      if (encoded.truncatedFrom !== undefined) {
        counters.truncated += 1;
        warnOnce('truncated', `event of ${encoded.truncatedFrom} bytes truncated to maxEventBytes (${o.maxEventBytes}), marked with _truncated (counted in stats().truncated; further truncations are not logged)`);
      }
      drop(queue.add(encoded.json, encoded.bytes, Date.now()), 'queueFull', `the queue is full (maxQueue ${o.maxQueue}): oldest events dropped`);
      if (delivery.name === 'running' && queue.hasFullBatch) void pump();
    },
    flush,
    flushBeacon,
    get pending() {
      return queue.size;
    },
    stats() {
      const dropped = Object.values(droppedBy).reduce((a, b) => a + b, 0);
      return { queued: queue.size, inFlight: queue.inFlightEvents, sent: counters.sent, dropped, droppedBy: { ...droppedBy }, truncated: counters.truncated, retries: counters.retries, state: delivery.name, lastError };
    },
    resume,
    setApiKey(key) {
      apiKey = key === '' ? undefined : key;
      resume();
    },
    async ping() {
      if (!o.pingEndpoint) return true;
      try {
        const res = await doFetch(o.pingEndpoint, { headers: apiKey ? { 'X-Tracker-Key': apiKey } : {} });
        void res.body?.cancel().catch(() => {});
        return res.ok;
      } catch {
        return false;
      }
    },
    stop() {
      on('stop');
      if (timer !== undefined) clearInterval(timer);
      unwatch();
      transport.close();
    },
  };
}
