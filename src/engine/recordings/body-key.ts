/**
 * How a replay compares request bodies (writes: POST, PUT, PATCH, DELETE): each body becomes a
 * key, and two bodies match when their keys are equal.
 *   - JSON (any body that parses as JSON) compares canonically: object keys sorted at every
 *     level, so `{"b":1,"a":2}` matches `{"a":2,"b":1}`; array order and values count;
 *   - other text compares as text, other bytes byte for byte;
 *   - no body (zero bytes) is the key `''`.
 */

import { bytesToBase64 } from '../../core/base64.js';

const decoder = new TextDecoder('utf-8', { fatal: true });

/** JSON text of `value` with every object's keys sorted. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The key of a JSON value (a recording's `request.body`). */
export function jsonBodyKey(value: unknown): string {
  return `json:${canonicalJson(value)}`;
}

/** The key of body bytes as a request carried them. */
export function bodyKey(bytes: Uint8Array): string {
  if (bytes.byteLength === 0) return '';
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    return `bytes:${bytesToBase64(bytes)}`;
  }
  const start = text.trimStart()[0];
  if (start === '{' || start === '[' || start === '"' || (start !== undefined && /[-0-9tfn]/.test(start))) {
    try {
      return jsonBodyKey(JSON.parse(text));
    } catch {
      // not JSON: compared as text
    }
  }
  return `text:${text}`;
}
