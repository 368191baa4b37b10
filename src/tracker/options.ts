/**
 * Validation of createCollector options, at start-up, through core/options.ts: every mistake is
 * an OptionsError naming the option (`tracker.limits.maxEvents`).
 */
import { createLogger, LOG_LEVELS, type Logger, type LoggerSink } from '../core/logger.js';
import { check, isPlainObject, OptionsError } from '../core/options.js';
import { normalizeVfsPath } from '../vfs/path.js';
import type { Vfs } from '../vfs/types.js';
import type { CollectorRuntime } from './runtime.js';
import type { StoreFactory } from './store.js';
import type { CollectorOptions } from './types.js';
import type { CorsPolicy } from '../core/cors.js';
import { resolveCollectorCors } from './cors.js';
import { resolveSpoolOption } from './spool.js';

export interface ResolvedCollectorOptions {
  appId: string;
  apiKey: string | undefined;
  logger: Logger;
  basePath: string;
  fs: Vfs | undefined;
  dir: string;
  /** A store other than the embedded one (`storage.store`, `storage.postgres`). */
  storeFactory: StoreFactory | undefined;
  /** The ingest spool (`storage.spool`), for a store other than the embedded one. */
  spool: ReturnType<typeof resolveSpoolOption>;
  /** `undefined`: CORS off. */
  cors: CorsPolicy | undefined;
  maxBodyBytes: number;
  maxDecompressedBytes: number;
  maxEvents: number;
  maxWsMessageBytes: number;
  wsAuthTimeoutMs: number;
  maxAgeMs: number | undefined;
  retainEvents: number | undefined;
  gzipReads: boolean;
}

const MiB = 1024 * 1024;
const P = 'tracker';

function isVfs(value: unknown): value is Vfs {
  if (!value || typeof value !== 'object') return false;
  const v = value as Record<string, unknown>;
  return ['read', 'append', 'readdir', 'remove', 'write'].every((k) => typeof v[k] === 'function');
}

