/**
 * Whether the collector's store can be used right now, and getting it back when it cannot.
 *
 *   connecting   the first `load()` is under way (requests wait for it)
 *   ready        loaded and answering
 *   unavailable  the first load failed, or a store call failed with `storageUnavailable()` (the
 *                database went away): requests answer 503 with Retry-After at once (ingest may go
 *                to the spool instead), and the store is tried again in the background with a
 *                capped backoff (`load()` until it first succeeds, then `probe()`), never waiting
 *                for a request to come by.
 *
 * Each change of state is logged once (`PostgreSQL at host:5432 unreachable (ECONNREFUSED);
 * retrying` … `PostgreSQL at host:5432 connected`), not once per failed request. The machine
 * behind these three names (unavailable is `waiting` or `retrying`) and every move between its
 * states: loading-state.ts, used only through `StorageState.on`.
 */
import { HttpError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import { storageMove, type LoadingEvent, type LoadingStateName } from './loading-state.js';
import type { EventStore } from './store.js';

export type StorageStateName = 'connecting' | 'ready' | 'unavailable';

/** What ping, the devtools page and the CLI are told about the store. */
export interface StorageStatus {
  state: StorageStateName;
  /** Why the store is unavailable (`unreachable (ECONNREFUSED)`), when it is. */
  reason?: string;
  /** The ingest spool, when the collector has one. */
  spool?: { batches: number; bytes: number; maxBytes: number; draining: boolean };
}

/** Seconds a client is asked to wait (Retry-After) while the store is unavailable. */
export const RETRY_AFTER_SECONDS = 2;
/** Background retries: the first after this long, doubling up to the cap. */
export const RETRY_MIN_MS = 250;
export const RETRY_MAX_MS = 2000;
/** A ping re-checks a ready store at most this often (PostgreSQL: one `SELECT 1`). */
const PROBE_EVERY_MS = 1000;

const kUnavailable = Symbol.for('mockyard.storageUnavailable');

/**
 * The error a store throws when its storage cannot be reached (connection refused or lost, the
 * database shutting down or starting up): a 503 with Retry-After whose message the client may
 * see (`reason`, e.g. `unreachable (ECONNREFUSED)`, says what happened, never where); the
 * collector then marks the store unavailable. Anything else a store throws is a plain failure of
 * that one call.
 */
export function storageUnavailable(reason: string, cause?: unknown): HttpError {
  const err = new HttpError(503, `Event storage is ${reason}; try again later`, { headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) }, cause });
  (err as unknown as Record<symbol, string>)[kUnavailable] = reason;
  return err;
}

/** The reason given to `storageUnavailable`, or undefined for any other error. */
export function unavailableReason(err: unknown): string | undefined {
  return err && typeof err === 'object' ? ((err as Record<symbol, string | undefined>)[kUnavailable]) : undefined;
}

/** The 503 answered while the store is unavailable (or has never loaded). */
export function unavailableError(status: StorageStatus): HttpError {
  const reason = status.reason ?? 'not connected yet';
  return new HttpError(503, `Event storage is ${reason}; try again later`, { headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) } });
}

/** The reason of a failed load: the store's own, else the error's code (its message goes to the log). */
function describeError(err: unknown): string {
  const reason = unavailableReason(err);
  if (reason) return reason;
  const code = (err as { code?: unknown } | null)?.code;
  return `not loaded (${typeof code === 'string' ? code : 'error'})`;
}

/** What the status calls each state (closed: the last one). */
const STATUS_NAME: { readonly [S in LoadingStateName]?: StorageStateName } = { connecting: 'connecting', ready: 'ready', waiting: 'unavailable', retrying: 'unavailable' };

type Loading =
  | { name: 'connecting' | 'ready' | 'closed' }
  | { name: 'waiting'; delay: number; timer: ReturnType<typeof setTimeout> }
  | { name: 'retrying'; delay: number };

export class StorageState {
  private loading: Loading = { name: 'connecting' };
  /** The status's name: changes of it are logged and told to listeners. */
  private name: StorageStateName = 'connecting';
  private reason: string | undefined;
  /** What the log adds to the reason of a failed attempt (the error's message). */
  private detail: string | undefined;
  /** What an attempt does: `load()` until it has succeeded once, then `probe()` when the store has one. */
  private attemptWith: 'load' | 'probe' = 'load';
  /** What the store has been so far (how the log words the next `ready`). */
  private readonly seen = { ready: false, unavailable: false };
  private readonly listeners = new Set<(status: StorageStatus) => void>();
  private lastProbe = 0;
  private probing: Promise<void> | undefined;
  /** Settles once the first load attempt is over (loaded or not). */
  readonly firstAttempt: Promise<void>;

