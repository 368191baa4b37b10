/**
 * The replay model both replay layers share (a HAR served with `mock.har`, recordings in the mock
 * folder, recorded-layer.ts): recorded exchanges of one path, how a request picks one, and the
 * answer it gives.
 *
 * Matching (the same rules as Playwright's `routeFromHAR`, except where said; measured with
 * playwright-core 1.65.1 on the same log: test/fixtures/playwright/):
 *   - the method: equal (a HEAD takes a recorded HEAD, else the GET's status and headers);
 *   - the query: equal after sorting the parameters (Playwright compares the URL text, so
 *     `?b=1&a=2` misses `?a=2&b=1` there; here it matches);
 *   - the body, for writes (POST, PUT, PATCH, DELETE): equal keys (body-key.ts: JSON compared
 *     canonically). Playwright compares POST bodies only, byte for byte (a PUT with another
 *     body gets the recorded PUT there). A recording without a body matches any body
 *     (hand-written answers);
 *   - several candidates: the one with the most request headers equal to the request's (as
 *     Playwright), then the first in recorded order. The same request always gets the same answer.
 * A redirect (3xx + Location) is answered as recorded: the client follows it (Playwright
 * follows it inside the HAR, because a routed browser request cannot answer a redirect).
 */
import { keepBody, readBody } from '../../core/body.js';
import { isHeaderValue } from '../../core/header-name.js';
import { FastResponse, NULL_BODY_STATUS, type FastHeaders } from '../../core/fast-response.js';
import type { RequestContext } from '../context.js';
import { bodyKey } from './body-key.js';

export const WRITE_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** What an answer's body is. */
export type ReplayBody = Uint8Array | { file: string };

export interface ReplayEntry {
  method: string;
  /** Canonical query (file-cache/query-variant.ts `canonicalQuery`), '' for none. */
  query: string;
  /** Body key (body-key.ts) a write must carry; undefined: any body. */
  body?: string;
  /** The recorded request's headers (lower-case names), for ties. */
  requestHeaders?: ReadonlyArray<readonly [string, string]>;
  status: number;
  statusText?: string;
  /** Kept headers (kept-headers.ts), lower-case names. */
  headers: FastHeaders;
  answer: ReplayBody;
  /** The origin it was recorded from (`https://api.example.com`), rewritten to the mock's where the answer names it (origin-rewrite.ts). */
  origin?: string;
}

/** A reason phrase as recorded, when it can be sent (RFC 9110: tab, space, visible characters); else undefined. */
export function sendableStatusText(text: unknown): string | undefined {
  return typeof text === 'string' && isHeaderValue(text) ? text : undefined;
}

/** `GET /api/users?page=2`: how a recorded request is named in messages. */
export function entryLabel(pathname: string, e: Pick<ReplayEntry, 'method' | 'query'>): string {
  return `${e.method} ${pathname}${e.query ? `?${e.query}` : ''}`;
}

function matchingHeaders(e: ReplayEntry, request: Request): number {
  let n = 0;
  for (const [name, value] of e.requestHeaders ?? []) if (request.headers.get(name) === value) n++;
  return n;
}

/**
 * The entry answering a request, or undefined. `bodyKey` is the request body's key for writes
 * (undefined: not read yet — then only entries without a body can match).
 */
export function pickEntry(entries: readonly ReplayEntry[], method: string, query: string, bodyKey: string | undefined, request: Request): ReplayEntry | undefined {
  const wanted = method === 'HEAD' && !entries.some((e) => e.method === 'HEAD' && e.query === query) ? 'GET' : method;
  const write = WRITE_METHODS.has(method);
  let found: ReplayEntry[] = [];
  let exactBody = false;
  for (const e of entries) {
    if (e.method !== wanted || e.query !== query) continue;
    if (write && e.body !== undefined) {
      if (e.body !== bodyKey) continue;
      if (!exactBody) found = [];
      exactBody = true;
    } else if (exactBody) continue;
    found.push(e);
  }
  if (found.length <= 1) return found[0];
  // The most headers equal; on a tie, the first recorded (a loop: a polled path may be recorded 100k+ times, too many to spread into Math.max).
  let best = 0;
  let bestCount = -1;
  found.forEach((e, i) => {
    const n = matchingHeaders(e, request);
    if (n > bestCount) [best, bestCount] = [i, n];
  });
  return found[best];
}

/**
 * The entry answering `ctx` (its canonical `query`), or undefined. A write's body is read (within
 * `bodyLimit`) only when an entry of its method and query has one to compare, and kept: the proxy
 * sends these bytes if nothing here matches.
 */
export async function entryFor(entries: readonly ReplayEntry[], ctx: RequestContext, query: string, bodyLimit: number): Promise<ReplayEntry | undefined> {
  const { method } = ctx;
  let key: string | undefined;
  if (WRITE_METHODS.has(method) && entries.some((e) => e.method === method && e.query === query && e.body !== undefined)) {
    const bytes = await readBody(ctx.request, bodyLimit);
    keepBody(ctx.request, bytes);
    key = bodyKey(bytes);
  }
  return pickEntry(entries, method, query, key, ctx.request);
}

/** The answer for an entry whose body bytes are at hand. */
export function replayResponse(e: ReplayEntry, bytes: Uint8Array, head: boolean): Response {
  const headers: FastHeaders = { ...e.headers };
  if (NULL_BODY_STATUS.has(e.status)) return new FastResponse(null, { status: e.status, statusText: e.statusText, headers }) as unknown as Response;
  headers['content-length'] = String(bytes.byteLength);
  return new FastResponse(head ? null : bytes, { status: e.status, statusText: e.statusText, headers }) as unknown as Response;
}
