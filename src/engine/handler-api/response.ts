/**
 * The portable `res` handed to handlers and middlewares: Node style (`statusCode`, `setHeader`,
 * `writeHead`, `write`, `end`) and Express style (`status`, `set`, `type`, `json`, `send`) on one
 * object, buffered in memory and turned into a Response when it ends. It works the same in every
 * host because it never touches a socket.
 *
 * Once `end()` ran, or the builder was sealed (gateway timeout answered for it), every further
 * write is dropped: a response is produced at most once.
 *
 * Node-style streaming: a handler that sets a streamed type (`text/event-stream`, NDJSON:
 * core/media-type.ts streamedFormatOf) or calls `flushHeaders()`, writes, and returns without `end()` is
 * answered at once with a streaming body (`toStreamResponse`): each later `write` goes out as it
 * is made, `end()` ends it, and the client going away emits `'close'` and drops later writes.
 */
import { FastResponse, NULL_BODY_STATUS, textBody, type FastHeaders } from '../../core/fast-response.js';
import { concatBytes } from '../../core/body.js';
import { contentTypeFor, JSON_CONTENT_TYPE, parseMediaType, streamedFormatOf } from '../../core/media-type.js';
import type { HandlerResponse } from '../types.js';
import { HttpError } from '../../core/errors.js';
import { registerStream } from './live-streams.js';

const encoder = new TextEncoder();
/** Bytes a streaming handler may be ahead of its client before `write` returns false (Node's default). */
const STREAM_BUFFER = 16 * 1024;

type HeaderValue = string | number | readonly string[];

function toBytes(chunk: unknown): Uint8Array {
  if (typeof chunk === 'string') return encoder.encode(chunk);
  if (chunk instanceof Uint8Array) return chunk;
  if (chunk instanceof ArrayBuffer) return new Uint8Array(chunk);
  if (ArrayBuffer.isView(chunk)) return new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  return encoder.encode(String(chunk));
}

/** `json` → `application/json; charset=utf-8`; `text/csv` stays as given. */
function resolveType(type: string): string {
  if (type.includes('/')) return type;
  return contentTypeFor(`x.${type.replace(/^\./, '')}`);
}

export class ResponseBuilder implements HandlerResponse {
  statusCode = 200;
  statusMessage = '';
  /** Lower-cased name → [name as given, value]. */
  private readonly headerMap = new Map<string, [string, HeaderValue]>();
  private readonly chunks: Uint8Array[] = [];
  private size = 0;
  /**
   * The body while it is one string (`res.json(x)`, `res.send('…')`): kept as text so the host
   * can write it without an encode step; turned into bytes when more is written.
   */
  private text: string | undefined = undefined;
  private started = false;
  private ended = false;
  private sealed = false;
  private finish: (() => void) | undefined;
  private finishedPromise: Promise<void> | undefined;
  private flushed = false;
  /** While streaming (toStreamResponse): the body's controller; writes go there. */
  private controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  private closeListeners: Array<() => void> = [];
  private drainListeners: Array<{ listener: () => void; once: boolean }> = [];
  /** A write while streaming returned false (the client is behind): 'drain' is due. */
  private mustDrain = false;
  private closed = false;
  private onStreaming: (() => void) | undefined;
  private streamingPromise: Promise<void> | undefined;

  /** Resolves once the handler streams Node style (`streaming` turned true); created on first use. */
  get startedStreaming(): Promise<void> {
    return (this.streamingPromise ??= this.streaming ? Promise.resolve() : new Promise<void>((resolve) => (this.onStreaming = resolve)));
  }

  private checkStreaming(): void {
    if (this.onStreaming !== undefined && this.streaming) {
      this.onStreaming();
      this.onStreaming = undefined;
    }
  }

  /** Resolves when `end()` runs or the builder is sealed (created on first use: hot path). */
  get finished(): Promise<void> {
    return (this.finishedPromise ??= this.done ? Promise.resolve() : new Promise<void>((resolve) => (this.finish = resolve)));
  }

