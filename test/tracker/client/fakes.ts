/**
 * Fakes for the tracker client's unit tests: a fetch whose answers the test gives by hand, a
 * sendBeacon with a byte budget like Chromium's, a WebSocket the test drives, and a Map-backed
 * localStorage. All of them record what the client did.
 */
import { gunzipSync } from 'node:zlib';
import { afterEach, beforeEach, vi } from 'vitest';
import { createTrackerClient, type TrackerClient, type TrackerClientOptions } from '../../../src/tracker/client.js';
import type { WebSocketLike } from '../../../src/tracker/client/types.js';

export interface Ingest {
  type: string;
  batchId: string;
  events: Array<Record<string, unknown>>;
}

export interface FetchCall {
  url: string;
  init: RequestInit;
  body: Ingest;
  answer(status: number, body?: unknown, headers?: Record<string, string>): void;
  fail(error?: Error): void;
  aborted: boolean;
}

export function fakeFetch() {
  const calls: FetchCall[] = [];
  const open: FetchCall[] = [];
  const fn = (input: RequestInfo | URL, init?: RequestInit): Promise<Response> =>
    new Promise<Response>((resolve, reject) => {
      const call: FetchCall = {
        url: String(input),
        init: init!,
        body: JSON.parse(typeof init!.body === 'string' ? init!.body : gunzipSync(init!.body as Uint8Array).toString()) as Ingest,
        aborted: false,
        answer(status, body, headers = {}) {
          open.splice(open.indexOf(call), 1);
          resolve(new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } }));
        },
        fail(error = new TypeError('Failed to fetch')) {
          open.splice(open.indexOf(call), 1);
          reject(error);
        },
      };
      init?.signal?.addEventListener('abort', () => {
        call.aborted = true;
        if (open.includes(call)) call.fail(new DOMException('The operation was aborted.', 'AbortError'));
      });
      calls.push(call);
      open.push(call);
    });
  return {
    fn: fn as typeof fetch,
    calls,
    open,
    /** Answers every open request with `status` (2xx by default). */
    answerAll(status = 200) {
      for (const c of [...open]) c.answer(status, status < 300 ? { ok: true, saved: c.body.events.length } : { status, message: `status ${status}` });
    },
  };
}

/** sendBeacon with Chromium's rule: refused once the bodies handed over pass `budget` bytes. */
export function fakeBeacon(budget = 64 * 1024) {
  const beacons: Array<{ url: string; body: Ingest; size: number }> = [];
  let used = 0;
  const fn = (url: string, data: Blob): boolean => {
    if (used + data.size > budget) return false;
    used += data.size;
    beacons.push({ url, body: undefined as unknown as Ingest, size: data.size });
    const entry = beacons[beacons.length - 1]!;
    void data.text().then((t) => (entry.body = JSON.parse(t) as Ingest));
    return true;
  };
  return { fn, beacons, get used() { return used; } };
}

export function fakeStorage(): Storage {
  const map = new Map<string, string>();
  return {
    get length() {
      return map.size;
    },
    key: (i: number) => [...map.keys()][i] ?? null,
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => void map.set(k, String(v)),
    removeItem: (k: string) => void map.delete(k),
    clear: () => map.clear(),
  };
}

export class FakeSocket implements WebSocketLike {
  static all: FakeSocket[] = [];
  readyState = 0;
  sent: Array<Record<string, unknown>> = [];
  closedWith: { code?: number; reason?: string } | undefined;
  onopen: ((ev: unknown) => void) | null = null;
  onmessage: ((ev: { data: unknown }) => void) | null = null;
  onclose: ((ev: { code: number; reason: string }) => void) | null = null;
  onerror: ((ev: unknown) => void) | null = null;

  constructor(readonly url: string) {
    FakeSocket.all.push(this);
  }
  send(data: string): void {
    this.sent.push(JSON.parse(data) as Record<string, unknown>);
  }
  close(code?: number, reason?: string): void {
    this.closedWith = { code, reason };
    this.readyState = 3;
  }
  // Test side:
  open(): void {
    this.readyState = 1;
    this.onopen?.({});
  }
  reply(msg: unknown): void {
    this.onmessage?.({ data: JSON.stringify(msg) });
  }
  serverClose(code: number, reason = ''): void {
    this.readyState = 3;
    this.onclose?.({ code, reason });
  }
  ingests(): Ingest[] {
    return this.sent.filter((m) => m.type === 'ingest') as unknown as Ingest[];
  }
}

export interface Harness {
  client: TrackerClient;
  fetch: ReturnType<typeof fakeFetch>;
  beacon: ReturnType<typeof fakeBeacon>;
  storage: Storage;
  warnings: string[];
}

const clients: TrackerClient[] = [];

export function harness(options: TrackerClientOptions = {}, storage: Storage = fakeStorage()): Harness {
  const fetch = fakeFetch();
  const beacon = fakeBeacon();
  const warnings: string[] = [];
  const client = createTrackerClient({
    endpoint: 'https://collector.test/_tracker/events',
    compress: false,
    flushInterval: 0,
    beaconOnPageHide: false,
    fetch: fetch.fn,
    sendBeacon: beacon.fn,
    localStorage: storage,
    logger: { info() {}, warn: (m: string) => warnings.push(m), error: (m: string) => warnings.push(m) },
    ...options,
  });
  clients.push(client);
  return { client, fetch, beacon, storage, warnings };
}

export function stopAll(): void {
  for (const c of clients.splice(0)) c.stop();
  FakeSocket.all = [];
}

/** Event `i` of a run, about `size` bytes of JSON. */
export function ev(i: number, size = 0): Record<string, unknown> {
  return { type: 'test', i, timestamp: '2026-01-01T00:00:00.000Z', ...(size ? { pad: 'x'.repeat(size) } : {}) };
}

export const seq = (calls: Array<{ body: Ingest }>) => calls.flatMap((c) => c.body.events.map((e) => e.i));

/** Fake timers around every test of the calling file; clients made by `harness` are stopped after each. */
export function useFakeTimersPerTest(): void {
  beforeEach(() => {
    vi.useFakeTimers();
    FakeSocket.all = [];
  });
  afterEach(() => {
    stopAll();
    vi.useRealTimers();
    vi.restoreAllMocks();
  });
}
