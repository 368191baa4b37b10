/**
 * A recorded answer that names the server it was recorded from (`Link: <https://api.example.com/
 * users?page=2>`, `Location`, `Content-Location`, absolute URLs in a text body) is replayed naming
 * the mock instead: the recorded origin becomes the origin the request was sent to, so a client
 * following the link stays on the mock. Done once per entry and mock origin (cached); entries
 * that do not name their origin cost one lookup.
 */
import type { FastHeaders } from '../../core/fast-response.js';
import { isTextMediaType, parseMediaType } from '../../core/media-type.js';
import type { ReplayEntry } from '../recordings/entries.js';

const URL_HEADERS = ['link', 'location', 'content-location'];

interface Rewritten {
  headers: FastHeaders;
  bytes: Uint8Array;
}

const cache = new WeakMap<ReplayEntry, Map<string, Rewritten | null>>();

function replaceAll(text: string, from: string, to: string): string {
  return text.split(from).join(to);
}

/** The entry's headers and body as the mock at `mockOrigin` replays them (the recorded ones when they name no other origin). */
export function rewrittenForOrigin(e: ReplayEntry, bytes: Uint8Array, mockOrigin: string): Rewritten | undefined {
  const from = e.origin;
  if (!from || from === mockOrigin) return undefined;
  let byOrigin = cache.get(e);
  if (!byOrigin) cache.set(e, (byOrigin = new Map()));
  const cached = byOrigin.get(mockOrigin);
  if (cached !== undefined) return cached ?? undefined;
  let changed = false;
  const headers: FastHeaders = { ...e.headers };
  for (const name of URL_HEADERS) {
    const value = headers[name];
    if (typeof value === 'string' && value.includes(from)) {
      headers[name] = replaceAll(value, from, mockOrigin);
      changed = true;
    }
  }
  let body = bytes;
  const type = parseMediaType(typeof headers['content-type'] === 'string' ? headers['content-type'] : undefined).type;
  if (type !== '' && isTextMediaType(type) && bytes.byteLength > 0) {
    const text = new TextDecoder().decode(bytes);
    // JSON bodies may spell the slashes escaped (`https:\/\/api.example.com`).
    const escapedFrom = from.replace(/\//g, '\\/');
    if (text.includes(from) || text.includes(escapedFrom)) {
      body = new TextEncoder().encode(replaceAll(replaceAll(text, from, mockOrigin), escapedFrom, mockOrigin.replace(/\//g, '\\/')));
      changed = true;
    }
  }
  const result = changed ? { headers, bytes: body } : null;
  if (byOrigin.size < 16) byOrigin.set(mockOrigin, result);
  return result ?? undefined;
}
