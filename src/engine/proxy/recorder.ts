/**
 * The recorder (`proxy.record`): sees every exchange the proxy layer forwards, tees the request
 * body (tapRequest, before it is sent) and the answer's body (onAnswer: the client's copy streams
 * on untouched; the recorder reads the other), and once both are read (`follow`):
 *   1. adds an entry to the session's HAR 1.2 log (recordings/har.ts: every status, request bodies as
 *      `postData`, secrets redacted);
 *   2. keeps the exchange in the mock folder (record-files.ts): a 2xx GET body as the file the
 *      lookup finds, and every answer — any method, status and query, with its meaningful headers
 *      — in the path's `<name>@recorded.json`, which the recordings layer replays exactly.
 * Bodies are kept up to `captureLimit` (past it the HAR omits the text and nothing is written).
 * A failed capture or write is logged, never seen by the client.
 */
import type { Entry, Har } from 'har-format';
import type { Logger } from '../../core/logger.js';
import { VERSION } from '../../core/version.js';
import type { Vfs } from '../../vfs/types.js';
import type { ResolvedRecordOptions } from './options.js';
import { harEntry, harLog } from '../recordings/har.js';
import { headersOf, type FlatHeaders } from '../../core/flat-headers.js';
import { concatBytes } from '../../core/body.js';
import type { RequestContext } from '../context.js';
import { recordFiles, type CapturedExchange } from './record-files.js';
import { recordStream, streamFormatOf } from '../recordings/stream-record.js';

/** What the proxy did, as the recorder gets it: the exchange and the answer sent on. */
export interface ProxiedExchange {
  ctx: RequestContext;
  /** The URL fetched. */
  url: string;
  /** The headers sent to the target (flat `[name, value, …]`). */
  requestHeaders: FlatHeaders;
  /** The answer as the client gets it (its body not yet read). */
  response: Response;
  /** performance.now() when the request to the target started. */
  started: number;
  /** The request body as `tapRequest` captures it (absent: the request had none). */
  requestBody?: Promise<Captured>;
}

/** A body as captured: its bytes (null past the capture limit) and its size. */
export interface Captured {
  bytes: Uint8Array | null;
  size: number;
}

export interface Recorder {
  /** For the proxy layer, before sending: the body to send instead, and the recorder's copy. */
  tapRequest(body: ReadableStream<Uint8Array> | Uint8Array): { body: ReadableStream<Uint8Array> | Uint8Array; captured: Promise<Captured> };
  /** For the proxy layer: returns the Response to send (its body teed when there is one). */
  onAnswer(exchange: ProxiedExchange): Response;
  /** The session so far as a HAR 1.2 log (its latest entries, up to `keepInMemory` bytes; `comment` says how many were dropped). */
  har(): Har;
  /** Resolves once every capture and file write started so far has finished. */
  settled(): Promise<void>;
  /** Called after each HAR entry (e.g. the CLI saves the log); returns the unsubscribe. */
  onEntry(listener: (entry: Entry) => void): () => void;
}

export interface RecorderOptions {
  record: ResolvedRecordOptions;
  vfs: Vfs;
  fsDir: string;
  logger: Logger;
  /** Bytes of HAR entries `har()` keeps (default 64 MiB); past it the oldest are dropped from memory. */
  keepInMemory?: number;
}

/** Default bound on the HAR entries kept in memory (`har()`); the CLI's file has them all. */
export const HAR_MEMORY_LIMIT = 64 * 1024 * 1024;

/** About what an entry holds in memory: its bodies' text plus a little for the rest. */
function entryWeight(e: Entry): number {
  return 1024 + (e.response.content.text?.length ?? 0) + (e.request.postData?.text?.length ?? 0);
}

async function capture(body: ReadableStream<Uint8Array>, limit: number): Promise<Captured> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  let kept = true;
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (kept && size > limit) {
      kept = false;
      chunks.length = 0;
    }
    if (kept) chunks.push(value);
  }
  return { bytes: kept ? concatBytes(chunks, size) : null, size };
}