  get headersSent(): boolean {
    return this.started || this.ended;
  }

  get writableEnded(): boolean {
    return this.ended;
  }

  /** True once the builder stopped accepting writes (ended or sealed). */
  get done(): boolean {
    return this.ended || this.sealed;
  }

  /** Drops every later write (the request was already answered some other way). */
  seal(): void {
    this.sealed = true;
    this.finish?.();
    this.emitClose();
  }

  /** Cuts a stream that failed (the host then ends the connection: a truncated answer, never a complete-looking one). */
  failStream(err: unknown): void {
    const controller = this.controller;
    this.controller = undefined;
    this.seal();
    try {
      controller?.error(err);
    } catch {
      // already closed
    }
  }

  flushHeaders(): void {
    if (this.done) return;
    this.started = true;
    this.flushed = true;
    this.checkStreaming();
  }

  /**
   * Whether the handler streams Node style: head started (flushHeaders, writeHead or a write),
   * not ended, and flushed explicitly or of a streamed type.
   */
  get streaming(): boolean {
    return !this.done && this.started && (this.flushed || streamedFormatOf(parseMediaType(this.getHeader('content-type')).type) !== undefined);
  }

  on(event: string, listener: () => void): this {
    if (event === 'close') {
      if (this.closed) queueMicrotask(() => this.callListener(listener));
      else this.closeListeners.push(listener);
    } else if (event === 'drain') this.drainListeners.push({ listener, once: false });
    return this;
  }

  once(event: string, listener: () => void): this {
    if (event === 'drain') this.drainListeners.push({ listener, once: true });
    else this.on(event, listener); // 'close' happens once anyway
    return this;
  }

  off(event: string, listener: () => void): this {
    if (event === 'close') this.closeListeners = this.closeListeners.filter((l) => l !== listener);
    else if (event === 'drain') this.drainListeners = this.drainListeners.filter((l) => l.listener !== listener);
    return this;
  }

  /** The client read enough of what a streaming handler wrote: writing may go on ('drain', as Node's). */
  private emitDrain(): void {
    if (!this.mustDrain) return;
    this.mustDrain = false;
    const listeners = this.drainListeners;
    this.drainListeners = listeners.filter((l) => !l.once);
    for (const { listener } of listeners) this.callListener(listener);
  }

  private callListener(listener: () => void): void {
    try {
      listener();
    } catch {
      // a listener's failure must not break the answer (nor the process)
    }
  }

  private emitClose(): void {
    if (this.closed) return;
    this.closed = true;
    const listeners = this.closeListeners;
    this.closeListeners = [];
    for (const l of listeners) this.callListener(l);
  }

  /**
   * A fresh builder for the error path carrying the headers set so far (CORS headers a
   * middleware set must survive a later error), without body, type or length.
   */
  forError(): ResponseBuilder {
    const next = new ResponseBuilder();
    for (const [key, entry] of this.headerMap) {
      if (key !== 'content-type' && key !== 'content-length') next.headerMap.set(key, entry);
    }
    return next;
  }

