/**
 * The admin API's entity tags (admin-data.ts, admin-files.ts): a strong tag from the exact
 * content (an item's JSON text, a file's bytes), so an edit made from a stale view (the file
 * edited on disk, another tab's save) is refused with 412 instead of overwriting the newer
 * version. FNV-1a (64-bit, as two 32-bit halves) plus the length: not a security hash, a
 * change detector.
 */
import { HttpError } from '../core/errors.js';

function fnv(codes: (i: number) => number, length: number): string {
  let h1 = 0x811c9dc5;
  let h2 = 0x050c5d1f;
  for (let i = 0; i < length; i++) {
    const c = codes(i);
    h1 = Math.imul(h1 ^ c, 0x01000193) >>> 0;
    h2 = Math.imul(h2 ^ c, 0x01000193 + 2) >>> 0;
  }
  return `"${length.toString(36)}-${h1.toString(36)}${h2.toString(36)}"`;
}

/** The tag of a stored JSON value (its serialisation as stored: key order included). */
export function etagOfValue(value: unknown): string {
  const text = JSON.stringify(value) ?? '';
  return fnv((i) => text.charCodeAt(i), text.length);
}

/** The tag of a file's bytes. */
export function etagOfBytes(bytes: Uint8Array): string {
  return fnv((i) => bytes[i]!, bytes.byteLength);
}

/**
 * Checks the request's preconditions against the current tag (undefined: nothing there):
 * `If-Match` (a list, or `*`: something must be there) and `If-None-Match: *` (nothing may be
 * there: create only). 412 naming what changed when they fail.
 */
export function checkPreconditions(request: Request, current: string | undefined, what: string): void {
  const match = request.headers.get('if-match');
  if (match !== null) {
    const tags = match.split(',').map((t) => t.trim().replace(/^W\//, ''));
    if (current === undefined) throw conflict(`${what} does not exist any more`, current);
    if (!tags.includes('*') && !tags.includes(current)) throw conflict(`${what} was changed since you read it (by another tab, a request or an edit on disk): reload it and apply your change again`, current);
  }
  const noneMatch = request.headers.get('if-none-match');
  if (noneMatch !== null && noneMatch.trim() === '*' && current !== undefined) throw conflict(`${what} exists already`, current);
}

function conflict(message: string, current: string | undefined): HttpError {
  return new HttpError(412, message, { headers: current === undefined ? {} : { ETag: current }, details: { etag: current ?? null } });
}
