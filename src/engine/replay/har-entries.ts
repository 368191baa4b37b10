/**
 * A HAR 1.2 log (from mockyard's recorder, a browser's "Save all as HAR", Playwright's
 * `recordHar`) as replay entries (entries.ts), by URL path. Validated at start-up: a log that is
 * not one is an OptionsError naming the faulty field, never a crash at the first request.
 *
 *   - the origin is ignored (a HAR of `https://staging.example.com/api/users` answers
 *     `/api/users` here); entries whose path is outside every prefix of the engine are ignored;
 *   - entries without a final answer (status 0 or -1: failed, aborted or blocked requests; 1xx)
 *     are skipped;
 *   - `content.text` with `encoding: 'base64'` is decoded; a body still compressed (its answer
 *     says `Content-Encoding: gzip` or `deflate` and the bytes are gzip / zlib data) is inflated
 *     when the layer starts; `Content-Encoding` and `Content-Length` are not replayed (the host
 *     frames the decoded body);
 *   - request bodies (`postData.text`, or `params` as a form) are kept for writes;
 *   - bodies kept outside the log (`content._file`, Playwright's `content: 'attach'`) are refused
 *     with a message: record with `content: 'embed'` (Playwright's default for a `.har` path).
 */
import { base64ToBytes } from '../../core/base64.js';
import { underPrefix } from '../../core/engine.js';
import { isHeaderValue } from '../../core/header-name.js';
import type { BoundedSyncInflate } from '../../core/inflate-bounded.js';
import { describe, isPlainObject, OptionsError } from '../../core/options.js';
import { canonicalQuery } from '../file-cache/query-variant.js';
import { bodyKey } from '../recordings/body-key.js';
import { sendableStatusText, WRITE_METHODS, type ReplayEntry } from '../recordings/entries.js';
import { keptHeaders } from '../recordings/kept-headers.js';

const encoder = new TextEncoder();

/** A body still compressed: inflated when the layer starts. */
interface Pending {
  entry: ReplayEntry;
  format: 'gzip' | 'deflate';
}

export interface HarIndex {
  /** Entries by URL path (as requests arrive: percent-encoded), in log order. */
  byPath: Map<string, ReplayEntry[]>;
  /** How many entries the index holds, and how many were left out (outside the prefixes, no answer). */
  count: number;
  ignored: number;
  /** Of the ignored ones: entries whose path is outside every prefix. */
  outside: number;
  /** Resolves once compressed bodies are inflated. */
  ready: Promise<void>;
}

function base64Bytes(text: string, where: string, option: string): Uint8Array {
  try {
    return base64ToBytes(text);
  } catch {
    throw new OptionsError(option, `${where} is not valid base64`);
  }
}

function headerList(value: unknown, where: string, option: string): Array<[string, string]> {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new OptionsError(option, `${where} must be an array of { name, value } (got ${describe(value)})`);
  return value.map((h: unknown, i: number) => {
    if (!isPlainObject(h) || typeof h.name !== 'string' || typeof h.value !== 'string') throw new OptionsError(option, `${where}[${i}] must be { name, value } strings`);
    return [h.name, h.value];
  });
}

/** Whether `path` is under one of the engine's prefixes (THE routing rule, core/engine.ts). */
function underPrefixes(path: string, prefixes: readonly string[]): boolean {
  return prefixes.some((p) => underPrefix(path, p));
}

