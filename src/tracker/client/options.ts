/**
 * The tracker client's options, validated once (OptionsError names the option). The contract's
 * names (`storage.mode`, `storage.writeEndpoint`, …) and the client's own (`endpoint`, `apiKey`,
 * `batchSize`) are both accepted; when both are given they must agree.
 */
import { createLogger, type Logger } from '../../core/logger.js';
import { check, OptionsError } from '../../core/options.js';
import type { TrackerClientOptions } from './types.js';

/** Chromium's (and the Fetch spec's) budget for bodies of keepalive requests and beacons in flight. */
export const KEEPALIVE_BUDGET = 64 * 1024;
/** A batch body never exceeds this, so any batch fits a beacon on its own. */
export const MAX_BATCH_BYTES = 60 * 1024;
/** Room kept in a batch body for the envelope (`{"type":"ingest","batchId":"…","events":[ ]}`). */
export const ENVELOPE_BYTES = 128;

export interface ResolvedClientOptions {
  mode: 'http' | 'websocket';
  endpoint: string;
  wsEndpoint: string | undefined;
  pingEndpoint: string | undefined;
  apiKey: string | undefined;
  batchSize: number;
  flushInterval: number;
  flushTimeout: number;
  compress: boolean;
  lifecycle: boolean;
  maxQueue: number;
  maxEventBytes: number;
  oversize: 'truncate' | 'drop';
  backoffBase: number;
  backoffMax: number;
  persist: { key: string; maxBytes: number; maxAgeMs: number } | undefined;
  logger: Logger;
}

const KNOWN = ['endpoint', 'apiKey', 'batchSize', 'storage', 'flushInterval', 'flushTimeout', 'compress', 'beaconOnPageHide', 'maxQueue', 'maxEventBytes', 'oversize', 'backoff', 'persist', 'logger', 'fetch', 'sendBeacon', 'WebSocket', 'localStorage', 'onError'];
const STORAGE_KNOWN = ['mode', 'writeEndpoint', 'readEndpoint', 'pingEndpoint', 'wsEndpoint', 'apiKey', 'batchSize'];

/** `a` and `b` name the same setting; either may be given, both only when equal. */
function either<T>(a: T | undefined, aName: string, b: T | undefined, bName: string): T | undefined {
  if (a !== undefined && b !== undefined && a !== b) throw new OptionsError(bName, `disagrees with "${aName}" (give one of them)`);
  return a ?? b;
}

export function resolveClientOptions(options: TrackerClientOptions): ResolvedClientOptions {
  const o = check.object(options, 'tracker client') ?? {};
  check.knownKeys(o, '', KNOWN);
  const s = check.object(o.storage, 'storage') ?? {};
  check.knownKeys(s, 'storage', STORAGE_KNOWN);
  const specMode = check.oneOf(s.mode, 'storage.mode', ['http', 'websocket', 'middleware'] as const, 'http');
  const mode = specMode === 'websocket' ? 'websocket' : 'http';
  const writeEndpoint = check.string(s.writeEndpoint, 'storage.writeEndpoint', undefined, { nonEmpty: true });
  const ownEndpoint = check.string(o.endpoint, 'endpoint', undefined, { nonEmpty: true });
  let endpoint = either(ownEndpoint, 'endpoint', writeEndpoint, 'storage.writeEndpoint');
  if (specMode === 'middleware') {
    if (endpoint !== undefined && endpoint !== '/_tracker/events') throw new OptionsError('storage.writeEndpoint', 'is fixed to /_tracker/events in middleware mode');
    endpoint = '/_tracker/events';
  }
  const wsEndpoint = check.string(s.wsEndpoint, 'storage.wsEndpoint', undefined, { nonEmpty: true });
  if (mode === 'websocket' && wsEndpoint === undefined) throw new OptionsError('storage.wsEndpoint', 'is required when storage.mode is "websocket"');
  check.string(s.readEndpoint, 'storage.readEndpoint');
  const pingEndpoint = check.string(s.pingEndpoint, 'storage.pingEndpoint', undefined, { nonEmpty: true });
  const apiKey = either(check.string(o.apiKey, 'apiKey'), 'apiKey', check.string(s.apiKey, 'storage.apiKey'), 'storage.apiKey');
  const batchSize = either(
    o.batchSize === undefined ? undefined : check.number(o.batchSize, 'batchSize', 25, { min: 1, integer: true }),
    'batchSize',
    s.batchSize === undefined ? undefined : check.number(s.batchSize, 'storage.batchSize', 25, { min: 1, integer: true }),
    'storage.batchSize',
  ) ?? 25;
  const backoff = check.object(o.backoff, 'backoff') ?? {};
  check.knownKeys(backoff, 'backoff', ['base', 'max']);
  const backoffBase = check.number(backoff.base, 'backoff.base', 1000, { min: 1 });
  const backoffMax = check.number(backoff.max, 'backoff.max', 60_000, { min: backoffBase });

  let persist: ResolvedClientOptions['persist'];
  if (o.persist !== false) {
    const p = o.persist === true || o.persist === undefined ? {} : check.object(o.persist, 'persist') ?? {};
    check.knownKeys(p, 'persist', ['key', 'maxBytes', 'maxAgeMs']);
    persist = {
      key: check.string(p.key, 'persist.key', undefined, { nonEmpty: true }) ?? `mockyard-tracker:${mode === 'websocket' ? wsEndpoint : endpoint ?? '/_tracker/events'}`,
      maxBytes: check.number(p.maxBytes, 'persist.maxBytes', 1024 * 1024, { min: 0, integer: true }),
      maxAgeMs: check.number(p.maxAgeMs, 'persist.maxAgeMs', 24 * 3600_000, { min: 0 }),
    };
  }
  for (const name of ['fetch', 'sendBeacon', 'WebSocket', 'onError'] as const) check.fn(o[name], name);

  return {
    mode,
    endpoint: endpoint ?? '/_tracker/events',
    wsEndpoint,
    pingEndpoint,
    apiKey: apiKey === '' ? undefined : apiKey,
    batchSize,
    flushInterval: check.number(o.flushInterval, 'flushInterval', 5000, { min: 0 }),
    flushTimeout: check.number(o.flushTimeout, 'flushTimeout', 10_000, { min: 1 }),
    compress: check.boolean(o.compress, 'compress', true) && typeof CompressionStream === 'function',
    lifecycle: check.boolean(o.beaconOnPageHide, 'beaconOnPageHide', true),
    maxQueue: check.number(o.maxQueue, 'maxQueue', 5000, { min: 1, integer: true }),
    maxEventBytes: check.number(o.maxEventBytes, 'maxEventBytes', 32 * 1024, { min: 256, max: MAX_BATCH_BYTES - ENVELOPE_BYTES, integer: true }),
    oversize: check.oneOf(o.oversize, 'oversize', ['truncate', 'drop'] as const, 'truncate'),
    backoffBase,
    backoffMax,
    persist,
    logger: createLogger('warn', (o.logger as TrackerClientOptions['logger']) ?? console, '[mockyard tracker]'),
  };
}
