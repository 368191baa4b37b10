/**
 * One event → its JSON text, measured in UTF-8 bytes, at `track()` time (a snapshot: later
 * changes to the caller's object are not sent). An event over `maxEventBytes` is truncated (its
 * longest strings cut, marked with `_truncated: <original bytes>`) or dropped; an event that
 * cannot be serialised (a cycle, a BigInt) is dropped. The caller warns and counts.
 */
import { utf8Length } from '../../core/utf8-length.js';
import type { TrackedEvent } from './types.js';

export { utf8Length };

export type Encoded =
  | { ok: true; json: string; bytes: number; truncatedFrom?: number }
  | { ok: false; reason: 'oversize' | 'invalid'; message: string };

const PROTECTED = new Set(['id', 'timestamp', 'type']);
const MARKER_ROOM = 32; // `,"_truncated":1234567`
const MIN_CUT_LENGTH = 16;

interface StringSlot {
  holder: Record<string, unknown> | unknown[];
  key: string | number;
  length: number;
}

function collectStrings(value: unknown, out: StringSlot[], depth: number, top: boolean): void {
  if (depth > 64 || value === null || typeof value !== 'object') return;
  const entries: Array<[string | number, unknown]> = Array.isArray(value) ? value.map((v, i) => [i, v]) : Object.entries(value);
  for (const [key, v] of entries) {
    if (top && typeof key === 'string' && PROTECTED.has(key)) continue;
    if (typeof v === 'string') {
      if (v.length > MIN_CUT_LENGTH) out.push({ holder: value as Record<string, unknown>, key, length: v.length });
    } else collectStrings(v, out, depth + 1, false);
  }
}

function cut(text: string, remove: number): string {
  let end = Math.max(MIN_CUT_LENGTH, text.length - remove - 1);
  const c = text.charCodeAt(end - 1);
  if (c >= 0xd800 && c <= 0xdbff) end -= 1; // never split a surrogate pair
  return `${text.slice(0, end)}…`;
}

/** Shortens the longest strings until the event fits `max` bytes; undefined when it cannot. */
function truncate(json: string, bytes: number, max: number): { json: string; bytes: number } | undefined {
  const copy = JSON.parse(json) as Record<string, unknown>;
  const slots: StringSlot[] = [];
  collectStrings(copy, slots, 0, true);
  slots.sort((a, b) => b.length - a.length);
  copy._truncated = bytes;
  let text = JSON.stringify(copy);
  let size = utf8Length(text);
  for (const slot of slots) {
    if (size <= max) break;
    const current = (slot.holder as Record<string | number, string>)[slot.key]!;
    // Removing n characters removes at least n bytes (escapes and multi-byte characters remove more).
    (slot.holder as Record<string | number, string>)[slot.key] = cut(current, size - max + 3);
    text = JSON.stringify(copy);
    size = utf8Length(text);
  }
  return size <= max ? { json: text, bytes: size } : undefined;
}

/** The event's time as sent: strings as given (the collector validates them), Dates and epoch ms as ISO-8601, default now. */
function stamp(value: unknown): unknown {
  if (value === undefined || value === null) return new Date().toISOString();
  if (value instanceof Date || typeof value === 'number') return new Date(value).toISOString();
  return value;
}

export function encodeEvent(event: TrackedEvent, maxBytes: number, oversize: 'truncate' | 'drop'): Encoded {
  let json: string;
  try {
    if (event === null || typeof event !== 'object' || Array.isArray(event)) throw new TypeError('an event must be a plain object');
    json = JSON.stringify({ ...event, id: '', timestamp: stamp(event.timestamp) });
  } catch (err) {
    return { ok: false, reason: 'invalid', message: `event cannot be serialised as JSON: ${(err as Error)?.message ?? err}` };
  }
  const bytes = utf8Length(json);
  if (bytes <= maxBytes) return { ok: true, json, bytes };
  const tooBig = `event of ${bytes} bytes is larger than maxEventBytes (${maxBytes})`;
  if (oversize === 'drop') return { ok: false, reason: 'oversize', message: `${tooBig}: dropped` };
  const cutDown = truncate(json, bytes, maxBytes - MARKER_ROOM);
  if (!cutDown) return { ok: false, reason: 'oversize', message: `${tooBig} and its strings cannot be cut enough: dropped` };
  return { ok: true, json: cutDown.json, bytes: cutDown.bytes, truncatedFrom: bytes };
}
