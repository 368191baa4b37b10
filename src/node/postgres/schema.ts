/**
 * The PostgreSQL store's schema, created idempotently at start-up and versioned:
 *
 *   <schema>.<table>_version   (version, applied_at): migrations applied, one row each
 *   <schema>.<table>           events, PARTITION BY RANGE (ts), one partition per UTC day
 *                              (<table>_pYYYYMMDD), created ahead and on demand:
 *       app_id text, ts timestamptz, seq bigint (ingest order, from <table>_seq),
 *       id uuid (UUIDv7, assigned by the collector), batch uuid (the batch's key), body text
 *       (the event's JSON exactly as served: reads never re-serialise)
 *       index (app_id, ts, seq): window reads, keyset paging, counts
 *   <schema>.<table>_batches   (app_id, batch_id) primary key, saved, stored_at: client batchIds
 *
 * Every DDL step runs in a transaction holding an advisory lock named after the table, so many
 * collector processes starting at once (or creating the same day's partition) never race.
 */
import type { Queryable, SqlClient } from './sql-client.js';

export const SCHEMA_VERSION = 1;
const DAY_MS = 86_400_000;
const NAME = /^[a-z_][a-z0-9_]{0,40}$/;

export interface Names {
  schema: string;
  table: string;
  /** Quoted, schema-qualified names. */
  events: string;
  version: string;
  batches: string;
  seq: string;
  /** LISTEN/NOTIFY channel. */
  channel: string;
  /** Advisory lock key text. */
  lock: string;
}

export function namesFor(schema: string, table: string): Names {
  for (const [what, v] of [['schema', schema], ['table', table]] as const) {
    if (!NAME.test(v)) throw new TypeError(`${what} must be a lower-case SQL identifier (letters, digits, _; up to 41 characters), got ${JSON.stringify(v)}`);
  }
  const q = (n: string) => `"${schema}"."${n}"`;
  return {
    schema,
    table,
    events: q(table),
    version: q(`${table}_version`),
    batches: q(`${table}_batches`),
    seq: q(`${table}_seq`),
    channel: `mockyard_${schema}_${table}`,
    lock: `mockyard:${schema}.${table}`,
  };
}

/** Day number (UTC days since the epoch) of an epoch-ms time. */
export const dayOf = (t: number) => Math.floor(t / DAY_MS);

export function partitionName(names: Names, day: number): string {
  return `${names.table}_p${new Date(day * DAY_MS).toISOString().slice(0, 10).replace(/-/g, '')}`;
}

/** Day number of a partition's name, or undefined for other tables. */
export function partitionDay(names: Names, name: string): number | undefined {
  const m = new RegExp(`^${names.table}_p(\\d{4})(\\d{2})(\\d{2})$`).exec(name);
  return m ? dayOf(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))) : undefined;
}

const lock = (tx: Queryable, names: Names) => tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [names.lock]);

/** Creates or upgrades the schema; returns the version found before (0 for a new database). */
export async function migrate(sql: SqlClient, names: Names): Promise<number> {
  return sql.transaction(async (tx) => {
    await lock(tx, names);
    await tx.query(`CREATE SCHEMA IF NOT EXISTS "${names.schema}"`);
    await tx.query(`CREATE TABLE IF NOT EXISTS ${names.version} (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`);
    const [row] = await tx.query<{ v: number | null }>(`SELECT max(version)::int AS v FROM ${names.version}`);
    const found = row?.v ?? 0;
    if (found > SCHEMA_VERSION) throw new Error(`the database holds schema version ${found} of ${names.events}; this mockyard knows up to ${SCHEMA_VERSION} (upgrade mockyard)`);
    if (found < 1) {
      await tx.query(`CREATE SEQUENCE IF NOT EXISTS ${names.seq}`);
      await tx.query(`CREATE TABLE IF NOT EXISTS ${names.events} (
        app_id text NOT NULL,
        ts timestamptz NOT NULL,
        seq bigint NOT NULL DEFAULT nextval('${names.seq}'),
        id uuid NOT NULL,
        batch uuid NOT NULL,
        body text NOT NULL
      ) PARTITION BY RANGE (ts)`);
      await tx.query(`CREATE INDEX IF NOT EXISTS "${names.table}_app_ts_seq" ON ${names.events} (app_id, ts, seq)`);
      await tx.query(`CREATE TABLE IF NOT EXISTS ${names.batches} (
        app_id text NOT NULL,
        batch_id text NOT NULL,
        saved integer NOT NULL,
        stored_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (app_id, batch_id)
      )`);
      await tx.query(`INSERT INTO ${names.version} (version) VALUES (1) ON CONFLICT DO NOTHING`);
    }
    return found;
  });
}

/** The days that have a partition. */
export async function listPartitions(sql: Queryable, names: Names): Promise<number[]> {
  const rows = await sql.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_inherits i
       JOIN pg_class c ON c.oid = i.inhrelid
       JOIN pg_class p ON p.oid = i.inhparent
       JOIN pg_namespace n ON n.oid = p.relnamespace
     WHERE n.nspname = $1 AND p.relname = $2`,
    [names.schema, names.table],
  );
  return rows.map((r) => partitionDay(names, r.name)).filter((d): d is number => d !== undefined).sort((a, b) => a - b);
}

/** Creates the partitions of `days` that do not exist yet. */
export async function createPartitions(sql: SqlClient, names: Names, days: Iterable<number>): Promise<void> {
  const list = [...new Set(days)].sort((a, b) => a - b);
  if (list.length === 0) return;
  await sql.transaction(async (tx) => {
    await lock(tx, names);
    for (const day of list) {
      const from = new Date(day * DAY_MS).toISOString();
      const to = new Date((day + 1) * DAY_MS).toISOString();
      await tx.query(`CREATE TABLE IF NOT EXISTS "${names.schema}"."${partitionName(names, day)}" PARTITION OF ${names.events} FOR VALUES FROM ('${from}') TO ('${to}')`);
    }
  });
}

/**
 * Drops the partitions of `days` (retention), announcing it on the store's channel in the same
 * transaction (`payload`): every process then drops the deflated buckets it holds.
 */
export async function dropPartitions(sql: SqlClient, names: Names, days: number[], payload: string): Promise<void> {
  if (days.length === 0) return;
  await sql.transaction(async (tx) => {
    await lock(tx, names);
    for (const day of days) await tx.query(`DROP TABLE IF EXISTS "${names.schema}"."${partitionName(names, day)}"`);
    await tx.query('SELECT pg_notify($1, $2)', [names.channel, payload]);
  });
}