/** The index of a HAR log; `option` names the option in errors (`mock.har`). */
export function harIndex(har: unknown, prefixes: readonly string[], option: string, inflateLimit: number, inflate?: BoundedSyncInflate): HarIndex {
  if (!isPlainObject(har) || !isPlainObject(har.log) || !Array.isArray(har.log.entries)) {
    throw new OptionsError(option, `is not a HAR log: it needs { "log": { "entries": [ … ] } } (got ${describe(har)})`);
  }
  const byPath = new Map<string, ReplayEntry[]>();
  const pending: Pending[] = [];
  let count = 0;
  let ignored = 0;
  let outside = 0;
  (har.log.entries as unknown[]).forEach((raw, i) => {
    const at = `log.entries[${i}]`;
    if (!isPlainObject(raw) || !isPlainObject(raw.request) || !isPlainObject(raw.response)) throw new OptionsError(option, `${at} must have a request and a response`);
    const { request, response } = raw;
    if (typeof request.method !== 'string' || !/^[A-Za-z]+$/.test(request.method)) throw new OptionsError(option, `${at}.request.method must be a method name (got ${describe(request.method)})`);
    let url: URL;
    try {
      url = new URL(String(request.url));
    } catch {
      throw new OptionsError(option, `${at}.request.url must be an absolute URL (got ${describe(request.url)})`);
    }
    if (typeof response.status !== 'number' || !Number.isInteger(response.status)) throw new OptionsError(option, `${at}.response.status must be a number (got ${describe(response.status)})`);
    if (response.status < 200 || response.status > 599 || !underPrefixes(url.pathname, prefixes)) {
      ignored++;
      if (!underPrefixes(url.pathname, prefixes)) outside++;
      return;
    }
    const method = request.method.toUpperCase();
    const content = response.content === undefined ? {} : response.content;
    if (!isPlainObject(content)) throw new OptionsError(option, `${at}.response.content must be an object`);
    if (content._file !== undefined && content.text === undefined) {
      throw new OptionsError(option, `${at}.response.content keeps its body in a separate file (${describe(content._file)}); record the HAR with its bodies embedded (Playwright: recordHar { content: 'embed' })`);
    }
    if (content.text !== undefined && typeof content.text !== 'string') throw new OptionsError(option, `${at}.response.content.text must be a string`);
    const text = (content.text as string | undefined) ?? '';
    const answer = content.encoding === 'base64' ? base64Bytes(text, `${at}.response.content.text`, option) : encoder.encode(text);
    const responseHeaders = headerList(response.headers, `${at}.response.headers`, option);
    // Only what is replayed must be sendable (a browser's Set-Cookie lines are not replayed).
    const headers = keptHeaders(responseHeaders);
    for (const [name, value] of Object.entries(headers)) {
      if (!isHeaderValue(value)) throw new OptionsError(option, `${at}.response.headers (${name}) has a value that cannot be sent (CR, LF or another control character, or a character past U+00FF)`);
    }
    const codings = responseHeaders.filter(([n]) => n.toLowerCase() === 'content-encoding').map(([, v]) => v.trim().toLowerCase());
    let format: Pending['format'] | undefined;
    if (codings.length === 1 && (codings[0] === 'gzip' || codings[0] === 'x-gzip') && answer[0] === 0x1f && answer[1] === 0x8b) format = 'gzip';
    else if (codings.length === 1 && codings[0] === 'deflate' && answer.byteLength > 1 && ((answer[0]! << 8) | answer[1]!) % 31 === 0 && (answer[0]! & 0x0f) === 8) format = 'deflate';
    let body: string | undefined;
    if (WRITE_METHODS.has(method) && isPlainObject(request.postData)) {
      const post = request.postData;
      if (typeof post.text === 'string') body = bodyKey(encoder.encode(post.text));
      else if (Array.isArray(post.params)) body = bodyKey(encoder.encode(new URLSearchParams(post.params.map((p: { name?: unknown; value?: unknown }) => [String(p?.name ?? ''), String(p?.value ?? '')])).toString()));
    }
    const entry: ReplayEntry = {
      method,
      query: url.search.length > 1 ? canonicalQuery(url.search) : '',
      body,
      requestHeaders: headerList(request.headers, `${at}.request.headers`, option).filter(([n]) => !n.startsWith(':')).map(([n, v]) => [n.toLowerCase(), v] as const),
      status: response.status,
      statusText: sendableStatusText(response.statusText),
      headers,
      answer,
      origin: url.origin,
    };
    if (format) pending.push({ entry, format });
    let list = byPath.get(url.pathname);
    if (!list) byPath.set(url.pathname, (list = []));
    list.push(entry);
    count++;
  });
  // The inflater is loaded on demand (its own chunk in browser bundles), only for such bodies.
  const ready = pending.length === 0 ? Promise.resolve() : import('../../core/inflate-bounded.js').then(({ inflateBounded }) => Promise.all(pending.map(async (p) => {
    try {
      p.entry.answer = await inflateBounded(p.entry.answer as Uint8Array, p.format, inflateLimit, inflate);
    } catch {
      // not really compressed: replayed as stored
    }
  }))).then(() => undefined);
  return { byPath, count, ignored, outside, ready };
}
