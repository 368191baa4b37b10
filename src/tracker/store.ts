/**
 * EventStore: the collector's storage seam, host-neutral.
 *
 * Two implementations:
 *   - the embedded store (event-store.ts, `VfsEventStore`): an in-memory time index over JSONL
 *     hour segments on a Vfs (or memory only). The default; reads are synchronous selections over
 *     ready-made JSON lines (`kind: 'index'`), which the collector turns into a response with its
 *     cached gzip pieces (read-encoder.ts).
 *   - PostgreSQL (src/node/postgres/, Node only, loaded on demand): reads are streamed
 *     (`kind: 'stream'`), pages of stored JSON text pulled as the response is written.
 * Anything else with this shape can be passed as `storage: { store }` (a ClickHouse store, say).
 *
 * Contract (test/tracker/store-contract.test.ts runs it against every implementation):
 *   - `append` stores a validated batch all-or-nothing and resolves only once it is durable
 *     (committed), with the stored lines (the events as served, with their new ids) in batch order;
 *     a batch whose client `batchId` was stored before resolves with the first answer's count and
 *     no lines (nothing stored, nothing to push).
 *   - `read` selects a window (since/until inclusive) newest first: by timestamp, then by ingest
 *     order (later ingested first on equal timestamps); `total` is the exact count of the window;
 *     `limit` + `page` or `cursor` as read-query.ts describes.
 *   - `onBatch` (optional): batches stored by OTHER processes sharing the store, for pushes.
 *   - `deleteRange` (optional): removes the window [from, to) and nothing else, durably.
 */
import { HttpError } from '../core/errors.js';
import type { DeflatedPiece } from './gzip-pieces.js';
import type { ValidBatch } from './ingest-batch.js';
import type { ReadQuery, Selection } from './read-query.js';

/** A window read whose events are produced page by page (newest first). */
export interface StreamedSelection {
  kind: 'stream';
  total: number;
  page: number | null;
  /**
   * The events newest first, in chunks: JSON texts (joined with commas), or, for a read asked
   * with `{ gzip: true }`, possibly ready deflated pieces of such text (a store's cache of hours).
   */
  chunks: AsyncIterable<string[] | DeflatedPiece>;
  /**
   * Known once `chunks` is exhausted: the response's `limit` (the query's, else the number of
   * events returned) and, when the query had a `limit`, `nextCursor`.
   */
  end(): { limit: number; nextCursor?: string | null };
  /** Releases what the read holds (a snapshot connection) when `chunks` is not read to the end. */
  close(): Promise<void>;
}

export type StoreSelection = ({ kind: 'index' } & Selection) | StreamedSelection;

export interface StoredBatch {
  /** Events the batch stored (for a replayed batchId: what the first attempt stored). */
  saved: number;
  /** The stored lines in batch order; empty when nothing new was stored. */
  lines: string[];
}

export interface EventStore {
  /**
   * Loads or connects (schema, partitions); reads and ingests wait for it. The collector calls it
   * again (with a capped backoff) until it succeeds once, so it must be safe to retry.
   */
  load(): Promise<void>;
  /**
   * Resolves when the storage answers now (PostgreSQL: `SELECT 1`); rejects with
   * `storageUnavailable()` (storage-state.ts) when it cannot be reached. Used after an outage and by
   * ping; a store without it is tried with `load()` again.
   */
  probe?(): Promise<void>;
  /** What the log calls the storage (`PostgreSQL at 127.0.0.1:5432`); never a password. */
  readonly label?: string;
  append(batch: ValidBatch): Promise<StoredBatch>;
  /** `gzip`: the response will be gzip, so the store may hand over ready deflated pieces. */
  read(query: ReadQuery, options?: { gzip?: boolean }): Promise<StoreSelection>;
  /**
   * Deletes the events whose timestamp t has from <= t < to (epoch ms) and resolves with how many
   * went, once the deletion is durable; every other event stays (the dashboard's "delete a time
   * range"). Optional for other stores: without it the admin API answers 501.
   */
  deleteRange?(from: number, to: number): Promise<number>;
  /** Drops what retention says must go (also run by the collector every minute). */
  applyRetention(now?: number): void | Promise<void>;
  /** Events held: exact for the embedded store; the PostgreSQL store counts its own app's events shortly after start-up plus what this process stored since. */
  readonly size: number;
  /** Batches stored by other processes on the same store (the collector pushes them). */
  onBatch?(listener: (lines: string[]) => void): void;
  /** Waits for the writes under way. */
  flush(): Promise<void>;
  /** Releases connections and timers (after flush). */
  close(): Promise<void>;
}

/** Options every store gets from the collector. */
export interface StoreContext {
  appId: string;
  maxAgeMs: number | undefined;
  retainEvents: number | undefined;
  logger: import('../core/logger.js').Logger;
}

/** What `storage: { store }` takes: builds the collector's store (e.g. `postgresStore({ url })`). */
export type StoreFactory = (context: StoreContext) => EventStore;

/** Turns `tracker.storage.postgres` into a StoreFactory; part of Node's runtime (src/node/runtime.ts). */
export type PostgresStoreResolver = (options: unknown, optionName: string) => StoreFactory;

/**
 * A store whose code is imported on demand: every call waits for `loading` (load() first, as
 * the collector always does). `size` is 0 until loaded.
 */
export function lazyStore(loading: Promise<EventStore>, label?: string): EventStore {
  let inner: EventStore | undefined;
  const ready = loading.then((s) => (inner = s));
  const listeners: Array<(lines: string[]) => void> = [];
  void ready.then((s) => { for (const l of listeners) s.onBatch?.(l); }, () => {});
  return {
    label,
    async load() {
      await (await ready).load();
    },
    async probe() {
      const s = await ready;
      await (s.probe ? s.probe() : s.load());
    },
    async append(batch) {
      return (await ready).append(batch);
    },
    async read(query, options) {
      return (await ready).read(query, options);
    },
    async applyRetention(now) {
      await (await ready).applyRetention(now);
    },
    async deleteRange(from, to) {
      const s = await ready;
      if (!s.deleteRange) throw new HttpError(501, 'This event store cannot delete events');
      return s.deleteRange(from, to);
    },
    get size() {
      return inner?.size ?? 0;
    },
    onBatch(listener) {
      if (inner) inner.onBatch?.(listener);
      else listeners.push(listener);
    },
    async flush() {
      await (await ready.catch(() => undefined))?.flush();
    },
    async close() {
      await (await ready.catch(() => undefined))?.close();
    },
  };
}
