/**
 * The ingest spool: where a collector whose store is unreachable keeps the batches it
 * acknowledges until the store is back (`storage.spool`). The engine side only knows this
 * interface; the implementation is the Node runtime's files on disk (src/node/tracker-spool.ts,
 * the `spool` of src/node/runtime.ts), so in the browser `storage.spool` is an options error.
 *
 * Contract:
 *   - `add` resolves only once the batch is durable (written and fsync'd); a batch whose id is
 *     already in the spool is not added again. Past `maxBytes` it throws a 503 (the client keeps
 *     the batch and retries).
 *   - `peek(max)` gives the oldest batches not yet drained, in the order they were added (also
 *     those of an earlier process that died with batches in its spool), and `release(n)` marks
 *     the first `n` of them stored. Release is remembered lazily: after a crash, released batches
 *     may be given again; they carry their batch id, and the store skips a batch id it holds.
 */
import { check, OptionsError } from '../core/options.js';
import type { Logger } from '../core/logger.js';

export interface SpooledBatch {
  batchId: string;
  /** The ingest envelope as JSON text (`{"type":"ingest","batchId":…,"events":[…]}`). */
  text: string;
}

export interface IngestSpool {
  /** Opens the spool and takes over the spool files of dead processes. */
  load(): Promise<void>;
  readonly batches: number;
  readonly bytes: number;
  readonly maxBytes: number;
  has(batchId: string): boolean;
  add(batch: SpooledBatch): Promise<void>;
  peek(max: number): Promise<SpooledBatch[]>;
  release(count: number): Promise<void>;
  close(): Promise<void>;
}

export interface SpoolSettings {
  /** Folder of the spool files (a relative one resolves against the working directory). */
  dir: string | undefined;
  maxBytes: number;
}

export type SpoolFactory = (settings: SpoolSettings, context: { logger: Logger }) => IngestSpool;

export const DEFAULT_SPOOL_MAX_BYTES = 256 * 1024 * 1024;

/**
 * `storage.spool`: `true` or `{ dir?, maxBytes? }` → the factory (the runtime's `spool`, Node's
 * in src/node/runtime.ts) and its settings; `false` or absent → undefined. Only for a store other
 * than the embedded one (`embedded`).
 */
export function resolveSpoolOption(value: unknown, name: string, embedded: boolean, spoolFactory: SpoolFactory | undefined): { factory: SpoolFactory; settings: SpoolSettings } | undefined {
  if (value === undefined || value === false) return undefined;
  if (value !== true && (value === null || typeof value !== 'object' || Array.isArray(value))) throw new OptionsError(name, 'must be true, false or { dir?, maxBytes? }');
  const o = value === true ? {} : (value as Record<string, unknown>);
  check.knownKeys(o, name, ['dir', 'maxBytes']);
  const dir = check.string(o.dir, `${name}.dir`, undefined, { nonEmpty: true });
  const maxBytes = check.number(o.maxBytes, `${name}.maxBytes`, DEFAULT_SPOOL_MAX_BYTES, { min: 1, integer: true })!;
  if (embedded) throw new OptionsError(name, 'applies to a database store (storage.postgres or storage.store); the embedded store writes its own files');
  if (!spoolFactory) throw new OptionsError(name, 'needs the Node entry (import "mockyard" or "mockyard/node"): the spool keeps batches in files on disk');
  return { factory: spoolFactory, settings: { dir, maxBytes } };
}
