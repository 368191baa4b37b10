/**
 * Public types of the event collector (the tracker's storage backend). Runtime validation of the
 * options lives in options.ts; the wire contract is ../shared/spec/event-collector-contract.md
 * (exact status codes, headers and messages).
 */
import type { Engine } from '../core/engine.js';
import type { LoggerSink, LogLevel } from '../core/logger.js';
import type { Vfs } from '../vfs/types.js';
import type { StorageStatus } from './storage-state.js';
import type { StoreFactory } from './store.js';

/** One tracked event as stored: the client's fields, `id` assigned by the collector. */
export interface TrackerEvent {
  id: string;
  /** ISO-8601 time with a UTC offset (`Z` or `±hh:mm`). */
  timestamp: string;
  [field: string]: unknown;
}

export interface CollectorStorageOptions {
  /** Filesystem for the JSONL segments. Without it events live in memory only. */
  fs?: Vfs;
  /** Folder inside `fs` holding the segments (default: `events`). */
  dir?: string;
  /**
   * PostgreSQL instead of the embedded store (Node only; its code is imported on first use): a
   * connection URL (`postgres://user:pass@host:5432/db`) or the options of `postgresStore()`
   * (`{ url | client, schema?, table? }`). Several collector processes may share one database.
   */
  postgres?: string | PostgresStoreOptions;
  /** Any other EventStore (src/tracker/store.ts), e.g. `postgresStore({ url })` from `mockyard/node`. */
  store?: StoreFactory;
  /**
   * With `postgres` or `store` (Node only): while the store cannot be reached, acknowledge ingest
   * batches (202) after writing them durably to a spool file in `dir` (default
   * `.mockyard/tracker-spool` under the working directory), and store them once it is back. Past
   * `maxBytes` (default 256 MiB) ingest answers 503. Off by default in the library; the CLI turns
   * it on for `--tracker-db`. See docs/collector.md.
   */
  spool?: boolean | { dir?: string; maxBytes?: number };
}

/** Options of `postgresStore()` / `tracker.storage.postgres`. */
export interface PostgresStoreOptions {
  /** Connection URL. One of `url` and `client`. */
  url?: string;
  /** A ready client: a postgres.js `sql` instance or a PGlite database (`@electric-sql/pglite`). */
  client?: unknown;
  /** Schema of the tables (default `public`; created when missing). */
  schema?: string;
  /** Name of the events table (default `mockyard_events`); the others are named after it. */
  table?: string;
  /** Connections in the pool for a `url` (default 10). */
  maxConnections?: number;
}

export interface CollectorCorsOptions {
  /**
   * Origins allowed to call the collector from a browser. `'*'` (default) reflects any origin;
   * a list holds exact origins (`https://app.example.com`) or RegExps; a function decides per origin.
   */
  origins?: '*' | ReadonlyArray<string | RegExp> | ((origin: string) => boolean);
  /** `Access-Control-Max-Age` of preflight answers in seconds (default 600). */
  maxAge?: number;
  /** `Access-Control-Allow-Credentials: true` (default true for the collector: beacons carry cookies). */
  credentials?: boolean;
}

export interface CollectorLimits {
  /** Largest ingest body as sent (compressed or not), bytes. Default 1 MiB. */
  maxBodyBytes?: number;
  /** Largest ingest body after gzip decompression, bytes. Default 10 MiB. */
  maxDecompressedBytes?: number;
  /** Most events in one batch (HTTP or WebSocket). Default 1000. */
  maxEvents?: number;
  /** Largest WebSocket message, bytes; larger → close 1009. Default 1 MiB. */
  maxWsMessageBytes?: number;
  /** Time a WebSocket may stay unauthenticated when `apiKey` is set, ms; then close 1008. Default 10000. */
  wsAuthTimeoutMs?: number;
}

export interface CollectorRetention {
  /** Drop segments whose every event is older than this many ms (checked on ingest and every minute). */
  maxAgeMs?: number;
  /** Drop the oldest segments once all their events fall outside the newest `maxEvents`. */
  maxEvents?: number;
}

export interface CollectorOptions {
  /** Application identifier, echoed by ping. Required. */
  appId: string;
  /** Shared key; when set, ingest, read and the WebSocket require it. */
  apiKey?: string;
  logLevel?: LogLevel;
  logger?: LoggerSink;
  /** URL path the collector answers under (default `/_tracker`). */
  basePath?: string;
  storage?: CollectorStorageOptions;
  /**
   * Shortcut for Node hosts (the CLI's `tracker.storageDir`): keep the segments in this folder on
   * disk (relative to the working directory, or absolute). Needs the Node entry, which registers
   * the disk driver; in the browser pass `storage: { fs }`. Not combinable with `storage.fs`.
   */
  storageDir?: string;
  /** CORS for cross-origin trackers and dashboards; `false` sends no CORS headers at all. */
  cors?: CollectorCorsOptions | false;
  limits?: CollectorLimits;
  retention?: CollectorRetention;
  /**
   * `'gzip'` (default): reads are gzip level 1 unless the request's Accept-Encoding excludes gzip.
   * `'none'`: always plain JSON — for hosts whose client cannot decode a Content-Encoding the
   * engine sets (a service worker's synthetic responses are not decoded by the browser).
   */
  readCompression?: 'gzip' | 'none';
}

/** The read response body (spec section 2, plus `nextCursor` when a `limit` was applied). */
export interface ReadResponse {
  events: TrackerEvent[];
  total: number;
  /** 1-based page applied; `null` when a `cursor` was used. */
  page: number | null;
  /** Page size applied; without `limit`, the number of events returned. */
  limit: number;
  /** Present when `limit` was given: cursor for the next page, or `null` on the last page. */
  nextCursor?: string | null;
}

export interface Collector extends Engine {
  readonly kind: 'collector';
  readonly basePath: string;
  /** Resolves once stored segments are loaded (requests wait for it on their own). */
  readonly ready: Promise<void>;
  /** Events currently held (for diagnostics and tests). */
  readonly size: number;
  /** The store's state (connecting, ready, unavailable and why) and the spool's, for health displays. */
  status(): StorageStatus;
  /** Calls `listener` on each change of the store's state; returns a function that stops it. */
  onStatus(listener: (status: StorageStatus) => void): () => void;
  /**
   * Deletes the stored events with from <= timestamp < to (epoch ms) and resolves with how many
   * went (the devtools' `DELETE events`). `apiKey`: the caller's key, checked as the read API checks
   * `X-Tracker-Key` (401). 501 for a `storage.store` without `deleteRange`.
   */
  deleteRange(from: number, to: number, apiKey?: string | null): Promise<number>;
  close(): Promise<void>;
}