  /** Headers as a plain object (array values joined), for the default error response. */
  headerRecord(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [, [name, value]] of this.headerMap) out[name] = Array.isArray(value) ? value.join(', ') : String(value);
    return out;
  }

  setHeader(name: string, value: HeaderValue): this {
    if (!this.done) this.headerMap.set(name.toLowerCase(), [name, Array.isArray(value) ? [...value] : (value as string | number)]);
    return this;
  }

  getHeader(name: string): string | undefined {
    const v = this.headerMap.get(name.toLowerCase())?.[1];
    if (v === undefined) return undefined;
    return Array.isArray(v) ? v.join(', ') : String(v);
  }

  removeHeader(name: string): this {
    if (!this.done) this.headerMap.delete(name.toLowerCase());
    return this;
  }

  hasHeader(name: string): boolean {
    return this.headerMap.has(name.toLowerCase());
  }

  getHeaderNames(): string[] {
    return [...this.headerMap.keys()];
  }

  writeHead(status: number, messageOrHeaders?: string | Record<string, HeaderValue>, headers?: Record<string, HeaderValue>): this {
    if (this.done) return this;
    this.statusCode = status;
    let h = headers;
    if (typeof messageOrHeaders === 'string') this.statusMessage = messageOrHeaders;
    else if (messageOrHeaders) h = messageOrHeaders;
    if (h) for (const [k, v] of Object.entries(h)) this.setHeader(k, v);
    this.started = true;
    return this;
  }

  write(chunk: string | Uint8Array): boolean {
    if (this.done) return false;
    this.started = true;
    if (this.controller) {
      const bytes = toBytes(chunk);
      if (bytes.byteLength > 0) this.controller.enqueue(bytes);
      // Node's contract: false once the client is STREAM_BUFFER bytes behind; 'drain' follows.
      if ((this.controller.desiredSize ?? 0) > 0) return true;
      this.mustDrain = true;
      return false;
    }
    if (typeof chunk === 'string' && this.text === undefined && this.chunks.length === 0) {
      this.text = chunk;
      this.checkStreaming();
      return true;
    }
    if (this.text !== undefined) {
      const first = encoder.encode(this.text);
      this.text = undefined;
      this.chunks.push(first);
      this.size += first.byteLength;
    }
    const bytes = toBytes(chunk);
    this.chunks.push(bytes);
    this.size += bytes.byteLength;
    this.checkStreaming();
    // A stream whose Response is not out yet (the handler is still in its first synchronous run):
    // the same bound, the stream's first pull after it starts emits 'drain'.
    if (this.size <= STREAM_BUFFER || !this.streaming) return true;
    this.mustDrain = true;
    return false;
  }

  end(chunk?: string | Uint8Array | (() => void), _encoding?: unknown, _cb?: unknown): this {
    if (this.done) return this;
    if (chunk !== undefined && chunk !== null && typeof chunk !== 'function') this.write(chunk);
    this.ended = true;
    this.finish?.();
    if (this.controller) {
      try {
        this.controller.close();
      } catch {
        // cancelled meanwhile
      }
      this.controller = undefined;
    }
    this.emitClose();
    return this;
  }

  status(code: number): this {
    if (!this.done) this.statusCode = code;
    return this;
  }

  type(contentType: string): this {
    return this.setHeader('Content-Type', resolveType(contentType));
  }

  set(name: string | Record<string, HeaderValue>, value?: HeaderValue): this {
    if (typeof name === 'object') {
      for (const [k, v] of Object.entries(name)) this.setHeader(k, v);
      return this;
    }
    if (name.toLowerCase() === 'content-type' && typeof value === 'string') return this.type(value);
    return this.setHeader(name, value ?? '');
  }

  /** Express alias of `set`. */
  header(name: string, value: HeaderValue): this {
    return this.set(name, value);
  }

  /** Express alias of `getHeader`. */
  get(name: string): string | undefined {
    return this.getHeader(name);
  }

  json(value: unknown): this {
    if (this.done) return this;
    if (!this.hasHeader('content-type')) this.setHeader('Content-Type', JSON_CONTENT_TYPE);
    // `undefined` has no JSON form; Express sends an empty body for it.
    return this.end(value === undefined ? '' : JSON.stringify(value));
  }

  /**
   * Express `send`: strings as text/html unless a type is set; bytes as application/octet-stream;
   * anything else (objects, arrays, numbers, booleans, null) as JSON; no argument → empty body.
   */
  send(value?: unknown): this {
    if (this.done) return this;
    if (value === undefined) return this.end();
    if (typeof value === 'string') {
      if (!this.hasHeader('content-type')) this.setHeader('Content-Type', 'text/html; charset=utf-8');
      return this.end(value);
    }
    if (value instanceof Uint8Array || value instanceof ArrayBuffer || ArrayBuffer.isView(value)) {
      if (!this.hasHeader('content-type')) this.setHeader('Content-Type', 'application/octet-stream');
      return this.end(toBytes(value));
    }
    return this.json(value);
  }

  /** Express `sendStatus`: the status with its code name as text. */
  sendStatus(code: number): this {
    this.statusCode = code;
    if (!this.hasHeader('content-type')) this.setHeader('Content-Type', 'text/plain; charset=utf-8');
    return this.end(String(code));
  }

  /** Express `redirect([status,] url)`. */
  redirect(statusOrUrl: number | string, url?: string): this {
    const status = typeof statusOrUrl === 'number' ? statusOrUrl : 302;
    const location = typeof statusOrUrl === 'string' ? statusOrUrl : url ?? '/';
    this.statusCode = status;
    this.setHeader('Location', location);
    return this.end();
  }

  private validStatus(): number {
    const status = Number(this.statusCode);
    if (Number.isInteger(status) && status >= 200 && status <= 599) return status;
    throw new HttpError(500, `Invalid response status ${JSON.stringify(this.statusCode)}: use an integer from 200 to 599`);
  }

  /** The Response for what was written. `head` drops the body but keeps Content-Length. */
  toResponse(head: boolean): Response {
    const status = this.validStatus();
    const headers: FastHeaders = {};
    let multi: Array<[string, string]> | undefined;
    for (const [, [name, value]] of this.headerMap) {
      if (Array.isArray(value)) {
        (multi ??= []).push(...value.map((v): [string, string] => [name, String(v)]));
      } else if (name.toLowerCase() !== 'content-length') {
        headers[name] = String(value);
      }
    }
    const noBody = NULL_BODY_STATUS.has(status); // validStatus: 200 to 599
    let body: string | Uint8Array | null = null;
    let length = 0;
    if (!noBody) {
      if (this.text !== undefined) ({ body, length } = textBody(this.text));
      else {
        body = concatBytes(this.chunks, this.size);
        length = body.byteLength;
      }
    }
    if (multi) {
      const h = new Headers(headers);
      for (const [k, v] of multi) h.append(k, v);
      if (body !== null) h.set('Content-Length', String(length));
      const native = typeof body === 'string' ? encoder.encode(body) : body;
      return new Response(head ? null : (native as BodyInit | null), { status, statusText: this.statusMessage, headers: h });
    }
    if (body === null) return FastResponse.empty(status, headers);
    headers['Content-Length'] = String(length);
    return new FastResponse(head ? null : body, { status, statusText: this.statusMessage, headers }) as unknown as Response;
  }

  /**
   * The Response of a Node-style stream (see `streaming`): what was written so far first, then
   * each write as it is made, until `end()`. No Content-Length. `head` sends the head only.
   */
  toStreamResponse(head: boolean): Response {
    const status = this.validStatus();
    const headers = new Headers();
    for (const [, [name, value]] of this.headerMap) {
      if (name.toLowerCase() === 'content-length') continue;
      if (Array.isArray(value)) for (const v of value) headers.append(name, String(v));
      else headers.set(name, String(value));
    }
    if (head) {
      this.seal();
      return new Response(null, { status, statusText: this.statusMessage, headers });
    }
    const pending: Uint8Array[] = this.text !== undefined ? [encoder.encode(this.text)] : this.chunks.splice(0);
    this.text = undefined;
    this.size = 0;
    const body = new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          controller.enqueue(new Uint8Array(0)); // the head goes out now (a host that waits for the first bytes)
          for (const c of pending) if (c.byteLength > 0) controller.enqueue(c);
          if (this.ended) controller.close();
          else this.controller = controller;
        },
        pull: () => this.emitDrain(), // the reader took enough: writes may go on
        cancel: () => {
          this.controller = undefined;
          this.seal(); // the client went away: later writes are dropped, 'close' tells the handler
        },
      },
      { highWaterMark: STREAM_BUFFER, size: (chunk) => chunk.byteLength },
    );
    registerStream(body, { stop: () => this.end(), onEnd: (listener) => this.on('close', listener) }); // ended when the engine closes
    return new Response(body, { status, statusText: this.statusMessage, headers });
  }
}
