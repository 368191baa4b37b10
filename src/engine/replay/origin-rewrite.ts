/**
 * A recorded answer that names the server it was recorded from (`Link: <https://api.example.com/
 * users?page=2>`, `Location`, `Content-Location`, absolute URLs in a text body) is replayed naming
 * the mock instead: the recorded origin becomes the origin the request was sent to, so a client
 * following the link stays on the mock. Both replays use it: a HAR (layer.ts, the entry's URL)
 * and the mock folder's recordings (recorded-layer.ts, the recording's `request.origin`). Done
 * once per entry, body and mock origin (cached: a recorded body file edited by hand is rewritten
 * anew); entries that do not name their origin cost one lookup.
 */
import type { FastHeaders } from '../../core/fast-response.js';
import { isTextMediaType, parseMediaType } from '../../core/media-type.js';
import { replayResponse, type ReplayEntry } from '../recordings/entries.js';

const URL_HEADERS = ['link', 'location', 'content-location'];

interface Rewritten {
  headers: FastHeaders;
  bytes: Uint8Array;
}

/** Per entry and mock origin: the body it was computed for, and the result (null: nothing to rewrite). */
const cache = new WeakMap<ReplayEntry, Map<string, { source: Uint8Array; result: Rewritten | null }>>();

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
  if (cached !== undefined && cached.source === bytes) return cached.result ?? undefined;
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
  if (byOrigin.size < 16 || byOrigin.has(mockOrigin)) byOrigin.set(mockOrigin, { source: bytes, result });
  return result ?? undefined;
}

/** The origin a request was sent to (`http://127.0.0.1:3000`). */
function originOf(url: string): string {
  const slash = url.indexOf('/', url.indexOf('//') + 2);
  return slash === -1 ? url : url.slice(0, slash);
}

/** The entry's answer (`bytes`: its body) as sent to `request`, naming the mock where it named the recorded origin. */
export function replayFor(e: ReplayEntry, bytes: Uint8Array, request: Request, head: boolean): Response {
  const re = rewrittenForOrigin(e, bytes, originOf(request.url));
  return replayResponse(re ? { ...e, headers: re.headers } : e, re ? re.bytes : bytes, head);
}
