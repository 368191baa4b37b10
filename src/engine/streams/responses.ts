/**
 * Streamed answers for handlers: small helpers that build a streaming `Response` from an
 * iterable, so a handler stays a plain function returning its answer (as msw's and Hono's do).
 *
 *   handle: (req) => sse(async function* ({ lastEventId, signal }) {
 *     yield { id: 1, event: 'tick', data: { n: 1 } };
 *     yield { data: 'bye', delay: 500 };
 *   }, { request: req })
 *   handle: () => ndjson([{ n: 1 }, { n: 2 }], { interval: 100 })
 *   handle: () => textStream(['Hel', 'lo'], { interval: 50 })
 *
 * `sse` sets `Content-Type: text/event-stream`, `Cache-Control: no-cache` and
 * `X-Accel-Buffering: no` (proxies such as nginx must not buffer it). Given `request`, the source
 * sees its `Last-Event-ID`; an array of events resumes after the event with that id by itself; the
 * request may set the speed (`X-Mockyard-Speed: 0` or `?__speed=0`, see speed.ts).
 */
import { iterableBody, isSpeed, type StreamSource } from './iterable-body.js';
import { formatSseEvent, type SseEvent } from './sse-format.js';
import { requestedSpeed } from './speed.js';

export interface StreamInit {
  status?: number;
  statusText?: string;
  /** Extra headers (win over the defaults). */
  headers?: HeadersInit;
  /** The handler's request (`req` or a `Request`): its `Last-Event-ID` and requested speed. */
  request?: { readonly headers: Headers; readonly url?: string };
  /** Divides every delay: 2 twice as fast, 0 at once. Default: the request's, else 1. */
  speed?: number;
  /** Milliseconds before each item that has no `delay` of its own. Default 0. */
  interval?: number;
  /** Ends the stream when aborted (besides the client going away). */
  signal?: AbortSignal;
}

/** Items of a chunked text or NDJSON stream: what to send, optionally with its own wait. */
export type Paced<T> = T | { readonly delay: number; readonly value: T };

/** Wraps a value with the wait before it is sent (ndjson / textStream items). */
export function paced<T>(delay: number, value: T): { readonly delay: number; readonly value: T } {
  return { delay, value, [kPaced]: true } as { readonly delay: number; readonly value: T };
}
const kPaced = Symbol.for('mockyard.streams.paced');
function isPaced<T>(item: Paced<T>): item is { readonly delay: number; readonly value: T } {
  return typeof item === 'object' && item !== null && (item as Record<symbol, unknown>)[kPaced] === true;
}

export const SSE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Type': 'text/event-stream; charset=utf-8',
  'Cache-Control': 'no-cache',
  'X-Accel-Buffering': 'no',
};

function lastEventIdOf(init: StreamInit | undefined): string | null {
  return init?.request?.headers.get('last-event-id') ?? null;
}

function speedOf(init: StreamInit | undefined): number {
  if (init?.speed !== undefined) {
    if (!isSpeed(init.speed)) throw new TypeError(`speed must be a number ≥ 0 (got ${JSON.stringify(init.speed)})`);
    return init.speed;
  }
  return (init?.request && requestedSpeed(init.request)) ?? 1;
}

function interval(init: StreamInit | undefined): number {
  const ms = init?.interval ?? 0;
  if (typeof ms !== 'number' || !(ms >= 0)) throw new TypeError(`interval must be a number of ms ≥ 0 (got ${JSON.stringify(ms)})`);
  return ms;
}

/** The events after the one whose id is `lastEventId` (all of them when no event has it). */
export function resumeAfter<E extends { id?: string | number }>(events: readonly (E | string)[], lastEventId: string | null): readonly (E | string)[] {
  if (lastEventId === null) return events;
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i]!;
    if (typeof e !== 'string' && e.id !== undefined && String(e.id) === lastEventId) return events.slice(i + 1);
  }
  return events;
}

function streamResponse(body: ReadableStream<Uint8Array>, defaults: Record<string, string>, init: StreamInit | undefined): Response {
  const headers = new Headers(defaults);
  if (init?.headers) for (const [k, v] of new Headers(init.headers)) headers.set(k, v);
  return new Response(body, { status: init?.status ?? 200, statusText: init?.statusText, headers });
}

/** A `text/event-stream` answer from events (or strings: the data of a `message` event). */
export function sse(source: StreamSource<SseEvent | string>, init?: StreamInit): Response {
  const lastEventId = lastEventIdOf(init);
  const every = interval(init);
  const events = Array.isArray(source) ? resumeAfter(source as (SseEvent | string)[], lastEventId) : source;
  const body = iterableBody<SseEvent | string>(events, {
    encode: formatSseEvent,
    delayOf: (e) => (typeof e === 'string' ? every : e.delay ?? every),
    speed: speedOf(init),
    lastEventId,
    signal: init?.signal,
  });
  return streamResponse(body, SSE_HEADERS, init);
}

/** A chunked stream of paced items, each encoded by `encode` (ndjson, textStream). */
function pacedStream<T>(source: StreamSource<Paced<T>>, init: StreamInit | undefined, contentType: string, encode: (value: T) => Uint8Array | string): Response {
  const every = interval(init);
  const body = iterableBody<Paced<T>>(source, {
    encode: (item) => encode(isPaced(item) ? item.value : item),
    delayOf: (item) => (isPaced(item) ? item.delay : every),
    speed: speedOf(init),
    lastEventId: lastEventIdOf(init),
    signal: init?.signal,
  });
  return streamResponse(body, { 'Content-Type': contentType, 'Cache-Control': 'no-cache', 'X-Accel-Buffering': 'no' }, init);
}

/** A chunked `application/x-ndjson` answer: one JSON value per line, each its own chunk. */
export function ndjson(source: StreamSource<Paced<unknown>>, init?: StreamInit): Response {
  return pacedStream(source, init, 'application/x-ndjson; charset=utf-8', (value) => `${JSON.stringify(value) ?? 'null'}\n`);
}

/** A chunked text answer (`text/plain` unless `headers` say otherwise): each string or byte chunk as it comes. */
export function textStream(source: StreamSource<Paced<string | Uint8Array>>, init?: StreamInit): Response {
  return pacedStream(source, init, 'text/plain; charset=utf-8', (value) => value);
}
