/**
 * Ingest bodies: bytes → (gunzip when gzip) → JSON → a validated batch.
 *
 * Rules: body `{ type: 'ingest', events: [...] }`; a malformed envelope (bad JSON, wrong
 * `type`, `events` not a non-empty array, forbidden keys such as `__proto__`) is a 400; more than
 * `maxEvents` events is a 413; an event that is not an object or lacks a valid ISO-8601 timestamp
 * is a 422 naming the index and the reason. All-or-nothing: nothing is stored unless every event
 * passes.
 */
import type { BoundedSyncInflate } from '../core/inflate-bounded.js';
import { HttpError } from '../core/errors.js';
import { exceedsDepth } from '../core/json-depth.js';
import { assertNoForbiddenKeys, parseJsonBytes } from '../core/json-safety.js';
import { parseBatchId } from './batch-ids.js';
import { parseTimestamp } from './timestamp.js';

export interface ValidBatch {
  /** The client's events (own objects, not yet given ids). */
  events: Record<string, unknown>[];
  /** Parsed timestamps, epoch ms, index-aligned with `events`. */
  times: number[];
  /** The client's batch id (batch-ids.ts), when it sent one. */
  batchId?: string;
}

function isGzipMagic(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
}

/**
 * Decodes a body according to its Content-Encoding (or gzip magic bytes); 415 for other codings.
 * `inflate`: the runtime's native inflate (inflate-bounded.ts), else `DecompressionStream`.
 */
export async function decodeIngestBody(bytes: Uint8Array, contentEncoding: string | null, maxDecompressed: number, inflate?: BoundedSyncInflate): Promise<unknown> {
  const coding = (contentEncoding ?? '').trim().toLowerCase();
  let json = bytes;
  if (coding === 'gzip' || coding === 'x-gzip' || ((coding === '' || coding === 'identity') && isGzipMagic(bytes))) {
    // Imported on the first gzip body (its own chunk in browser bundles).
    json = await (await import('../core/inflate-bounded.js')).gunzipBounded(bytes, maxDecompressed, inflate);
  } else if (coding !== '' && coding !== 'identity') {
    throw new HttpError(415, `Unsupported Content-Encoding "${coding}" (use gzip or none)`, { headers: { 'Accept-Encoding': 'gzip' } });
  } else if (bytes.byteLength > maxDecompressed) {
    throw new HttpError(413, `Request body exceeds the limit of ${maxDecompressed} bytes`, { details: { limit: maxDecompressed } });
  }
  if (json.byteLength === 0) throw new HttpError(400, 'Malformed ingest body: empty body');
  // No text cap here: the depth rule of ingest bodies is per event (MAX_EVENT_DEPTH, a 422 naming
  // the event), checked on the parsed value by validateBatch with the same json-depth module.
  return parseJsonBytes(json, 'ingest body', Infinity);
}

/** Deepest nesting accepted inside one event (tracker events are shallow; this bounds recursion). */
export const MAX_EVENT_DEPTH = 64;

/**
 * Validates an ingest envelope (already parsed JSON). Throws 400 / 413 / 422. `maxEvents` may be
 * Infinity (WebSocket messages, bounded by their byte size and stored in batches of maxEvents).
 */
export function validateBatch(body: unknown, maxEvents: number): ValidBatch {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new HttpError(400, 'Malformed ingest body: expected an object { type: "ingest", events: [...] }');
  }
  const envelope = body as Record<string, unknown>;
  if (envelope.type !== 'ingest') {
    throw new HttpError(400, `Malformed ingest body: "type" must be "ingest" (got ${JSON.stringify(envelope.type) ?? 'nothing'})`);
  }
  const events = envelope.events;
  if (!Array.isArray(events)) throw new HttpError(400, 'Malformed ingest body: "events" must be an array');
  if (events.length === 0) throw new HttpError(400, 'Malformed ingest body: "events" must hold at least one event');
  if (events.length > maxEvents) {
    throw new HttpError(413, `Too many events in one batch: ${events.length} (the limit is ${maxEvents})`, { details: { limit: maxEvents } });
  }
  const batchId = parseBatchId(envelope.batchId);
  assertNoForbiddenKeys(events, 'ingest body');
  const times: number[] = new Array(events.length);
  for (let i = 0; i < events.length; i++) {
    const e = events[i];
    if (e === null || typeof e !== 'object' || Array.isArray(e)) reject(i, 'event is not an object');
    if (exceedsDepth(e, MAX_EVENT_DEPTH)) reject(i, `event nests deeper than ${MAX_EVENT_DEPTH} levels`);
    const t = parseTimestamp((e as Record<string, unknown>).timestamp);
    if (typeof t === 'string') reject(i, t);
    times[i] = t;
  }
  return { events: events as Record<string, unknown>[], times, batchId };
}

function reject(index: number, reason: string): never {
  throw new HttpError(422, `Invalid event at index ${index}: ${reason}`, { details: { index, reason } });
}
