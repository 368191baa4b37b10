/**
 * `postgresStore(options)`: the collector's events in PostgreSQL, for
 * `createCollector({ storage: { store: postgresStore({ url }) } })`, or the same through
 * `tracker.storage.postgres`, `--tracker-db URL` and `MOCKYARD_TRACKER_DB`.
 *
 * This module is small and imported by the Node entry; the store itself (store.ts, the schema,
 * the postgres.js driver) is imported when a collector first loads it.
 */
import { OptionsError } from '../../core/options.js';
import { lazyStore, type StoreFactory } from '../../tracker/store.js';
import type { PostgresStoreOptions } from '../../tracker/types.js';
import { isPGlite, isPostgresJs } from './sql-client.js';
import { postgresLabel } from './unreachable.js';

export type { PostgresStoreOptions };

/** Validates the options at start-up (OptionsError naming `name`) and returns the factory. */
export function postgresStore(options: string | PostgresStoreOptions, name = 'postgresStore'): StoreFactory {
  const o: PostgresStoreOptions = typeof options === 'string' ? { url: options } : options;
  if (!o || typeof o !== 'object' || Array.isArray(o)) throw new OptionsError(name, 'must be a postgres:// URL or { url | client, schema?, table? }');
  for (const key of Object.keys(o)) {
    if (!['url', 'client', 'schema', 'table', 'maxConnections'].includes(key)) throw new OptionsError(`${name}.${key}`, 'is not an option (url, client, schema, table, maxConnections)');
  }
  if ((o.url === undefined) === (o.client === undefined)) throw new OptionsError(name, 'needs exactly one of url and client');
  if (o.url !== undefined && (typeof o.url !== 'string' || !/^postgres(ql)?:\/\//.test(o.url))) {
    throw new OptionsError(typeof options === 'string' ? name : `${name}.url`, 'must be a postgres:// or postgresql:// URL');
  }
  if (o.client !== undefined && !isPGlite(o.client) && !isPostgresJs(o.client)) {
    throw new OptionsError(`${name}.client`, 'must be a postgres.js sql instance or a PGlite database');
  }
  const ident = (v: unknown, key: string, fallback: string) => {
    if (v === undefined) return fallback;
    if (typeof v !== 'string' || !/^[a-z_][a-z0-9_]{0,40}$/.test(v)) throw new OptionsError(`${name}.${key}`, 'must be a lower-case SQL identifier (letters, digits, _; up to 41 characters)');
    return v;
  };
  const schema = ident(o.schema, 'schema', 'public');
  const table = ident(o.table, 'table', 'mockyard_events');
  if (o.maxConnections !== undefined && (!Number.isInteger(o.maxConnections) || o.maxConnections < 1)) throw new OptionsError(`${name}.maxConnections`, 'must be an integer >= 1');
  const settings = { url: o.url, client: o.client, schema, table, maxConnections: o.maxConnections };
  return (context) => lazyStore(import('./store.js').then((m) => new m.PostgresEventStore(settings, context)), postgresLabel(settings.url));
}
