/**
 * PostgresEventStore: the collector's events in PostgreSQL. Node only; imported on
 * demand by `postgresStore()` (index.ts), so nothing loads it unless a collector is configured
 * with `storage.postgres`.
 *
 *   - Ingest: one batch = one prepared statement, so one transaction and one round trip (client
 *     batchId row, every event in one `INSERT … SELECT` from three texts, `pg_notify`),
 *     acknowledged after COMMIT. Ids are UUIDv7 from the collector, as in the embedded store;
 *     `body` is the event's JSON as served.
 *   - Read: a REPEATABLE READ snapshot: the exact `count(*)` of the window, then pages of
 *     `body` newest first (ts DESC, seq DESC) pulled as the response is written (keyset: each page
 *     continues after the last row of the one before; `page` = OFFSET, `cursor` = the row's
 *     (ts, seq)). A whole-window gzip read (the dashboard's) goes by 5-minute buckets instead,
 *     from the deflated buckets the process holds (bucket-read.ts, bucket-pieces.ts) once a
 *     NOTIFY barrier shows them current (change-barrier.ts). PGlite has one connection, so its
 *     reads collect the window inside one transaction instead of holding it while the client reads.
 *   - Many processes: every batch is announced with NOTIFY (payload: the batch's key, its seq and
 *     time range, the sending process; well under the 8000-byte limit); every process drops the
 *     held buckets of that time range, the others fetch those rows and push them to their
 *     WebSocket clients. Retention's partition drops are announced too (all buckets go).
 *   - Delete of a time range (`deleteRange`, the dashboard's): one DELETE, announced like a drop.
 *   - Partitions: one per UTC day, created ahead (yesterday to 2 days ahead, re-checked with
 *     retention) and on demand for the days a batch touches; retention drops whole partitions.
 */
import { HttpError } from '../../core/errors.js';
import { storageUnavailable } from '../../tracker/storage-state.js';
import type { Logger } from '../../core/logger.js';
import { newEventId } from '../../tracker/event-id.js';
import type { ValidBatch } from '../../tracker/ingest-batch.js';
import { encodeCursor, type ReadQuery } from '../../tracker/read-query.js';
import type { EventStore, StoreContext, StoredBatch, StreamedSelection } from '../../tracker/store.js';
import { parseTimestamp } from '../../tracker/timestamp.js';
import { createPartitions, dayOf, dropPartitions, listPartitions, migrate, namesFor, partitionName, type Names } from './schema.js';
import { openSqlClient, type Queryable, type SqlClient } from './sql-client.js';
import { BucketPieces, bucketOf } from './bucket-pieces.js';
import { selectBuckets, type BucketCache } from './bucket-read.js';
import { ChangeBarrier } from './change-barrier.js';
import type { DeflatedPiece } from '../../tracker/gzip-pieces.js';
import { BATCH_ID_WINDOW_MS } from '../../tracker/batch-ids.js';
import { asUnavailable, postgresLabel, unreachableReason } from './unreachable.js';
import { holdDriverGuard } from './driver-guard.js';

export interface PostgresStoreSettings {
  url?: string;
  client?: unknown;
  schema: string;
  table: string;
  maxConnections?: number;
}

/** Rows per page of a streamed read. */
const PAGE_ROWS = 5000;
const DAY_MS = 86_400_000;
/** `size`'s count of the app's events waits this long after start-up. */
const COUNT_DELAY_MS = 3000;
/** Quiet time after changes before the held buckets of the last day are read again. */
const WARM_DELAY_MS = 1000;
/** Background warming runs while whole-window reads came within this time (and at start-up). */
const WARM_WHILE_READ_MS = 10 * 60_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** NOTIFY payloads must stay under 8000 bytes. */
const MAX_NOTIFY_BYTES = 7900;

const iso = (t: number) => new Date(t).toISOString();

/**
 * The WHERE clause (and its parameters) of a window [since, before), continuing after a row's
 * (ts, seq) or, when that row is gone, before a time.
 */
