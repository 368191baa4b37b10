/**
 * The recorder (`proxy.record`): sees every answer the proxy layer sends on (layer.ts
 * `onAnswer`), tees its body (the client's copy streams on untouched; the recorder reads the
 * other), and then
 *   - adds an entry to the session's HAR 1.2 log (har.ts, secrets redacted), every status;
 *   - for a GET answered 2xx with a full body (not 204/205/206), writes the body as a mock file at
 *     the path the files layer's lookup finds next time (record-path.ts): JSON pretty-printed,
 *     anything else byte for byte (the transport has already decoded gzip/br). Writes go through the Vfs
 *     (`create`: never replaces an existing file; with `overwrite`, `write`: atomic replace).
 * A failed capture or write is logged, never seen by the client.
 */
import type { Entry, Har } from 'har-format';
import type { Logger } from '../../core/logger.js';
import { VERSION } from '../../core/version.js';
import { joinSafe, normalizeVfsPath } from '../../vfs/path.js';
import { isVfsError, type Vfs } from '../../vfs/types.js';
import type { ResolvedRecordOptions } from '../options.js';
import { harEntry, harLog } from './har.js';
import { headersOf } from '../../core/flat-headers.js';
import type { FlatHeaders } from '../../core/flat-headers.js';
import type { RequestContext } from '../context.js';
import { recordPath } from './record-path.js';
import { recordStream, streamFormatOf } from '../streams/record.js';

const NOT_RECORDED_STATUS = new Set([204, 205, 206]);

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
}

export interface Recorder {
  /** For the proxy layer: returns the Response to send (its body teed when there is one). */
  onAnswer(exchange: ProxiedExchange): Response;
  /** The session so far as a HAR 1.2 log. */
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
}

async function capture(body: ReadableStream<Uint8Array>, limit: number): Promise<{ bytes: Uint8Array | null; size: number }> {
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
  if (!kept) return { bytes: null, size };
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.byteLength;
  }
  return { bytes, size };
}

export function createRecorder(options: RecorderOptions): Recorder {
  const { record, vfs, fsDir, logger } = options;
  const entries: Entry[] = [];
  const pending = new Set<Promise<void>>();
  let listeners: Array<(entry: Entry) => void> = [];

  async function writeFile(x: ProxiedExchange, bytes: Uint8Array): Promise<void> {
    let target: ReturnType<typeof recordPath>;
    try {
      target = recordPath(x.ctx.subPath, x.ctx.search, x.response.headers.get('content-type'));
    } catch {
      logger.warn(`record: ${x.ctx.pathname} is not a safe file path; not written`);
      return;
    }
    if (target === null) {
      logger.info(`record: ${x.ctx.pathname}${x.ctx.search} has no file name the lookup would find; not written`);
      return;
    }
    const path = normalizeVfsPath(joinSafe(fsDir, target.rel));
    let data: Uint8Array | string = bytes;
    if (target.json) {
      try {
        data = `${JSON.stringify(JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes)), null, 2)}\n`;
      } catch {
        logger.warn(`record: ${x.ctx.pathname} answered invalid JSON; written as received`);
      }
    }
    try {
      if (record.overwrite) await vfs.write(path, data);
      else await vfs.create(path, data);
      logger.info(`record: ${x.ctx.method} ${x.ctx.pathname}${x.ctx.search} → ${target.rel}`);
    } catch (err) {
      if (isVfsError(err, 'EEXIST')) logger.info(`record: ${target.rel} exists; kept (overwrite is off)`);
      else logger.warn(`record: writing ${target.rel} failed: ${(err as Error)?.message ?? String(err)}`);
    }
  }

  async function follow(x: ProxiedExchange, mine: ReadableStream<Uint8Array> | null, startedDateTime: string, streamed?: Promise<{ bytes: Uint8Array | null; size: number }>): Promise<void> {
    const headersAt = performance.now();
    let got: { bytes: Uint8Array | null; size: number } = { bytes: new Uint8Array(0), size: 0 };
    try {
      if (streamed) got = await streamed; // an event stream: recorded (and written) by streams/record.ts
      else if (mine) got = await capture(mine, record.captureLimit);
    } catch (err) {
      logger.warn(`record: reading ${x.ctx.pathname} from the target failed: ${(err as Error)?.message ?? String(err)}`);
      return;
    }
    const response = x.response;
    const entry = harEntry({
      startedDateTime,
      method: x.ctx.method,
      url: x.url,
      requestHeaders: headersOf(x.requestHeaders),
      status: response.status,
      statusText: response.statusText,
      responseHeaders: response.headers,
      body: got.bytes,
      bodySize: got.size,
      wait: Math.max(0, headersAt - x.started),
      receive: Math.max(0, performance.now() - headersAt),
    }, record.redact);
    entries.push(entry);
    for (const l of listeners) {
      try {
        l(entry);
      } catch (err) {
        logger.error(`record: an entry listener failed: ${(err as Error)?.message ?? String(err)}`);
      }
    }
    if (streamed) return;
    if (x.ctx.method === 'GET' && response.ok && !NOT_RECORDED_STATUS.has(response.status) && got.bytes !== null) {
      await writeFile(x, got.bytes);
    } else if (x.ctx.method === 'GET' && response.ok && got.bytes === null) {
      logger.warn(`record: ${x.ctx.pathname} is larger than the capture limit (${record.captureLimit} bytes); not written`);
    }
  }

  return {
    onAnswer(x) {
      const startedDateTime = new Date(Date.now() - Math.max(0, performance.now() - x.started)).toISOString();
      let response = x.response;
      let mine: ReadableStream<Uint8Array> | null = null;
      // An event stream goes on live and is written as a .sse / .ndjson file with its timing (streams/record.ts).
      const stream = streamFormatOf(response.headers.get('content-type')) ? recordStream(x.ctx, response, { vfs, fsDir, logger, overwrite: record.overwrite, limit: record.captureLimit }) : undefined;
      if (stream) response = stream.response;
      else if (response.body) {
        const [client, copy] = response.body.tee();
        mine = copy;
        response = new Response(client, { status: response.status, statusText: response.statusText, headers: response.headers });
      }
      const task = follow({ ...x, response }, mine, startedDateTime, stream?.captured);
      pending.add(task);
      void task.finally(() => pending.delete(task));
      return response;
    },
    har: () => harLog(entries, VERSION),
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
