/**
 * A Response body that pulls from an iterable (sync or async) one item at a time, as the client
 * reads: nothing is computed ahead of the reader and nothing is buffered, so every item reaches
 * the host's socket (or the page) as soon as it is produced.
 *
 *   - each item may carry a `delay` (ms before it is sent), divided by `speed` (`0`: no waiting);
 *   - the first chunk is empty: a host that waits for the first bytes before it sends the head
 *     (the node host does, to turn an early failure into a JSON 500) sends the head at once, so
 *     an `EventSource` opens before the first event;
 *   - the client going away (the host cancels the body) aborts `signal`, ends a pending wait and
 *     calls the iterator's `return()`: a generator's `finally` runs (at its next `yield` when it is
 *     busy; use `signal` to stop a long wait inside the generator);
 *   - an error from the iterator errors the body: the host cuts the connection (a truncated
 *     stream, never a silently complete one);
 *   - what went out is noted in a bounded preview (core/stream-preview.ts) for the journal;
 *   - the engine closing ends it (`signal` option, or the handler layer through handler-api/live-streams.ts).
 */
import { previewOf } from '../../core/stream-preview.js';
import { endSignal, registerStream } from '../handler-api/live-streams.js';
import { abortableSleep } from '../../core/timers.js';

/** What a stream's source function is given. */
export interface StreamControl {
  /** Aborted when the client goes away (or the engine closes): stop waiting, clean up. */
  readonly signal: AbortSignal;
  /** The request's `Last-Event-ID` header (an `EventSource` reconnecting), or null. */
  readonly lastEventId: string | null;
}

type Items<T> = Iterable<T> | AsyncIterable<T>;

/** An iterable of items, or a function (given the client's signal and `Last-Event-ID`) returning one. */
export type StreamSource<T> = Items<T> | ((control: StreamControl) => Items<T> | Promise<Items<T>>);

export interface IterableBodyOptions<T> {
  /** Turns an item into bytes (or text); an empty result sends nothing. */
  encode(item: T): Uint8Array | string;
  /** The item's wait before it is sent, in ms (before `speed`). */
  delayOf?(item: T): number | undefined;
  /** Delay divisor: 1 as given, 2 twice as fast, 0 at once. Default 1. */
  speed?: number;
  lastEventId?: string | null;
  /** How to wait (the engine passes its sleeper, so closing the engine ends waits). */
  sleep?(ms: number, signal: AbortSignal): Promise<void>;
  /** Also aborts the stream (the engine closing). */
  signal?: AbortSignal;
}

const encoder = new TextEncoder();
/** The longest wait a timer can hold (≈ 24.8 days); a longer one would fire at once. */
const MAX_WAIT = 2 ** 31 - 1;

function isAsyncIterable<T>(value: unknown): value is AsyncIterable<T> {
  return value != null && typeof (value as AsyncIterable<T>)[Symbol.asyncIterator] === 'function';
}

function isIterable<T>(value: unknown): value is Iterable<T> {
  return value != null && typeof value !== 'string' && typeof (value as Iterable<T>)[Symbol.iterator] === 'function';
}

async function open<T>(source: StreamSource<T>, control: StreamControl): Promise<Iterator<T> | AsyncIterator<T>> {
  const items = typeof source === 'function' ? await source(control) : source;
  if (isAsyncIterable<T>(items)) return items[Symbol.asyncIterator]();
  if (isIterable<T>(items)) return items[Symbol.iterator]();
  throw new TypeError('A stream source must be an iterable, an async iterable (e.g. an async generator) or a function returning one');
}

/** Checks a `speed` factor (options and request parameters): a finite number ≥ 0. */
export function isSpeed(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

export function iterableBody<T>(source: StreamSource<T>, options: IterableBodyOptions<T>): ReadableStream<Uint8Array> {
  const abort = new AbortController();
  const signal = abort.signal;
  const speed = options.speed ?? 1;
  const sleep = options.sleep ?? abortableSleep;
  const control: StreamControl = { signal, lastEventId: options.lastEventId ?? null };
  let iterator: Iterator<T> | AsyncIterator<T> | undefined;
  let finished = false;
  let preview: ReturnType<typeof previewOf> | undefined; // what observers (the journal) see of it
  const end = endSignal(); // for the handler layer's live streams (handler-api/live-streams.ts)
  const ended = () => {
    preview?.end();
    end.ended();
  };

  const stop = (reason?: unknown) => {
    ended();
    if (!signal.aborted) abort.abort(reason);
    if (finished) return;
    finished = true;
    const it = iterator;
    // Not awaited: an async generator busy in an `await` runs its `finally` at its next `yield`.
    if (it?.return) Promise.resolve().then(() => it.return!()).catch(() => {});
  };
  const outer = options.signal;
  let ctl: ReadableStreamDefaultController<Uint8Array> | undefined;
  // The engine closing ends the stream for the client (a clean end, as the last event sent).
  const onOuterAbort = () => {
    const wasFinished = finished;
    stop(outer?.reason);
    if (!wasFinished) {
      try {
        ctl?.close();
      } catch {
        // already closed or errored
      }
    }
  };

  const stream = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        ctl = controller;
        if (outer) {
          if (outer.aborted) onOuterAbort();
          else outer.addEventListener('abort', onOuterAbort, { once: true });
        }
        controller.enqueue(new Uint8Array(0)); // the head goes out now (see above)
      },
      async pull(controller) {
        try {
          iterator ??= await open(source, control);
          for (;;) {
            if (signal.aborted) return;
            const step = await iterator.next();
            if (step.done) {
              finished = true;
              ended();
              outer?.removeEventListener('abort', onOuterAbort);
              controller.close();
              return;
            }
            const item = step.value;
            const delay = options.delayOf?.(item) ?? 0;
            if (delay > 0 && speed > 0) await sleep(Math.min(delay / speed, MAX_WAIT), signal);
            if (signal.aborted) return;
            const encoded = options.encode(item);
            const bytes = typeof encoded === 'string' ? encoder.encode(encoded) : encoded;
            if (bytes.byteLength === 0) continue;
            controller.enqueue(bytes);
            preview?.note(bytes);
            return;
          }
        } catch (err) {
          // An item that failed to encode leaves the iterator open: close it too (its `finally` runs).
          const it = finished ? undefined : iterator;
          finished = true;
          if (it?.return) Promise.resolve().then(() => it.return!()).catch(() => {});
          ended();
          outer?.removeEventListener('abort', onOuterAbort);
          if (!signal.aborted) controller.error(err);
        }
      },
      cancel(reason) {
        outer?.removeEventListener('abort', onOuterAbort);
        stop(reason);
      },
    },
    { highWaterMark: 0 },
  );
  preview = previewOf(stream);
  registerStream(stream, { stop: onOuterAbort, onEnd: end.onEnd });
  return stream;
}