function windowWhere(appId: string, since: string, before: string, after?: { ts: string; seq: string }, beforeTime?: string): { where: string; params: unknown[] } {
  const params: unknown[] = [appId, since, before];
  let where = `app_id = $1 AND ts >= $2::timestamptz AND ts < $3::timestamptz`;
  if (after) {
    params.push(after.ts, after.seq);
    where += ` AND (ts, seq) < ($4::timestamptz, $5::bigint)`;
  } else if (beforeTime) {
    params.push(beforeTime);
    where += ` AND ts < $4::timestamptz`;
  }
  return { where, params };
}

/** A stored batch, as NOTIFY announces it. */
interface Announcement {
  /** Sending process. */
  o: string;
  a: string;
  /** Batch key (uuid). */
  k: string;
  /** seq range. */
  s: [string, string];
  /** Time range, ISO. */
  t: [string, string];
}

/** Anything on the channel: a batch, a barrier (`b`, change-barrier.ts) or dropped partitions (`x`). */
type Notice = Partial<Announcement> & { b?: number; x?: string };

export class PostgresEventStore implements EventStore {
  private sql: SqlClient | undefined;
  private readonly names: Names;
  private readonly appId: string;
  private readonly logger: Logger;
  private readonly maxAgeMs: number | undefined;
  private readonly retainEvents: number | undefined;
  /** Days known to have a partition. */
  private readonly days = new Set<number>();
  private readonly listeners: Array<(lines: string[]) => void> = [];
  /** Identifies this process's notifications. */
  private readonly origin = newEventId();
  private counted = 0;
  private storedHere = 0;
  private readonly writes = new Set<Promise<unknown>>();
  /** Notifications are turned into pushes one at a time, in arrival order. */
  private announcing: Promise<void> = Promise.resolve();
  private closed = false;
  /**
   * Deflated buckets of whole-window gzip reads (bucket-pieces.ts); undefined when batches cannot
   * be announced (an appId too long for a NOTIFY payload), since then changes would go unseen.
   */
  private readonly pieces: BucketPieces | undefined;
  private readonly barrier: ChangeBarrier;
  private readonly announces: boolean;
  private warmTimer: ReturnType<typeof setTimeout> | undefined;
  private warming: Promise<void> | undefined;
  private lastWholeRead = 0;
  /** Whole-window reads of clients under way (a background warm gives way to them). */
  private clientReads = 0;

  constructor(private readonly settings: PostgresStoreSettings, context: StoreContext) {
    this.names = namesFor(settings.schema, settings.table);
    this.appId = context.appId;
    this.logger = context.logger;
    this.maxAgeMs = context.maxAgeMs;
    this.retainEvents = context.retainEvents;
    this.announces = JSON.stringify({ o: this.origin, a: this.appId, k: this.origin }).length + 200 <= MAX_NOTIFY_BYTES;
    this.pieces = this.announces ? new BucketPieces() : undefined;
    this.barrier = new ChangeBarrier(this.origin, (payload) => this.db.query('SELECT pg_notify($1, $2)', [this.names.channel, payload], true));
  }

  private get db(): SqlClient {
    if (!this.sql) throw storageUnavailable('not connected yet');
    return this.sql;
  }

  get size(): number {
    return this.counted + this.storedHere;
  }

  /** What the log calls this store: `PostgreSQL at host:port` (never the user or password). */
  get label(): string {
    return postgresLabel(this.settings.url);
  }

  /**
   * Connects, migrates, lists partitions and subscribes. Safe to call again after a failure (the
   * collector retries it while the database is unreachable): the pool is opened once and each
   * step that succeeded is not repeated.
   */
  async load(): Promise<void> {
    try {
      await this.loadOnce();
    } catch (err) {
      throw this.unreachable(err);
    }
  }

  private loadedSteps = { migrated: false, listening: false };
  /** Releases driver-guard.ts's hold for the pool we opened. */
  private releaseGuard: (() => void) | undefined;

  /**
   * The error to throw for a client error: storageUnavailable() when the database cannot be
   * reached, and then the pool we opened is dropped (its connections may be left unusable by a
   * driver bug, driver-guard.ts): the next load() opens a new one and subscribes again.
   */
  private unreachable(err: unknown): unknown {
    const e = asUnavailable(err);
    if (e !== err) this.dropPool();
    return e;
  }

  private dropPool(): void {
    const sql = this.sql;
    if (!sql?.owned) return;
    this.sql = undefined;
    this.loadedSteps.listening = false;
    const release = this.releaseGuard;
    this.releaseGuard = undefined;
    void sql.end().catch(() => {}).finally(() => release?.());
  }

