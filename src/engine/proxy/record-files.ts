/**
 * What a recording session writes into the mock folder for one proxied exchange:
 *   - a `GET` answered 2xx with a whole body (not 204/205/206): the body as the file the plain
 *     lookup finds (record-path.ts: `users.json`, `users@page=2.json`) — JSON
 *     pretty-printed, anything else byte for byte;
 *   - every exchange, whatever its method and status: an entry in the path's recording,
 *     `<name>@recorded.json` (recordings/recording-file.ts: the request's method, query, body and origin; the
 *     answer's status, the headers that carry meaning (recordings/kept-headers.ts) and its body, or
 *     the name of the body file above), which the recordings layer replays exactly.
 * An existing body file or recorded answer is never replaced unless `overwrite`; a body file kept
 * that way (written by hand) gets no recording entry, so it stays a plain mock file. Writes go
 * through the Vfs (`create`, atomic `write`); one recording file's read-modify-write at a time.
 */
import { KeyedQueue } from '../../core/keyed-queue.js';
import type { Logger } from '../../core/logger.js';
import { isJsonMediaType, isTextMediaType, parseMediaType } from '../../core/media-type.js';
import { baseName, joinSafe, normalizeVfsPath, parentOf } from '../../vfs/path.js';
import { isVfsError, type Vfs } from '../../vfs/types.js';
import { canonicalQuery } from '../file-cache/query-variant.js';
import { keptHeaders } from '../recordings/kept-headers.js';
import { addToRecording, recordedBody, recordingLocation, type RecordedExchange } from '../recordings/recording-file.js';
import { recordPath } from './record-path.js';

const NO_FILE_STATUS = new Set([204, 205, 206]);
const decoder = new TextDecoder();

/** One exchange as the recorder captured it. */
export interface CapturedExchange {
  method: string;
  /** The request path below the prefix, and its query (`?…` or ''). */
  subPath: string;
  search: string;
  /** For messages: the full path. */
  pathname: string;
  /** The origin the exchange was sent to (`http://127.0.0.1:4000`): kept so the replay can name the mock where the answer names it. */
  origin: string;
  /** The request body (null: over the capture limit). */
  requestBody: Uint8Array | null;
  requestType: string | null;
  status: number;
  statusText: string;
  headers: Headers;
  /** The answer's body (null: over the capture limit). */
  body: Uint8Array | null;
}

export interface RecordFilesOptions {
  vfs: Vfs;
  fsDir: string;
  logger: Logger;
  overwrite: boolean;
  /** Header names never written (the HAR's redact list). */
  redact: ReadonlySet<string>;
  captureLimit: number;
}

export function recordFiles(options: RecordFilesOptions): (x: CapturedExchange) => Promise<void> {
  const { vfs, fsDir, logger, overwrite, redact } = options;
  const queue = new KeyedQueue();

  /** Writes the body file; true when the file now holds this answer. */
  async function writeBody(x: CapturedExchange, rel: string, json: boolean, bytes: Uint8Array): Promise<boolean> {
    const path = normalizeVfsPath(joinSafe(fsDir, rel));
    let data: Uint8Array | string = bytes;
    if (json) {
      try {
        data = `${JSON.stringify(JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes)), null, 2)}\n`;
      } catch {
        logger.warn(`record: ${x.pathname} answered invalid JSON; written as received`);
      }
    }
    try {
      if (overwrite) await vfs.write(path, data);
      else await vfs.create(path, data);
      logger.info(`record: ${x.method} ${x.pathname}${x.search} → ${rel}`);
      return true;
    } catch (err) {
      if (isVfsError(err, 'EEXIST')) logger.info(`record: ${rel} exists; kept (overwrite is off)`);
      else logger.warn(`record: writing ${rel} failed: ${(err as Error)?.message ?? String(err)}`);
      return false;
    }
  }

  async function addEntry(file: string, exchange: RecordedExchange, x: CapturedExchange): Promise<void> {
    const path = normalizeVfsPath(joinSafe(fsDir, file));
    await queue.run(path, async () => {
      let text: string | null = null;
      try {
        text = decoder.decode(await vfs.read(path));
      } catch (err) {
        if (!isVfsError(err, 'ENOENT')) throw err;
      }
      const next = addToRecording(text, exchange, overwrite);
      if (!next.changed) {
        logger.info(`record: ${file} already has ${x.method} ${x.pathname}${x.search}; kept (overwrite is off)`);
        return;
      }
      await vfs.write(path, next.text);
      logger.info(`record: ${x.method} ${x.pathname}${x.search} ${x.status} → ${file}`);
    }).catch((err: unknown) => logger.warn(`record: writing ${file} failed: ${(err as Error)?.message ?? String(err)}`));
  }

  return async (x) => {
    if (x.body === null || x.requestBody === null) {
      logger.warn(`record: ${x.method} ${x.pathname} is larger than the capture limit (${options.captureLimit} bytes); not written`);
      return;
    }
    let loc: ReturnType<typeof recordingLocation>;
    try {
      loc = recordingLocation(x.subPath);
    } catch {
      logger.warn(`record: ${x.pathname} is not a safe file path; not written`);
      return;
    }
    const contentType = x.headers.get('content-type');
    const type = parseMediaType(contentType).type;
    const json = isJsonMediaType(type);
    const query = x.search.length > 1 ? canonicalQuery(x.search) : '';
    const requestType = parseMediaType(x.requestType).type;
    const exchange: RecordedExchange = {
      request: {
        method: x.method,
        ...(query ? { query } : {}),
        origin: x.origin,
        ...(x.method === 'GET' || x.method === 'HEAD' ? {} : recordedBody(x.requestBody, isJsonMediaType(requestType), isTextMediaType(requestType))),
      },
      response: { status: x.status, ...(x.statusText ? { statusText: x.statusText } : {}), headers: keptHeaders(x.headers, redact) },
    };
    if (x.method === 'GET' && x.status >= 200 && x.status < 300 && !NO_FILE_STATUS.has(x.status)) {
      let target: ReturnType<typeof recordPath> = null;
      try {
        target = recordPath(x.subPath, x.search, contentType);
      } catch {
        target = null;
      }
      if (target !== null && parentOf(target.rel) === loc.dir) {
        if (!(await writeBody(x, target.rel, target.json, x.body))) return;
        exchange.response.file = baseName(target.rel);
        return addEntry(loc.file, exchange, x);
      }
    }
    Object.assign(exchange.response, recordedBody(x.body, json, isTextMediaType(type)));
    return addEntry(loc.file, exchange, x);
  };
}
