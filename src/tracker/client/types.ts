/** Public types of the browser tracker client (createTrackerClient, src/tracker/client.ts). */
import type { LoggerSink } from '../../core/logger.js';

export interface TrackedEvent {
  /** Always sent as `''`: the collector assigns ids. */
  id?: string;
  /** ISO-8601; default: now. */
  timestamp?: string;
  [field: string]: unknown;
}

/** The contract's client configuration (event-collector-contract.md section 1). */
export interface TrackerStorageOptions {
  /** `http` (default), `websocket`, or `middleware` (the fixed `/_tracker/events` ingest URL). */
  mode?: 'http' | 'websocket' | 'middleware';
  /** URL that receives ingest POSTs (http mode). */
  writeEndpoint?: string;
  /** URL the dashboard reads (accepted for the shared configuration; the client never reads). */
  readEndpoint?: string;
  /** Health-check URL (used by `ping()`). */
  pingEndpoint?: string;
  /** WebSocket URL (websocket mode). */
  wsEndpoint?: string;
  apiKey?: string;
  /** Most events per flush (default 25). */
  batchSize?: number;
}

export interface TrackerPersistOptions {
  /** localStorage key prefix (default `mockyard-tracker:` + the ingest URL or wsEndpoint). */
  key?: string;
  /** Most bytes of event JSON kept (default 1 MiB; the oldest batches give way). */
  maxBytes?: number;
  /** Batches older than this are not re-sent on the next start (default 24 h). */
  maxAgeMs?: number;
}

export interface TrackerClientOptions {
  /** Ingest URL (default `/_tracker/events`); same as `storage.writeEndpoint`. */
  endpoint?: string;
  apiKey?: string;
  /** Most events per request (default 25). */
  batchSize?: number;
  /** The contract's names (`storage.mode`, `writeEndpoint`, `wsEndpoint`, `apiKey`, `batchSize`, …). */
  storage?: TrackerStorageOptions;
  /** Milliseconds between flushes (default 5000); 0 disables the timer (call `flush()`). */
  flushInterval?: number;
  /** A send (HTTP answer or WebSocket ack) not settled within this many ms is aborted and retried (default 10000). */
  flushTimeout?: number;
  /** Gzip request bodies when CompressionStream exists (default true). */
  compress?: boolean;
  /** On `pagehide` and when the page becomes hidden, send the queue with beacons (default true; the persisted copy is governed by `persist`). */
  beaconOnPageHide?: boolean;
  /** Most events held (queued and in flight); past it the oldest batch is dropped and counted (default 5000). */
  maxQueue?: number;
  /** Largest event (its JSON, UTF-8 bytes); larger ones are truncated or dropped per `oversize` (default 32 KiB, at most 60 KiB). */
  maxEventBytes?: number;
  /** `truncate` (default): cut the longest strings and add `_truncated`; `drop`: drop the event. Both warn and count. */
  oversize?: 'truncate' | 'drop';
  /** Retry delays after 5xx / network errors / timeouts: `min(max, base · 2^n)` with jitter (defaults 1000 and 60000 ms). */
  backoff?: { base?: number; max?: number };
  /** Keep unacknowledged batches in localStorage at unload and re-send them on the next start (default on). */
  persist?: boolean | TrackerPersistOptions;
  /** Where warnings go (default `console`). */
  logger?: LoggerSink;
  /** Injected for tests and non-window environments. */
  fetch?: typeof fetch;
  sendBeacon?: (url: string, data: Blob) => boolean;
  WebSocket?: WebSocketFactory;
  localStorage?: Pick<Storage, 'getItem' | 'setItem' | 'removeItem' | 'key' | 'length'> | null;
  /** Told about failed sends (the batch is kept and retried). */
  onError?: (error: unknown) => void;
}

/** What the client needs from a WebSocket constructor (the browser's, or one injected). */
export type WebSocketFactory = new (url: string) => WebSocketLike;

export interface WebSocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
  onclose: ((ev: { code: number; reason: string }) => void) | null;
  onerror: ((ev: unknown) => void) | null;
}

export type TrackerState = 'running' | 'backoff' | 'offline' | 'stopped' | 'closed';

export interface TrackerStats {
  /** Events held by the client: waiting plus in flight (not yet acknowledged). */
  queued: number;
  /** Events in a send that has not been answered yet. */
  inFlight: number;
  /** Events acknowledged by the collector. */
  sent: number;
  /** Events given up, all reasons. */
  dropped: number;
  droppedBy: { queueFull: number; oversize: number; rejected: number; invalid: number; expired: number };
  /** Events shortened to fit `maxEventBytes`. */
  truncated: number;
  /** Sends that failed and will be retried. */
  retries: number;
  /** `backoff` after failures, `offline` while a WebSocket is down, `stopped` after 401/403 or close 1008. */
  state: TrackerState;
  /** The last failure, as a message. */
  lastError: string | undefined;
}

export interface TrackerClient {
  /** Queues one event (never throws; events that cannot be sent are counted in `stats().dropped`). */
  track(event: TrackedEvent): void;
  /** Sends queued events now (one request per batch); resolves true when all were acknowledged. */
  flush(): Promise<boolean>;
  /** What `pagehide` does: sends the queue with beacons within the browser's budget and persists it; true when every batch was handed over. */
  flushBeacon(): boolean;
  /** Events waiting to be sent (queued plus in flight). */
  readonly pending: number;
  stats(): TrackerStats;
  /** After a 401/403 or close 1008: sending starts again (e.g. once `setApiKey` fixed the key). */
  resume(): void;
  /** A new key for later sends (and resumes a client stopped by 401/403/1008). */
  setApiKey(key: string | undefined): void;
  /** GET `storage.pingEndpoint`: true on a 2xx answer (and always true when none is configured, as the contract says). */
  ping(): Promise<boolean>;
  /** Stops timers, listeners and the WebSocket (queued events stay queued). */
  stop(): void;
}
