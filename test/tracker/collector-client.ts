/** Request builders and response readers for collector tests (engine-level and over HTTP). */
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterEach } from 'vitest';
import { createCollector } from '../../src/tracker/collector.js';
import type { Collector } from '../../src/tracker/types.js';
import type { Vfs } from '../../src/vfs/types.js';

export const BASE = 'http://collector.test';

export function ev(timestamp: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { id: '', timestamp, type: 'click', ...extra };
}

export function batch(events: unknown[]): { type: 'ingest'; events: unknown[] } {
  return { type: 'ingest', events };
}

export interface Reply {
  status: number;
  headers: Headers;
  /** Raw body bytes as sent. */
  raw: Uint8Array;
  /** Body text after gunzip when Content-Encoding is gzip. */
  text: string;
  json: any;
}

export async function reply(res: Response | undefined): Promise<Reply> {
  if (!res) throw new Error('collector answered undefined');
  const raw = new Uint8Array(await res.arrayBuffer());
  const plain = res.headers.get('content-encoding') === 'gzip' ? gunzipSync(raw) : raw;
  const text = new TextDecoder().decode(plain);
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, raw, text, json };
}

export interface PostOptions {
  headers?: Record<string, string>;
  gzip?: boolean;
  /** Query string after the path, e.g. `?key=x`. */
  query?: string;
  raw?: Uint8Array | string;
}

export function postRequest(base: string, body: unknown, opts: PostOptions = {}): Request {
  let bytes: Uint8Array = typeof opts.raw === 'string' ? new TextEncoder().encode(opts.raw) : opts.raw ?? new TextEncoder().encode(JSON.stringify(body));
  const headers: Record<string, string> = { 'content-type': 'application/json', ...opts.headers };
  if (opts.gzip) {
    bytes = gzipSync(bytes);
    headers['content-encoding'] = 'gzip';
  }
  return new Request(`${base}/_tracker/events${opts.query ?? ''}`, { method: 'POST', body: bytes as BodyInit, headers });
}

export async function ingest(c: Collector, body: unknown, opts: PostOptions = {}): Promise<Reply> {
  return reply(await c.handle(postRequest(BASE, body, opts)));
}

export async function read(c: Collector, query: Record<string, string | number>, headers: Record<string, string> = {}): Promise<Reply> {
  const qs = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString();
  return reply(await c.handle(new Request(`${BASE}/_tracker?${qs}`, { headers })));
}

/** Reads everything (a very wide window). */
export async function readAll(c: Collector, headers: Record<string, string> = {}): Promise<any> {
  return (await read(c, { since: '1970-01-01T00:00:00Z', until: '9999-12-31T23:59:59Z' }, headers)).json;
}

/** A silent logger that records warnings. */
export function recordingLogger(): { warn: string[]; error: string[]; sink: { info(): void; debug(): void; warn(m: string): void; error(m: string): void } } {
  const warn: string[] = [];
  const error: string[] = [];
  return { warn, error, sink: { info() {}, debug() {}, warn: (m) => warn.push(m), error: (m) => error.push(m) } };
}

/**
 * A collector factory for a test file: `make(extra)` creates the test's collector (appId "demo",
 * silent) and hands it to `use` (the file's own variable); it is closed after each test.
 */
export function collectorPerTest(use: (c: Collector) => void): (extra?: Record<string, unknown>) => Collector {
  let current: Collector | undefined;
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
  return (extra = {}) => {
    current = createCollector({ appId: 'demo', logLevel: 'silent', ...extra });
    use(current);
    return current;
  };
}

/**
 * Collectors over a storage filesystem, for test files that restart them (several per test):
 * `make(fs, extra)` creates one (appId "demo", silent, `storage: { fs }`), `keep(c)` adopts one
 * made otherwise; every one is closed after each test.
 */
export function storageCollectorsPerTest(): { make(fs: Vfs, extra?: Record<string, unknown>): Collector; keep(c: Collector): Collector } {
  const open: Collector[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((c) => c.close()));
  });
  const keep = (c: Collector): Collector => {
    open.push(c);
    return c;
  };
  return { make: (fs, extra = {}) => keep(createCollector({ appId: 'demo', logLevel: 'silent', storage: { fs }, ...extra })), keep };
}
