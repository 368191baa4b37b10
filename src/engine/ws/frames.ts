/**
 * WebSocket payloads in and out.
 * In: a text frame holding JSON arrives parsed; any other text as the string, and so does JSON
 * nested deeper than `maxJsonDepth` (core/json-depth.ts: never handed over as a value that
 * recursive code such as `conn.send(msg)` would choke on); binary as bytes.
 * Out: strings as text frames, bytes (Uint8Array, ArrayBuffer, any view) as binary frames,
 * anything else as JSON text.
 */
import { textExceedsDepth } from '../../core/json-depth.js';

const JSON_START = /^\s*[[{"\-0-9tfn]/;
const encoder = new TextEncoder();

export function decodeFrame(data: string | Uint8Array, maxDepth: number): unknown {
  if (typeof data !== 'string') return data;
  if (!JSON_START.test(data)) return data;
  // Only a text longer than the limit can nest deeper than it.
  if (data.length > maxDepth && textExceedsDepth(encoder.encode(data), maxDepth)) return data;
  try {
    return JSON.parse(data);
  } catch {
    return data;
  }
}

/** The frame for a value, or undefined when it has no wire form (`undefined`, functions). */
export function encodeFrame(data: unknown): string | Uint8Array | undefined {
  if (typeof data === 'string') return data;
  if (data instanceof Uint8Array) return data;
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  return JSON.stringify(data);
}
