/**
 * The few things the PostgreSQL store needs from a client, over two of them:
 *   - postgres.js (`postgres`, the driver we ship): a pool for a URL, or the caller's `sql`;
 *   - PGlite (`@electric-sql/pglite`): PostgreSQL compiled to WASM, in-process, one connection
 *     (tests and zero set-up; one process only).
 * Values travel as text both ways (timestamps as ISO strings, bigints as strings, arrays as
 * `$n::type[]` parameters), so both clients behave alike.
 */
import type postgres from 'postgres';

export type Row = Record<string, unknown>;

export interface Queryable {
  /**
   * `prepared`: a statement run again and again with the same text (ingest, barriers): prepared
   * once per connection, then one round trip each (postgres.js; PGlite ignores it). Unprepared
   * parameterised queries cost postgres.js a describe round trip first.
   */
  query<R extends Row = Row>(text: string, params?: unknown[], prepared?: boolean): Promise<R[]>;
  /** The rows of one query, `rows` at a time, through a server-side cursor (postgres.js snapshots). */
  cursor?<R extends Row = Row>(text: string, params: unknown[], rows: number): AsyncIterable<R[]>;
  /**
   * The same with every value as the bytes the server sent (text format; null for NULL): long
   * texts go on without being decoded into strings (postgres.js snapshots).
   */
  rawCursor?(text: string, params: unknown[], rows: number): AsyncIterable<Array<Array<Uint8Array | null>>>;
}

export interface SqlClient extends Queryable {
  readonly kind: 'postgres.js' | 'pglite';
  /** A pool we opened for a URL (ours to end and to open again), not a client passed in. */
  readonly owned: boolean;
  /** Runs `fn` in one transaction (committed when it resolves, rolled back when it throws). */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /**
   * A read-only REPEATABLE READ snapshot on a connection of its own, held until `end()`
   * (postgres.js). PGlite has one connection: its reads run inside `transaction()` instead.
   */
  snapshot?(): Promise<Queryable & { end(): Promise<void> }>;
  /**
   * LISTEN on `channel`; notifications (also our own) go to `onPayload`. `onListen` runs each time
   * the listening connection (re)subscribes: notifications sent while it was down are lost.
   */
  listen(channel: string, onPayload: (payload: string) => void, onListen?: () => void): Promise<void>;
  /** Closes the pool when we opened it (a client passed in stays open). */
  end(): Promise<void>;
}

type PostgresSql = postgres.Sql<Record<string, never>>;

interface PGliteLike {
  query<R>(text: string, params?: unknown[]): Promise<{ rows: R[] }>;
  exec(text: string): Promise<unknown>;
  transaction<T>(fn: (tx: { query<R>(text: string, params?: unknown[]): Promise<{ rows: R[] }> }) => Promise<T>): Promise<T>;
  listen(channel: string, cb: (payload: string) => void): Promise<unknown>;
  close(): Promise<void>;
}

export function isPGlite(client: unknown): client is PGliteLike {
  const c = client as Partial<PGliteLike> | null;
  return !!c && typeof c === 'object' && typeof c.query === 'function' && typeof c.exec === 'function' && typeof c.transaction === 'function' && typeof c.listen === 'function';
}

export function isPostgresJs(client: unknown): client is PostgresSql {
  const c = client as { unsafe?: unknown; begin?: unknown } | null;
  return typeof client === 'function' && typeof c!.unsafe === 'function' && typeof c!.begin === 'function';
}

function fromPostgresJs(sql: PostgresSql, owned: boolean): SqlClient {
  const query = <R extends Row>(q: { unsafe: PostgresSql['unsafe'] }, text: string, params: unknown[] = [], prepare = false) =>
    q.unsafe(text, params as never[], { prepare }) as unknown as Promise<R[]>;
  return {
    kind: 'postgres.js',
    owned,
    query: (text, params, prepared) => query(sql, text, params, prepared),
    transaction: (fn) => sql.begin((tx) => fn({ query: (text, params, prepared) => query(tx, text, params, prepared) })) as Promise<never>,
    async snapshot() {
      const reserved = await sql.reserve();
      try {
        await reserved.unsafe('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      } catch (err) {
        reserved.release();
        throw err;
      }
      let ended = false;
      return {
        query: (text, params, prepared) => query(reserved, text, params, prepared),
        cursor: (text, params, rows) => reserved.unsafe(text, params as never[]).cursor(rows) as never,
        rawCursor: (text, params, rows) => reserved.unsafe(text, params as never[]).raw().cursor(rows) as never,
        async end() {
          if (ended) return;
          ended = true;
          try {
            await reserved.unsafe('COMMIT');
          } finally {
            reserved.release();
          }
        },
      };
    },
    async listen(channel, onPayload, onListen) {
      await sql.listen(channel, onPayload, onListen);
    },
    async end() {
      if (owned) await sql.end({ timeout: 5 });
    },
  };
}

function fromPGlite(db: PGliteLike, owned: boolean): SqlClient {
  return {
    kind: 'pglite',
    owned,
    query: async (text, params) => (await db.query(text, params)).rows as never,
    transaction: (fn) => db.transaction((tx) => fn({ query: async (text, params) => (await tx.query(text, params)).rows as never })),
    async listen(channel, onPayload, onListen) {
      await db.listen(channel, onPayload);
      onListen?.();
    },
    async end() {
      if (owned) await db.close();
    },
  };
}

/** A client for `url` (a postgres.js pool we own) or the caller's `client`. */
export async function openSqlClient(options: { url?: string; client?: unknown; maxConnections?: number }): Promise<SqlClient> {
  if (options.client !== undefined) {
    if (isPGlite(options.client)) return fromPGlite(options.client, false);
    if (isPostgresJs(options.client)) return fromPostgresJs(options.client, false);
    throw new TypeError('client must be a postgres.js sql instance or a PGlite database');
  }
  const { default: connect } = await import('postgres');
  const sql = connect(options.url!, {
    max: options.maxConnections ?? 10,
    onnotice: () => {},
    // An unanswered connect fails within this many seconds (the collector reports the database
    // unreachable and retries), not after postgres.js's default 30.
    connect_timeout: 10,
    // Our own text round trips: timestamps and bigints as the server's text.
    types: {},
    transform: { undefined: null },
    connection: { application_name: 'mockyard-collector' },
  }) as unknown as PostgresSql;
  return fromPostgresJs(sql, true);
}