export function createRecorder(options: RecorderOptions): Recorder {
  const { record, vfs, fsDir, logger } = options;
  // The session's HAR entries, the oldest dropped past `keepInMemory` (listeners saw every one).
  const entries: Entry[] = [];
  const keepInMemory = options.keepInMemory ?? HAR_MEMORY_LIMIT;
  let kept = 0;
  let dropped = 0;
  const pending = new Set<Promise<void>>();
  let listeners: Array<(entry: Entry) => void> = [];

  const keep = recordFiles({ vfs, fsDir, logger, overwrite: record.overwrite, redact: record.redact, captureLimit: record.captureLimit });

  async function follow(x: ProxiedExchange, mine: ReadableStream<Uint8Array> | null, startedDateTime: string, streamed?: Promise<{ bytes: Uint8Array | null; size: number }>): Promise<void> {
    const headersAt = performance.now();
    let got: { bytes: Uint8Array | null; size: number } = { bytes: new Uint8Array(0), size: 0 };
    try {
      if (streamed) got = await streamed; // an event stream: recorded (and written) by recordings/stream-record.ts
      else if (mine) got = await capture(mine, record.captureLimit);
    } catch (err) {
      logger.warn(`record: reading ${x.ctx.pathname} from the target failed: ${(err as Error)?.message ?? String(err)}`);
      return;
    }
    let sent: Captured = { bytes: new Uint8Array(0), size: 0 };
    try {
      if (x.requestBody) sent = await x.requestBody;
    } catch (err) {
      logger.warn(`record: reading the request body of ${x.ctx.pathname} failed: ${(err as Error)?.message ?? String(err)}`);
      return;
    }
    const response = x.response;
    const requestHeaders = headersOf(x.requestHeaders);
    const entry = harEntry({
      startedDateTime,
      method: x.ctx.method,
      url: x.url,
      requestHeaders,
      requestBody: sent.bytes,
      requestBodySize: sent.size,
      status: response.status,
      statusText: response.statusText,
      responseHeaders: response.headers,
      body: got.bytes,
      bodySize: got.size,
      wait: Math.max(0, headersAt - x.started),
      receive: Math.max(0, performance.now() - headersAt),
    }, record.redact);
    entries.push(entry);
    kept += entryWeight(entry);
    while (kept > keepInMemory && entries.length > 1) {
      kept -= entryWeight(entries.shift()!);
      dropped++;
    }
    for (const l of listeners) {
      try {
        l(entry);
      } catch (err) {
        logger.error(`record: an entry listener failed: ${(err as Error)?.message ?? String(err)}`);
      }
    }
    if (streamed) return; // an event stream is kept by recordings/stream-record.ts
    const captured: CapturedExchange = {
      method: x.ctx.method,
      subPath: x.ctx.subPath,
      search: x.ctx.search,
      pathname: x.ctx.pathname,
      origin: new URL(x.url).origin,
      requestBody: sent.bytes,
      requestType: requestHeaders.get('content-type'),
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
      body: got.bytes,
    };
    await keep(captured);
  }

  function track(task: Promise<void>): void {
    pending.add(task);
    void task.finally(() => pending.delete(task));
  }

  return {
    onAnswer(x) {
      const startedDateTime = new Date(Date.now() - Math.max(0, performance.now() - x.started)).toISOString();
      let response = x.response;
      let mine: ReadableStream<Uint8Array> | null = null;
      // An event stream goes on live and is written as a .sse / .ndjson file with its timing (recordings/stream-record.ts).
      const stream = streamFormatOf(response.headers.get('content-type')) ? recordStream(x.ctx, response, { vfs, fsDir, logger, overwrite: record.overwrite, limit: record.captureLimit }) : undefined;
      if (stream) response = stream.response;
      else if (response.body) {
        const [client, copy] = response.body.tee();
        mine = copy;
        response = new Response(client, { status: response.status, statusText: response.statusText, headers: response.headers });
      }
      track(follow({ ...x, response }, mine, startedDateTime, stream?.captured));
      return response;
    },
    tapRequest(body) {
      if (body instanceof Uint8Array) return { body, captured: Promise.resolve({ bytes: body.byteLength > record.captureLimit ? null : body, size: body.byteLength }) };
      const [out, copy] = body.tee();
      const captured = capture(copy, record.captureLimit);
      captured.catch(() => {}); // a failed upload is reported by the exchange itself
      return { body: out, captured };
    },
    har() {
      const log = harLog(entries, VERSION);
      if (dropped > 0) log.log.comment = `${dropped} earlier entries of this session are not kept in memory (over ${keepInMemory} bytes); a HAR file kept with the session has them`;
      return log;
    },
    async settled() {
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },
    onEntry(listener) {
      listeners = [...listeners, listener];
      return () => {
        listeners = listeners.filter((l) => l !== listener);
      };
    },
  };
}