  private async loadOnce(): Promise<void> {
    if (!this.sql) {
      const opened = await openSqlClient(this.settings);
      if (this.closed) {
        await opened.end();
        throw storageUnavailable('closed');
      }
      this.sql = opened;
      if (opened.owned) this.releaseGuard = holdDriverGuard(this.logger);
    }
    const sql = this.sql;
    if (!this.loadedSteps.migrated) {
      const before = await migrate(sql, this.names);
      if (before === 0) this.logger.info(`tracker: created the PostgreSQL schema for ${this.names.events} (version 1)`);
      for (const d of await listPartitions(sql, this.names)) this.days.add(d);
      this.loadedSteps.migrated = true;
    }
    await this.ensureAhead(Date.now());
    if (!this.loadedSteps.listening) {
      // Each (re)subscription may have missed notifications: the held buckets go.
      await sql.listen(this.names.channel, (payload) => this.announced(payload), () => this.pieces?.clear());
      this.loadedSteps.listening = true;
    }
    // The app's count for `size`, in the background and after start-up (counting 10M rows keeps
    // a server core busy for seconds: not while the first reads are answered).
    const count = setTimeout(() => {
      if (this.closed) return;
      void sql.query<{ n: string }>(`SELECT count(*)::text AS n FROM ${this.names.events} WHERE app_id = $1`, [this.appId]).then(
        ([row]) => (this.counted = Number(row?.n ?? 0)),
        () => {},
      );
    }, COUNT_DELAY_MS);
    count.unref?.();
    // Warm the last day once start-up is over (not competing with the first answers).
    this.scheduleWarm(WARM_DELAY_MS);
  }

  /** Resolves when the database answers now; storageUnavailable() when it cannot be reached. */
  async probe(): Promise<void> {
    if (!this.sql) return this.load();
    try {
      await this.sql.query('SELECT 1');
    } catch (err) {
      throw this.unreachable(err);
    }
  }

  private async ensureAhead(now: number): Promise<void> {
    const today = dayOf(now);
    await this.ensureDays([today - 1, today, today + 1, today + 2]);
  }

  private async ensureDays(days: Iterable<number>): Promise<void> {
    const missing = [...days].filter((d) => !this.days.has(d));
    if (missing.length === 0) return;
    await createPartitions(this.db, this.names, missing);
    for (const d of missing) this.days.add(d);
  }

  onBatch(listener: (lines: string[]) => void): void {
    this.listeners.push(listener);
  }

  async append(batch: ValidBatch, now = Date.now()): Promise<StoredBatch> {
    const work = this.appendNow(batch, now).catch((err: unknown) => {
      throw this.unreachable(err);
    });
    this.writes.add(work);
    try {
      return await work;
    } finally {
      this.writes.delete(work);
    }
  }