  constructor(
    private readonly store: EventStore,
    private readonly logger: Logger,
    /** What the log calls the store (`PostgreSQL at 127.0.0.1:5432`, `the events folder`). */
    private readonly label: string,
    /** Runs after every successful (re)load, before the state turns ready (retention, warming). */
    private readonly onLoaded: () => Promise<void>,
  ) {
    this.firstAttempt = this.attempt();
  }

  get state(): StorageStateName {
    return this.name;
  }

  /** The loading machine's state (finer than the status: waiting or retrying while unavailable; closed). */
  get loadingState(): LoadingStateName {
    return this.loading.name;
  }

  get ready(): boolean {
    return this.name === 'ready';
  }

  status(): StorageStatus {
    return this.reason === undefined || this.name === 'ready' ? { state: this.name } : { state: this.name, reason: this.reason };
  }

  onChange(listener: (status: StorageStatus) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * A store call failed: when the store says it is unavailable, the state turns unavailable and
   * the background retries start. Returns whether it was that kind of failure.
   */
  failed(err: unknown): boolean {
    const reason = unavailableReason(err);
    if (reason === undefined || this.loading.name === 'closed') return false;
    this.reason = reason;
    this.detail = undefined;
    this.on('failed');
    return true;
  }

  /** Throws the 503 unless the store is ready. */
  assertReady(): void {
    if (this.name !== 'ready') throw unavailableError(this.status());
  }

  /**
   * A fresh look (ping): a ready store is probed (at most once a second, shared by concurrent
   * callers), so an outage shows without waiting for an ingest to fail.
   */
  async check(): Promise<StorageStatus> {
    if (this.name === 'ready' && this.store.probe && Date.now() - this.lastProbe >= PROBE_EVERY_MS) {
      this.probing ??= this.store.probe().then(
        () => {
          this.lastProbe = Date.now();
        },
        (err: unknown) => {
          this.lastProbe = Date.now();
          this.failed(err);
        },
      ).finally(() => (this.probing = undefined));
      await this.probing;
    }
    return this.status();
  }

  /** One try: `load()` until it has succeeded once, then `probe()` (or `load()` again without one). */
  private async attempt(): Promise<void> {
    try {
      if (this.attemptWith === 'probe' && this.store.probe) {
        await this.store.probe();
      } else {
        await this.store.load();
        this.attemptWith = 'probe';
      }
      await this.onLoaded();
    } catch (err) {
      if (this.loading.name !== 'closed') {
        this.reason = describeError(err);
        this.detail = unavailableReason(err) === undefined ? String((err as Error)?.message ?? err) : undefined;
      }
      this.on('loadFailed');
      return;
    }
    this.lastProbe = Date.now();
    this.on('loaded');
  }

  /**
   * The one way the state changes: the table's move for `event`. Entering `waiting` starts its
   * timer (250 ms, doubling after each failed retry up to 2 s), leaving it ends it; entering
   * `retrying` starts an attempt. A change of the status's name is logged and told once.
   */
  private on(event: LoadingEvent): void {
    const from = this.loading;
    const to = storageMove(from.name, event);
    if (to === from.name) return;
    if (from.name === 'waiting') clearTimeout(from.timer);
    if (to === 'waiting') {
      const delay = from.name === 'retrying' ? Math.min(RETRY_MAX_MS, from.delay * 2) : RETRY_MIN_MS;
      const timer = setTimeout(() => this.on('due'), delay);
      (timer as { unref?: () => void }).unref?.();
      this.loading = { name: to, delay, timer };
    } else if (to === 'retrying') {
      this.loading = { name: to, delay: from.name === 'waiting' ? from.delay : RETRY_MIN_MS };
      void this.attempt();
    } else {
      this.loading = { name: to };
    }
    const name = STATUS_NAME[to];
    if (name !== undefined && name !== this.name) this.told(name);
  }

  /** The status's name changed: logged (`unreachable (ECONNREFUSED); retrying` … `connected`) and told once. */
  private told(name: StorageStateName): void {
    this.name = name;
    if (name === 'ready') {
      // A store with probe() is a connection (a database); the others are loaded (a folder).
      // An embedded store loading at once is not news; after trouble it is.
      const done = this.store.probe ? 'connected' : 'loaded';
      if (this.store.probe || this.seen.unavailable) this.logger.info(`tracker: ${this.label} ${this.seen.ready ? `${done} again` : done}`);
      this.seen.ready = true;
    } else if (name === 'unavailable') {
      this.seen.unavailable = true;
      // Error level: the collector answers 503 until it is back (logLevel 'error' still shows why).
      this.logger.error(`tracker: ${this.label} ${this.reason}${this.detail ? ` (${this.detail})` : ''}; retrying`);
    }
    const status = this.status();
    for (const l of [...this.listeners]) l(status);
  }

  close(): void {
    this.on('close');
  }
}
