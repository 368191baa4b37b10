/**
 * Recording a proxied stream (`proxy.record`): an upstream answer `text/event-stream` (or
 * `application/x-ndjson`) with a 2xx status, whatever the method (a chat completion is a POST),
 * goes on to the client chunk by chunk as it arrives, while each event (each NDJSON line) is
 * noted with the time since the previous one; when the stream ends, it is written as
 * `<path>.sse` / `<path>.ndjson` (recorded-format.ts), the file the streams layer replays for the
 * same path. The recorder (proxy/recorder.ts) hands such answers here and writes no other file
 * for them.
 *
 * Not written: a stream the client left before its end (a partial recording would replay as
 * complete), one larger than the capture limit, a path the lookup could not find a file for.
 */
import { concatBytes } from '../../core/body.js';
import type { Logger } from '../../core/logger.js';
import { previewOf } from '../../core/stream-preview.js';
import { parseMediaType, streamedFormatOf } from '../../core/media-type.js';
import { joinSafe, normalizeVfsPath, requestPathToVfs } from '../../vfs/path.js';
import { isVfsError, type Vfs } from '../../vfs/types.js';
import type { RequestContext } from '../context.js';
import { formatNdjsonFile, formatSseFile, type RecordedPart, type StreamFormat } from './recorded-format.js';

export interface StreamRecordTarget {
  vfs: Vfs;
  fsDir: string;
  logger: Logger;
  overwrite: boolean;
  /** Largest stream recorded, in bytes. */
  limit: number;
}

/** The recorded-stream format of an answer's Content-Type, if it is one. */
export function streamFormatOf(contentType: string | null): StreamFormat | undefined {
  return streamedFormatOf(parseMediaType(contentType).type);
}

/** The file below fsDir for a stream at this request path, or null (the prefix itself, a folder path). */
export function streamFilePath(subPath: string, format: StreamFormat): string | null {
  const { path, trailingSlash } = requestPathToVfs(subPath);
  if (path === '' || trailingSlash) return null;
  return path.toLowerCase().endsWith(`.${format}`) ? path : `${path}.${format}`;
}

/** Splits text into complete events (SSE: ends at a blank line) or lines (NDJSON); the rest waits. */
function splitter(format: StreamFormat): (text: string) => { complete: string[]; rest: string } {
  if (format === 'ndjson') {
    return (text) => {
      const lines = text.split('\n');
      const rest = lines.pop()!;
      return { complete: lines.filter((l) => l.trim() !== '').map((l) => `${l.replace(/\r$/, '')}\n`), rest };
    };
  }
  return (text) => {
    const normal = text.replace(/\r\n?/g, '\n');
    const events = normal.split('\n\n');
    const rest = events.pop()!;
    return { complete: events.filter((e) => e.trim() !== '').map((e) => `${e}\n\n`), rest };
  };
}

/** A stream being recorded: the answer to send on, and what passed once it ended (for the HAR log). */
export interface RecordingStream {
  response: Response;
  /** Resolves when the stream ended (or the client left) and its file is written: its bytes (null past the limit) and size. */
  captured: Promise<{ bytes: Uint8Array | null; size: number }>;
}

/**
 * The response to send instead of `response` when it is a stream to record (its body passes
 * through untouched, chunk by chunk); undefined when it is not one.
 */
export function recordStream(ctx: RequestContext, response: Response, target: StreamRecordTarget): RecordingStream | undefined {
  if (!response.ok || response.body === null || response.status === 204 || response.status === 206) return undefined;
  const format = streamFormatOf(response.headers.get('content-type'));
  if (format === undefined) return undefined;
  const { logger } = target;
  let rel: string | null;
  try {
    rel = streamFilePath(ctx.subPath, format);
  } catch {
    rel = null;
  }
  const what = `${ctx.method} ${ctx.pathname}`;
  if (rel === null) {
    logger.info(`record: ${what} streams to no file name the lookup would find; not written`);
    return undefined;
  }
  const split = splitter(format);
  const raw: Uint8Array[] = [];
  let captured!: (got: { bytes: Uint8Array | null; size: number }) => void;
  const capturedPromise = new Promise<{ bytes: Uint8Array | null; size: number }>((resolve) => (captured = resolve));
  const got = () => (tooLarge ? { bytes: null, size } : { bytes: concatBytes(raw, size), size });
  const decoder = new TextDecoder();
  const parts: RecordedPart[] = [];
  let pending = '';
  let last = performance.now();
  let size = 0;
  let tooLarge = false;
  const note = (text: string) => {
    const now = performance.now();
    pending += text;
    const { complete, rest } = split(pending);
    pending = rest;
    for (const part of complete) {
      parts.push({ delay: now - last, text: part });
      last = now;
    }
  };
  const write = async () => {
    note(decoder.decode());
    if (pending.trim() !== '') parts.push({ delay: performance.now() - last, text: format === 'sse' ? `${pending}\n\n` : `${pending}\n` });
    const path = normalizeVfsPath(joinSafe(target.fsDir, rel!));
    const data = format === 'sse' ? formatSseFile(parts) : formatNdjsonFile(parts);
    try {
      if (target.overwrite) await target.vfs.write(path, data);
      else await target.vfs.create(path, data);
      logger.info(`record: ${what} → ${rel} (a stream of ${parts.length} ${format === 'sse' ? 'events' : 'lines'})`);
    } catch (err) {
      if (isVfsError(err, 'EEXIST')) logger.info(`record: ${rel} exists; kept (overwrite is off)`);
      else logger.warn(`record: writing ${rel} failed: ${(err as Error)?.message ?? String(err)}`);
    }
  };

  const reader = response.body.getReader();
  let preview: ReturnType<typeof previewOf> | undefined; // what the journal sees of it
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        let step: ReadableStreamReadResult<Uint8Array>;
        try {
          step = await reader.read();
        } catch (err) {
          logger.warn(`record: ${what}: the stream failed before its end; not written`);
          preview?.end();
          controller.error(err);
          captured(got());
          return;
        }
        if (step.done) {
          preview?.end();
          controller.close();
          if (tooLarge) logger.warn(`record: ${what} streamed more than the capture limit (${target.limit} bytes); not written`);
          else await write();
          captured(got());
          return;
        }
        const chunk = step.value;
        controller.enqueue(chunk); // the client's copy first: recording never delays it
        preview?.note(chunk);
        size += chunk.byteLength;
        if (tooLarge) return;
        if (size > target.limit) {
          tooLarge = true;
          parts.length = 0;
          raw.length = 0;
          pending = '';
          return;
        }
        raw.push(chunk.slice());
        note(decoder.decode(chunk, { stream: true }));
      },
      cancel(reason) {
        logger.info(`record: ${what}: the client left before the stream ended; not written`);
        preview?.end();
        captured(got());
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
  preview = previewOf(body);
  return { response: new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers }), captured: capturedPromise };
}