  private async appendNow(batch: ValidBatch, now: number): Promise<StoredBatch> {
    const { events, times, batchId } = batch;
    const n = events.length;
    const lines: string[] = new Array(n);
    const ids: string[] = new Array(n);
    const stamps: number[] = new Array(n);
    const days = new Set<number>();
    let minT = Infinity;
    let maxT = -Infinity;
    for (let i = 0; i < n; i++) {
      const id = newEventId(now);
      ids[i] = id;
      lines[i] = JSON.stringify({ ...events[i], id });
      const t = times[i]!;
      stamps[i] = Math.trunc(t);
      days.add(dayOf(t));
      if (t < minT) minT = t;
      if (t > maxT) maxT = t;
    }
    const key = ids[0]!;
    await this.ensureDays(days);
    // One statement, so one round trip and one implicit transaction (all or nothing, answered
    // after COMMIT): claim the client batchId (inserted, or taken over when the earlier one is
    // past the window; no row = a retry), insert the events unless the claim failed, announce the
    // batch with pg_notify (delivered on COMMIT, never for a rolled-back batch). The events travel
    // as three plain texts (times in epoch ms and ids comma-separated, the lines as one JSON
    // array whose elements the server hands back as their exact text): no array literal to escape
    // per event, and a prepared statement (one round trip).
    const prefix = JSON.stringify({ o: this.origin, a: this.appId, k: key }).slice(0, -1);
    const announce = this.announces;
    if (!announce) this.logger.warn('tracker: appId too long to announce a batch to other processes (NOTIFY payload limit)');
    const claim = batchId === undefined
      ? 'SELECT 1 AS ok WHERE $6::text IS NULL AND $7::int > 0 AND $8::bigint > 0' // (types every parameter)
      : `INSERT INTO ${this.names.batches} AS b (app_id, batch_id, saved) VALUES ($1, $6, $7)
           ON CONFLICT (app_id, batch_id) DO UPDATE SET saved = EXCLUDED.saved, stored_at = now()
             WHERE b.stored_at < now() - ($8::bigint * interval '1 millisecond')
           RETURNING 1 AS ok`;
    const text = `WITH claim AS (${claim}),
      ins AS (
        INSERT INTO ${this.names.events} (app_id, ts, id, batch, body)
        SELECT $1, timestamptz 'epoch' + u.ms::bigint * interval '1 millisecond', u.id::uuid, $2::uuid, u.body::text
          FROM ROWS FROM (unnest(string_to_array($3::text, ',')), unnest(string_to_array($4::text, ',')), json_array_elements($5::text::json))
               WITH ORDINALITY AS u(ms, id, body, n)
         WHERE EXISTS (SELECT 1 FROM claim)
         ORDER BY u.n
        RETURNING seq),
      range AS (SELECT min(seq) AS a, max(seq) AS b, count(*) AS n FROM ins)
      SELECT (SELECT count(*) FROM claim)::int AS claimed,
             ${announce ? `(SELECT pg_notify($9, $10 || ',"s":["' || a || '","' || b || '"],"t":["' || $11 || '","' || $12 || '"]}') FROM range WHERE n > 0)` : 'NULL'} AS notified`;
    const params: unknown[] = [this.appId, key, stamps.join(','), ids.join(','), `[${lines.join(',')}]`, batchId ?? null, n, BATCH_ID_WINDOW_MS];
    if (announce) params.push(this.names.channel, prefix, iso(minT), iso(maxT));
    const run = async (): Promise<StoredBatch> => {
      const [row] = await this.db.query<{ claimed: number }>(text, params, true);
      if (row && row.claimed > 0) return { saved: n, lines };
      const [first] = await this.db.query<{ saved: number }>(`SELECT saved FROM ${this.names.batches} WHERE app_id = $1 AND batch_id = $2`, [this.appId, batchId]);
      return { saved: Number(first?.saved ?? n), lines: [] };
    };
    let stored: StoredBatch;
    try {
      stored = await run();
    } catch (err) {
      // A partition dropped by another process's retention since we cached it: create, retry once.
      if ((err as { code?: string }).code !== '23514') throw this.storageError(err, n);
      for (const d of days) this.days.delete(d);
      await this.ensureDays(days);
      try {
        stored = await run();
      } catch (again) {
        throw this.storageError(again, n);
      }
    }
    this.storedHere += stored.lines.length;
    return stored;
  }

  private storageError(err: unknown, n: number): unknown {
    if (unreachableReason(err)) return this.unreachable(err);
    this.logger.error(`tracker: could not store a batch of ${n} events in PostgreSQL: ${(err as Error)?.message ?? err}`);
    return new HttpError(500, 'Could not store the events', { cause: err });
  }

