/**
 * Which PostgreSQL client errors mean "the database cannot be reached now" (the collector then
 * reports it unavailable, answers 503 or spools, and retries in the background) rather than a
 * failure of one statement: socket errors, postgres.js's connection errors, and the server's
 * SQLSTATE classes 08 (connection exception), 53 (insufficient resources: disk full, too many
 * connections) and 57P01–57P03 (shutting down, starting up).
 */
import { storageUnavailable } from '../../tracker/storage-state.js';

const SOCKET_CODES = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE',
  'CONNECTION_CLOSED', 'CONNECTION_ENDED', 'CONNECTION_DESTROYED', 'CONNECT_TIMEOUT',
]);

/** `unreachable (ECONNREFUSED)`, `not accepting connections (57P03: …)`, or undefined. */
export function unreachableReason(err: unknown): string | undefined {
  const e = err as { code?: unknown; message?: unknown; errors?: unknown[] } | null;
  if (!e || typeof e !== 'object') return undefined;
  const code = typeof e.code === 'string' ? e.code : undefined;
  if (code && SOCKET_CODES.has(code)) return `unreachable (${code})`;
  if (code && /^(08|53|57P0[123])/.test(code)) return `not accepting connections (${code}: ${String(e.message ?? '').slice(0, 120)})`;
  // Node's happy-eyeballs connect (several addresses) rejects with an AggregateError.
  if (Array.isArray(e.errors)) for (const inner of e.errors) {
    const r = unreachableReason(inner);
    if (r) return r;
  }
  return undefined;
}

/** The error to throw for a client error: storageUnavailable() when unreachable, else as is. */
export function asUnavailable(err: unknown): unknown {
  const reason = unreachableReason(err);
  return reason ? storageUnavailable(reason, err) : err;
}

/** `PostgreSQL at host:port` for a connection URL (never the user or password). */
export function postgresLabel(url: string | undefined): string {
  if (url === undefined) return 'PostgreSQL (the given client)';
  try {
    const u = new URL(url);
    return `PostgreSQL at ${u.hostname || 'localhost'}:${u.port || '5432'}`;
  } catch {
    return 'PostgreSQL';
  }
}

/** The URL with its password replaced by `***` (for messages naming the database). */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return url.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:***@');
  }
}
