/**
 * The browser tracker client: queues TrackerEvents and sends them to the collector in batches.
 *
 *   const tracker = createTrackerClient({ endpoint: '/_tracker/events', apiKey });
 *   tracker.track({ type: 'click', level: 'info', route: location.pathname });
 *
 * - Batches of at most `batchSize` events (default 25, the contract's) every `flushInterval` ms
 *   (default 5000), or at once when a full batch is queued.
 * - `fetch` POST of `{ type: 'ingest', events }`, gzip-compressed through `CompressionStream`
 *   when the browser has it (`Content-Encoding: gzip`), `X-Tracker-Key` when `apiKey` is set.
 * - Any 2xx acknowledges the batch; anything else (or a network error) puts it back at the head
 *   of the queue, retried on the next interval.
 * - On `pagehide`, and when the page becomes hidden (`visibilitychange`; mobile browsers may
 *   never fire `pagehide`), what is left goes out with `navigator.sendBeacon` (plain JSON Blob;
 *   beacons cannot carry headers, so the key travels as `?key=`, which the collector accepts).
 *
 * Browser-only APIs are looked up when used, so the module also loads (and is tested) in Node.
 */
export interface TrackedEvent {
  /** Always sent as `''`: the collector assigns ids. */
  id?: string;
  /** ISO-8601; default: now. */
  timestamp?: string;
  [field: string]: unknown;
}

export interface TrackerClientOptions {
  /** Ingest URL (default `/_tracker/events`). */
  endpoint?: string;
  apiKey?: string;
  /** Most events per request (default 25). */
  batchSize?: number;
  /** Milliseconds between flushes (default 5000); 0 disables the timer (call `flush()`). */
  flushInterval?: number;
  /** Gzip request bodies when CompressionStream exists (default true). */
  compress?: boolean;
  /** Send the queue with sendBeacon on `pagehide` and when the page is hidden (default true). */
  beaconOnPageHide?: boolean;
  /** Injected for tests and non-window environments. */
  fetch?: typeof fetch;
  sendBeacon?: (url: string, data: Blob) => boolean;
  /** Told about failed sends (the batch is kept and retried). */
  onError?: (error: unknown) => void;
}

export interface TrackerClient {
  /** Queues one event. */
  track(event: TrackedEvent): void;
  /** Sends queued events now (one request per batch); resolves true when all were acknowledged. */
  flush(): Promise<boolean>;
  /** Sends everything queued with sendBeacon (what `pagehide` does); true when all were handed over. */
  flushBeacon(): boolean;
  /** Events waiting to be sent. */
  readonly pending: number;
  /** Stops the timer and the pagehide listener (queued events stay queued). */
  stop(): void;
}

type Stamped = TrackedEvent & { id: string; timestamp: string };

const encoder = new TextEncoder();

async function gzip(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes as BlobPart]).stream().pipeThrough(new CompressionStream('gzip'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

export function createTrackerClient(options: TrackerClientOptions = {}): TrackerClient {
  const endpoint = options.endpoint ?? '/_tracker/events';
  const batchSize = Math.max(1, Math.floor(options.batchSize ?? 25));
  const flushInterval = options.flushInterval ?? 5000;
  const compress = (options.compress ?? true) && typeof CompressionStream === 'function';
  const doFetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const sendBeacon = options.sendBeacon ?? ((url: string, data: Blob) => globalThis.navigator?.sendBeacon?.(url, data) ?? false);
  const queue: Stamped[] = [];
  let inFlight: Promise<boolean> | undefined;

  const beaconUrl = options.apiKey
    ? `${endpoint}${endpoint.includes('?') ? '&' : '?'}key=${encodeURIComponent(options.apiKey)}`
    : endpoint;

  const sendBatch = async (events: Stamped[]): Promise<boolean> => {
    const json = encoder.encode(JSON.stringify({ type: 'ingest', events }));
    const headers: Record<string, string> = { 'Content-Type': 'application/json' };
    if (options.apiKey) headers['X-Tracker-Key'] = options.apiKey;
    let body: Uint8Array = json;
    if (compress) {
      body = await gzip(json);
      headers['Content-Encoding'] = 'gzip';
    }
    try {
      const res = await doFetch(endpoint, { method: 'POST', headers, body: body as BodyInit });
      if (res.ok) return true;
      options.onError?.(new Error(`Tracker ingest answered HTTP ${res.status}`));
    } catch (err) {
      options.onError?.(err);
    }
    return false;
  };

  const flushAll = async (): Promise<boolean> => {
    while (queue.length > 0) {
      const batch = queue.splice(0, batchSize);
      if (!(await sendBatch(batch))) {
        queue.unshift(...batch); // back at the head, in order; retried next interval
        return false;
      }
    }
    return true;
  };

  const flush = (): Promise<boolean> => {
    // One flush at a time: a second caller waits for it, then sends what is still queued.
    const run = (inFlight ?? Promise.resolve(true)).then(flushAll);
    const mine = run.finally(() => {
      if (inFlight === mine) inFlight = undefined;
    });
    inFlight = mine;
    return mine;
  };

  const flushBeacon = (): boolean => {
    while (queue.length > 0) {
      const batch = queue.slice(0, batchSize);
      const blob = new Blob([JSON.stringify({ type: 'ingest', events: batch })], { type: 'application/json' });
      if (!sendBeacon(beaconUrl, blob)) return false;
      queue.splice(0, batch.length);
    }
    return true;
  };

  const timer = flushInterval > 0 ? setInterval(() => void flush(), flushInterval) : undefined;
  const onPageHide = () => {
    flushBeacon();
  };
  const onVisibility = () => {
    if (document.visibilityState === 'hidden') flushBeacon();
  };
  const target = (options.beaconOnPageHide ?? true) && typeof window !== 'undefined' && typeof document !== 'undefined' ? window : undefined;
  target?.addEventListener('pagehide', onPageHide);
  if (target) document.addEventListener('visibilitychange', onVisibility);

  return {
    track(event) {
      queue.push({ ...event, id: '', timestamp: event.timestamp ?? new Date().toISOString() });
      if (queue.length >= batchSize && !inFlight) void flush();
    },
    flush,
    flushBeacon,
    get pending() {
      return queue.length;
    },
    stop() {
      if (timer !== undefined) clearInterval(timer);
      target?.removeEventListener('pagehide', onPageHide);
      if (target) document.removeEventListener('visibilitychange', onVisibility);
    },
  };
}