  /**
   * A notification on the store's channel, in commit order: a barrier of ours passes; dropped
   * partitions or a stored batch (any process's, ours too) drop the held buckets they touch; a
   * batch stored by another process is fetched and handed to the listeners (pushes).
   */
  private announced(payload: string): void {
    let parsed: Notice;
    try {
      parsed = JSON.parse(payload) as Notice;
    } catch {
      return;
    }
    if (parsed.b !== undefined) {
      this.barrier.received(String(parsed.o), parsed.b);
      return;
    }
    if (parsed.x !== undefined) {
      this.pieces?.clear();
      return;
    }
    const note = parsed as Announcement;
    if (note.a === this.appId && this.pieces && Array.isArray(note.t)) {
      const from = Date.parse(note.t[0]);
      const to = Date.parse(note.t[1]);
      if (Number.isFinite(from) && Number.isFinite(to)) this.pieces.invalidate(bucketOf(from), bucketOf(to));
      else this.pieces.clear();
      if (Date.now() - this.lastWholeRead < WARM_WHILE_READ_MS) this.scheduleWarm(WARM_DELAY_MS);
    }
    if (note.o === this.origin || note.a !== this.appId || this.listeners.length === 0 || this.closed) return;
    this.announcing = this.announcing.then(async () => {
      try {
        const rows = await this.db.query<{ body: string }>(
          `SELECT body FROM ${this.names.events}
            WHERE app_id = $1 AND ts >= $2::timestamptz AND ts <= $3::timestamptz AND seq >= $4::bigint AND seq <= $5::bigint AND batch = $6::uuid
            ORDER BY seq`,
          [this.appId, note.t[0], note.t[1], note.s[0], note.s[1], note.k],
        );
        const lines = rows.map((r) => r.body);
        if (lines.length) for (const l of this.listeners) l(lines);
      } catch (err) {
        this.logger.warn(`tracker: could not fetch a batch announced by another process: ${(err as Error)?.message ?? err}`);
      }
    });
  }

  async read(q: ReadQuery, options: { gzip?: boolean } = {}): Promise<StreamedSelection> {
    try {
      return await this.readWindow(q, options.gzip === true, false);
    } catch (err) {
      throw this.unreachable(err);
    }
  }

  private async readWindow(q: ReadQuery, gzip: boolean, warming: boolean): Promise<StreamedSelection> {
    const db = this.db;
    // A whole window read with gzip (the dashboard's): by 5-minute buckets, from the deflated
    // buckets this process holds (bucket-read.ts), once a barrier shows them current.
    const bucketed = gzip && q.limit === undefined && q.cursor === undefined;
    let cache: BucketCache | undefined;
    if (bucketed && this.pieces) {
      if (!warming) {
        this.lastWholeRead = Date.now();
        this.clientReads++;
      }
      cache = { pieces: this.pieces, since: this.pieces.begin() };
      if (!(await this.barrier.pass())) {
        this.pieces.end();
        this.pieces.clear();
        cache = undefined;
      }
    }
    let ended = false;
    const counted = bucketed && this.pieces !== undefined && !warming;
    const endFill = () => {
      if (ended) return;
      ended = true;
      if (cache) cache.pieces.end();
      if (counted) this.clientReads--;
    };
    const target = { events: this.names.events, appId: this.appId };
    try {
      if (db.snapshot) {
        // The snapshot is opened on first use: a window wholly held needs no connection.
        let opening: Promise<Queryable & { end(): Promise<void> }> | undefined;
        const open = () => (opening ??= db.snapshot!());
        let released: Promise<void> | undefined;
        const release = () =>
          (released ??= (async () => {
            endFill();
            const snap = await opening?.catch(() => undefined);
            await snap?.end();
          })());
        try {
          if (bucketed) {
            const sel = await selectBuckets(open, target, q, cache, release);
            if (sel) return sel;
          }
          return await this.select(await open(), q, release);
        } catch (err) {
          await release().catch(() => {});
          throw err;
        }
      }
      // PGlite: one connection; collect the window inside one transaction.
      return await db.transaction(async (tx) => {
        const none = async () => {};
        const sel = (bucketed ? await selectBuckets(async () => tx, target, q, cache, none) : undefined) ?? (await this.select(tx, q, none));
        const chunks: Array<string[] | DeflatedPiece> = [];
        for await (const c of sel.chunks) chunks.push(c);
        const total = sel.total;
        const end = sel.end();
        return { kind: 'stream', total, page: sel.page, chunks: (async function* () { yield* chunks; })(), close: async () => {}, end: () => end };
      });
    } catch (err) {
      endFill();
      throw err;
    } finally {
      if (!db.snapshot) endFill();
    }
  }

  /**
   * Reads the last day's window in the background (its whole buckets are then held deflated),
   * at start-up and a quiet second after changes while whole-window reads keep coming.
   */
  private scheduleWarm(delayMs: number): void {
    if (this.closed || !this.pieces || this.warmTimer) return;
    this.warmTimer = setTimeout(() => {
      this.warmTimer = undefined;
      if (this.closed || this.warming) return;
      this.warming = this.warm().finally(() => (this.warming = undefined));
    }, delayMs);
    this.warmTimer.unref?.();
  }

