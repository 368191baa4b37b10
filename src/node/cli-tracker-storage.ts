/**
 * The CLI's collector storage: the spool is on by default for a PostgreSQL store (its folder
 * resolved against the working directory), and `--tracker-db-wait SECONDS` holds start-up until
 * the database is connected, or fails naming the database (password redacted).
 */
import { resolve } from 'node:path';
import type { CollectorOptions, Collector } from '../tracker/types.js';
import { redactUrl } from './postgres/unreachable.js';
import { DEFAULT_SPOOL_DIR } from './tracker-spool.js';

/** The collector options with `storage.spool` defaulted (PostgreSQL) and its `dir` made absolute against `cwd`. */
export function withSpoolDefault(tracker: CollectorOptions, cwd: string): CollectorOptions {
  const storage = tracker.storage;
  if (!storage || (storage.postgres === undefined && storage.store === undefined)) return tracker;
  let spool = storage.spool ?? (storage.postgres !== undefined ? true : undefined);
  if (spool === undefined || spool === false) return tracker;
  if (spool === true) spool = {};
  if (typeof spool !== 'object' || spool === null) return tracker; // the collector's option check says what is wrong
  return { ...tracker, storage: { ...storage, spool: { ...spool, dir: resolve(cwd, typeof spool.dir === 'string' ? spool.dir : DEFAULT_SPOOL_DIR) } } };
}

/** The database a collector's options name, password redacted (for messages). */
export function storageName(tracker: CollectorOptions): string {
  const pg = tracker.storage?.postgres;
  const url = typeof pg === 'string' ? pg : pg?.url;
  return url ? redactUrl(url) : 'the event storage';
}

/**
 * Resolves once the collector's store is ready; rejects after `seconds` with a message naming the
 * database and the last reason it gave.
 */
export function waitForStorage(collector: Collector, seconds: number, name: string): Promise<void> {
  if (collector.status().state === 'ready') return Promise.resolve();
  return new Promise((resolvePromise, reject) => {
    const stop = collector.onStatus((s) => {
      if (s.state !== 'ready') return;
      clearTimeout(timer);
      stop();
      resolvePromise();
    });
    const timer = setTimeout(() => {
      stop();
      const s = collector.status();
      if (s.state === 'ready') return resolvePromise();
      reject(new Error(`mockyard: ${name} not connected within ${seconds} s (--tracker-db-wait)${s.reason ? `: ${s.reason}` : ''}`));
    }, seconds * 1000);
  });
}

/** The start-up line about the collector's storage, when it is not ready (yet). */
export function storageLine(collector: Collector): string | undefined {
  const s = collector.status();
  if (s.state === 'ready') return undefined;
  const spool = s.spool ? '; ingest batches are spooled on disk until it is back' : '; ingest and reads answer 503 until it is back';
  if (s.state === 'connecting') return `  event storage connecting in the background${spool.replace('until it is back', 'until it is connected')}`;
  return `  event storage unavailable (${s.reason ?? 'not connected'}), retrying in the background${spool}`;
}
