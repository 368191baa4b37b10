/**
 * Request payloads for POST and PUT: a JSON document, one uploaded file (multipart, read by
 * core/multipart.ts after the size-limited read), form fields (stored as a JSON object, a part
 * sent as JSON stored as its value), or raw bytes (PUT with a non-JSON Content-Type).
 * JSON is validated (400 on malformed, 400 on `__proto__`/`constructor`/`prototype` keys) and
 * then stored as the bytes received, so the client's formatting is kept.
 */
import { HttpError } from '../../core/errors.js';
import { assertNoForbiddenKeys, parseJsonBytes } from '../../core/json-safety.js';
import { isJsonMediaType, parseMediaType } from '../../core/media-type.js';
import { multipartValues, parseMultipart, readMultipart, type MultipartResult } from '../../core/multipart.js';
import { requestBody, type FsCall, type FsEnv } from '../file-cache/fs-call.js';
import { MSG } from '../file-cache/messages.js';
import { fileTarget, jsonTarget } from '../file-cache/target-path.js';

const encoder = new TextEncoder();

export type Payload =
  | { kind: 'empty' }
  | { kind: 'json'; bytes: Uint8Array; value: unknown }
  | { kind: 'file'; bytes: Uint8Array; type: string; filename: string }
  | { kind: 'raw'; bytes: Uint8Array; type: string };

/** Where a payload goes when the request path names no file yet (target-path.ts): a JSON document, else the upload's or the body's file. */
export function newTarget(call: FsCall, payload: Exclude<Payload, { kind: 'empty' }>): string {
  return payload.kind === 'json' ? jsonTarget(call.rel, call.trailingSlash) : fileTarget(call.rel, call.trailingSlash, payload.type, payload.kind === 'file' ? payload.filename : undefined);
}

export function jsonPayload(bytes: Uint8Array, maxDepth: number): Payload {
  const value = parseJsonBytes(bytes, 'JSON body', maxDepth);
  assertNoForbiddenKeys(value);
  return { kind: 'json', bytes, value };
}

function fieldsToObject(entries: Array<[string, unknown]>): Record<string, unknown> {
  const out: Record<string, unknown> = Object.create(null);
  for (const [k, v] of entries) {
    const prev = out[k];
    out[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
  }
  assertNoForbiddenKeys(out, 'form fields');
  return { ...out };
}

function fieldsPayload(entries: Array<[string, unknown]>): Payload {
  const value = fieldsToObject(entries);
  return { kind: 'json', bytes: encoder.encode(JSON.stringify(value)), value };
}

/**
 * Reads the payload of a POST (`method` 'POST': body must be JSON or one file, not both) or a
 * PUT (any Content-Type; non-JSON bodies are stored raw).
 */
/** multipart/form-data: core/multipart.ts, on the request or on the bytes the handler layer already read. */
async function multipartOf(call: FsCall, env: FsEnv, contentType: string): Promise<MultipartResult> {
  return call.body === undefined ? parseMultipart(call.ctx.request, contentType, env.bodyLimit, env.inflate) : readMultipart(call.body, contentType);
}

/**
 * Reads the payload of a POST (`method` 'POST': body must be JSON or one file, not both) or a
 * PUT (any Content-Type; non-JSON bodies are stored raw).
 */
export async function readPayload(call: FsCall, env: FsEnv, method: 'POST' | 'PUT', contentType: string | null): Promise<Payload> {
  const media = parseMediaType(contentType);
  if (media.type === 'multipart/form-data') {
    const parsed = await multipartOf(call, env, contentType!);
    const { fields, files } = parsed;
    if (files.length > 1) throw new HttpError(400, method === 'POST' ? MSG.postMultipleFiles : MSG.putMultipleFiles);
    if (files.length === 1) {
      if (method === 'POST' && fields.length > 0) throw new HttpError(400, MSG.postFileAndBody);
      const f = files[0]!;
      return { kind: 'file', bytes: f.bytes, type: f.contentType || 'application/octet-stream', filename: f.filename };
    }
    return fields.length ? fieldsPayload(multipartValues(parsed, env.maxJsonDepth)) : { kind: 'empty' };
  }
  const bytes = await requestBody(call, env);
  if (bytes.byteLength === 0) return { kind: 'empty' };
  if (media.type === 'application/x-www-form-urlencoded') {
    const params = new URLSearchParams(new TextDecoder().decode(bytes));
    return fieldsPayload([...params]);
  }
  if (method === 'PUT' && media.type !== '' && !isJsonMediaType(media.type)) {
    return { kind: 'raw', bytes, type: media.type };
  }
  // POST: any other body must be JSON (the spec's "JSON body, or one uploaded file").
  return jsonPayload(bytes, env.maxJsonDepth);
}