  private async warm(): Promise<void> {
    try {
      const now = Date.now();
      const sel = await this.readWindow({ since: now - DAY_MS, until: now }, true, true);
      // Gives way to clients' reads (they deflate what they need themselves).
      for await (const chunk of sel.chunks) if (this.clientReads > 0 || this.closed) break;
    } catch (err) {
      if (!this.closed) this.logger.debug(`tracker: warming the deflated buckets failed: ${(err as Error)?.message ?? err}`);
    }
  }

  /** The window as a StreamedSelection; `release` runs once its pages are read (or abandoned). */
  private async select(db: Queryable, q: ReadQuery, releaseOnce: () => Promise<void>): Promise<StreamedSelection> {
    let released: Promise<void> | undefined;
    const release = () => (released ??= releaseOnce());
    const since = iso(q.since);
    // until is inclusive to the millisecond (as the embedded store: t <= floor(until))
    const before = iso(Math.floor(q.until) + 1);
    const [count] = await db.query<{ n: string }>(
      `SELECT count(*)::text AS n FROM ${this.names.events} WHERE app_id = $1 AND ts >= $2::timestamptz AND ts < $3::timestamptz`,
      [this.appId, since, before],
    );
    const total = Number(count?.n ?? 0);
    // Where the page starts: after the cursor's row (or, when it is gone, before its time).
    let after: { ts: string; seq: string } | undefined;
    let beforeTime: string | undefined;
    if (q.cursor) {
      const row = UUID.test(q.cursor.id)
        ? (await db.query<{ ts: string; seq: string }>(
            `SELECT ts::text AS ts, seq::text AS seq FROM ${this.names.events} WHERE app_id = $1 AND ts = $2::timestamptz AND id = $3::uuid LIMIT 1`,
            [this.appId, iso(q.cursor.t), q.cursor.id],
          ))[0]
        : undefined;
      if (row) after = row;
      else beforeTime = iso(q.cursor.t);
    }
    const offset = !q.cursor && q.page !== undefined && q.limit !== undefined ? (q.page - 1) * q.limit : 0;
    const { where, params } = windowWhere(this.appId, since, before, after, beforeTime);
    // With a limit, one row more than the page tells whether there is a next page.
    const text = `SELECT body FROM ${this.names.events} WHERE ${where} ORDER BY ts DESC, seq DESC${q.limit !== undefined ? ` LIMIT ${q.limit + 1}` : ''}${offset ? ` OFFSET ${offset}` : ''}`;
    const want = q.limit ?? Infinity;
    let returned = 0;
    let lastLine: string | undefined;
    let more = false;
    const events = this.names.events;
    const window = { appId: this.appId, since, before };
    async function* pages(): AsyncGenerator<string[]> {
      try {
        if (q.limit === undefined) {
          // A whole window (the dashboard's read): pages of PAGE_ROWS events joined by the server
          // (one text per page instead of a row per event: far less work for the client), each
          // page continuing after the last one's (ts, seq).
          let key = after;
          let older = beforeTime;
          for (;;) {
            const { where: w, params: p } = windowWhere(window.appId, window.since, window.before, key, older);
            const [page] = await db.query<{ text: string | null; n: number; kts: string; kseq: string }>(
              `SELECT string_agg(body, ',' ORDER BY ts DESC, seq DESC) AS text, count(*)::int AS n,
                      (array_agg(ts::text ORDER BY ts, seq))[1] AS kts, (array_agg(seq::text ORDER BY ts, seq))[1] AS kseq
                 FROM (SELECT ts, seq, body FROM ${events} WHERE ${w} ORDER BY ts DESC, seq DESC LIMIT ${PAGE_ROWS}) page`,
              p,
            );
            if (!page || page.n === 0 || page.text === null) break;
            returned += page.n;
            yield [page.text];
            if (page.n < PAGE_ROWS) break;
            key = { ts: page.kts, seq: page.kseq };
            older = undefined;
          }
          return;
        }
        // A page: a server-side cursor where the client has one (rows at a time), else one query.
        const source: AsyncIterable<Array<{ body: string }>> = db.cursor
          ? db.cursor<{ body: string }>(text, params, PAGE_ROWS)
          : (async function* () { yield await db.query<{ body: string }>(text, params); })();
        for await (const rows of source) {
          const usable = Math.min(rows.length, want - returned);
          if (usable < rows.length) more = true;
          if (usable <= 0) continue;
          const lines = new Array<string>(usable);
          for (let i = 0; i < usable; i++) lines[i] = rows[i]!.body;
          returned += usable;
          lastLine = lines[usable - 1];
          yield lines;
        }
      } finally {
        await release();
      }
    }
    return {
      kind: 'stream',
      total,
      page: q.cursor ? null : q.page ?? 1,
      chunks: pages(),
      close: release,
      end: () => {
        if (q.limit === undefined) return { limit: returned };
        let nextCursor: string | null = null;
        if (more && lastLine) {
          const e = JSON.parse(lastLine) as { id: string; timestamp: unknown };
          nextCursor = encodeCursor(parseTimestamp(e.timestamp) as number, e.id);
        }
        return { limit: q.limit, nextCursor };
      },
    };
  }