export function resolveCollectorOptions(input: CollectorOptions, runtime: CollectorRuntime = {}): ResolvedCollectorOptions {
  if (!isPlainObject(input)) throw new OptionsError(P, 'must be an object');
  check.knownKeys(input, P, ['appId', 'apiKey', 'logLevel', 'logger', 'basePath', 'storage', 'storageDir', 'cors', 'limits', 'retention', 'readCompression']);
  if (input.appId === undefined) throw new OptionsError(`${P}.appId`, 'is required (the application identifier)');
  const appId = check.string(input.appId, `${P}.appId`, undefined, { nonEmpty: true })!;
  const apiKey = check.string(input.apiKey, `${P}.apiKey`, undefined, { nonEmpty: true });
  const level = check.oneOf(input.logLevel, `${P}.logLevel`, LOG_LEVELS, 'info');
  if (input.logger !== undefined && (!input.logger || typeof (input.logger as LoggerSink).warn !== 'function')) {
    throw new OptionsError(`${P}.logger`, 'must have info, warn and error methods');
  }
  const logger = createLogger(level, input.logger ?? console, '[mockyard:tracker]');

  let basePath = check.string(input.basePath, `${P}.basePath`, '/_tracker', { nonEmpty: true })!;
  if (!basePath.startsWith('/') || /[?#\s]/.test(basePath)) {
    throw new OptionsError(`${P}.basePath`, `must be a URL path starting with "/" (got ${JSON.stringify(basePath)})`);
  }
  basePath = basePath.replace(/\/+$/, '');
  if (basePath === '') throw new OptionsError(`${P}.basePath`, 'must not be the root "/"');

  const storage = check.object(input.storage, `${P}.storage`) ?? {};
  check.knownKeys(storage, `${P}.storage`, ['fs', 'dir', 'postgres', 'store', 'spool']);
  let storeFactory: StoreFactory | undefined;
  if (storage.store !== undefined) {
    if (typeof storage.store !== 'function') throw new OptionsError(`${P}.storage.store`, 'must be a store factory such as postgresStore({ url }) (a function of the collector context returning an EventStore)');
    storeFactory = storage.store as StoreFactory;
  }
  if (storage.postgres !== undefined) {
    if (storeFactory) throw new OptionsError(`${P}.storage.postgres`, 'cannot be combined with storage.store');
    const resolver = runtime.postgresStore;
    if (!resolver) throw new OptionsError(`${P}.storage.postgres`, 'needs the Node entry (import "mockyard" or "mockyard/node" in Node); PostgreSQL is not available in the browser');
    storeFactory = resolver(storage.postgres, `${P}.storage.postgres`);
  }
  if (storeFactory && (storage.fs !== undefined || storage.dir !== undefined || input.storageDir !== undefined)) {
    throw new OptionsError(storage.postgres !== undefined ? `${P}.storage.postgres` : `${P}.storage.store`, 'cannot be combined with storage.fs, storage.dir or storageDir (events go to one store)');
  }
  if (storage.fs !== undefined && !isVfs(storage.fs)) throw new OptionsError(`${P}.storage.fs`, 'must be a Vfs (memoryFs(), diskFs(dir), indexedDbFs())');
  let fs = storage.fs as Vfs | undefined;
  const storageDir = check.string(input.storageDir, `${P}.storageDir`, undefined, { nonEmpty: true });
  if (storageDir !== undefined) {
    if (fs) throw new OptionsError(`${P}.storageDir`, 'cannot be combined with storage.fs (use storage.dir for a folder inside that fs)');
    const factory = runtime.defaultFs;
    if (!factory) throw new OptionsError(`${P}.storageDir`, 'needs the Node entry (import "mockyard" or "mockyard/node"); in the browser pass storage: { fs }');
    fs = factory(storageDir, undefined);
  }
  const rawDir = check.string(storage.dir, `${P}.storage.dir`, storageDir !== undefined ? '' : 'events')!;
  let dir: string;
  try {
    dir = normalizeVfsPath(rawDir);
  } catch {
    throw new OptionsError(`${P}.storage.dir`, `must be a safe relative folder (got ${JSON.stringify(rawDir)})`);
  }

  const spool = resolveSpoolOption(storage.spool, `${P}.storage.spool`, storeFactory === undefined, runtime.spool);
  const cors = resolveCollectorCors(input.cors, `${P}.cors`);

  const limits = check.object(input.limits, `${P}.limits`) ?? {};
  check.knownKeys(limits, `${P}.limits`, ['maxBodyBytes', 'maxDecompressedBytes', 'maxEvents', 'maxWsMessageBytes', 'wsAuthTimeoutMs']);
  const int = (v: unknown, name: string, fallback: number, min = 1) => check.number(v, name, fallback, { min, integer: true });
  const retention = check.object(input.retention, `${P}.retention`) ?? {};
  check.knownKeys(retention, `${P}.retention`, ['maxAgeMs', 'maxEvents']);

  return {
    appId,
    apiKey,
    logger,
    basePath,
    fs,
    dir,
    storeFactory,
    spool,
    cors,
    maxBodyBytes: int(limits.maxBodyBytes, `${P}.limits.maxBodyBytes`, MiB),
    maxDecompressedBytes: int(limits.maxDecompressedBytes, `${P}.limits.maxDecompressedBytes`, 10 * MiB),
    maxEvents: int(limits.maxEvents, `${P}.limits.maxEvents`, 1000),
    maxWsMessageBytes: int(limits.maxWsMessageBytes, `${P}.limits.maxWsMessageBytes`, MiB),
    wsAuthTimeoutMs: int(limits.wsAuthTimeoutMs, `${P}.limits.wsAuthTimeoutMs`, 10_000),
    maxAgeMs: retention.maxAgeMs === undefined ? undefined : int(retention.maxAgeMs, `${P}.retention.maxAgeMs`, 0),
    gzipReads: check.oneOf(input.readCompression, `${P}.readCompression`, ['gzip', 'none'] as const, 'gzip') === 'gzip',
    retainEvents: retention.maxEvents === undefined ? undefined : int(retention.maxEvents, `${P}.retention.maxEvents`, 0),
  };
}