  /**
   * Deletes this app's events with from <= ts < to in one transaction, announced on the channel
   * (`x: 'delete'`) in it, so every process drops its held buckets (this one at once too).
   */
  async deleteRange(from: number, to: number): Promise<number> {
    try {
      const n = await this.db.transaction(async (tx) => {
        const [row] = await tx.query<{ n: string }>(
          `WITH gone AS (DELETE FROM ${this.names.events} WHERE app_id = $1 AND ts >= $2::timestamptz AND ts < $3::timestamptz RETURNING 1) SELECT count(*)::text AS n FROM gone`,
          [this.appId, iso(from), iso(to)],
        );
        await tx.query('SELECT pg_notify($1, $2)', [this.names.channel, JSON.stringify({ o: this.origin, x: 'delete' })]);
        return Number(row?.n ?? 0);
      });
      this.pieces?.clear();
      this.storedHere -= n;
      return n;
    } catch (err) {
      throw this.unreachable(err);
    }
  }

  /**
   * Retention drops whole day partitions (of every app in the table): `maxAgeMs` those whose day
   * ended before now − maxAgeMs; `maxEvents` the oldest ones once all their events fall outside
   * the newest N. Expired batchIds are deleted; partitions ahead are re-checked.
   */
  async applyRetention(now = Date.now()): Promise<void> {
    try {
      await this.retain(now);
    } catch (err) {
      throw this.unreachable(err);
    }
  }

  private async retain(now: number): Promise<void> {
    const db = this.db;
    await this.ensureAhead(now);
    const days = await listPartitions(db, this.names);
    const drop = new Set<number>();
    if (this.maxAgeMs !== undefined) {
      const cutoff = now - this.maxAgeMs;
      for (const d of days) if ((d + 1) * DAY_MS <= cutoff) drop.add(d);
    }
    if (this.retainEvents !== undefined) {
      let newer = 0;
      for (let i = days.length - 1; i >= 0; i--) {
        const d = days[i]!;
        if (newer >= this.retainEvents) {
          drop.add(d);
          continue;
        }
        const [row] = await db.query<{ n: string }>(`SELECT count(*)::text AS n FROM "${this.names.schema}"."${partitionName(this.names, d)}"`);
        newer += Number(row?.n ?? 0);
      }
    }
    const today = dayOf(now);
    const gone = [...drop].filter((d) => d < today + 1);
    if (gone.length) {
      await dropPartitions(db, this.names, gone, JSON.stringify({ o: this.origin, x: 'drop' }));
      for (const d of gone) this.days.delete(d);
      this.logger.debug(`tracker: retention dropped ${gone.length} day partitions`);
    }
    await db.query(`DELETE FROM ${this.names.batches} WHERE stored_at < now() - ($1::bigint * interval '1 millisecond')`, [BATCH_ID_WINDOW_MS]);
  }

  async flush(): Promise<void> {
    while (this.writes.size) await Promise.allSettled([...this.writes]);
    await this.announcing;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.warmTimer) clearTimeout(this.warmTimer);
    await this.warming;
    this.barrier.cancel();
    await this.flush();
    await this.sql?.end();
    this.releaseGuard?.();
  }
}
