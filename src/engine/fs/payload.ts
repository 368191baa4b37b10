/**
 * Request payloads for POST and PUT: a JSON document, one uploaded file (multipart, parsed with
 * the platform's `formData()` after the size-limited read), form fields (stored as a JSON
 * object), or raw bytes (PUT with a non-JSON Content-Type).
 * JSON is validated (400 on malformed, 400 on `__proto__`/`constructor`/`prototype` keys) and
 * then stored as the bytes received, so the client's formatting is kept.
 */
import { HttpError } from '../../core/errors.js';
import { assertNoForbiddenKeys, parseJsonBytes } from '../../core/json-safety.js';
import { isJsonMediaType, parseMediaType } from '../../core/media-type.js';
import { requestBody, type FsCall, type FsEnv } from './fs-call.js';
import { MSG } from './messages.js';

const encoder = new TextEncoder();

export type Payload =
  | { kind: 'empty' }
  | { kind: 'json'; bytes: Uint8Array; value: unknown }
  | { kind: 'file'; bytes: Uint8Array; type: string; filename: string }
  | { kind: 'raw'; bytes: Uint8Array; type: string };

export function jsonPayload(bytes: Uint8Array): Payload {
  const value = parseJsonBytes(bytes);
  assertNoForbiddenKeys(value);
  return { kind: 'json', bytes, value };
}

function fieldsToObject(entries: Array<[string, string]>): Record<string, unknown> {
  const out: Record<string, unknown> = Object.create(null);
  for (const [k, v] of entries) {
    const prev = out[k];
    out[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
  }
  assertNoForbiddenKeys(out, 'form fields');
  return { ...out };
}

function fieldsPayload(entries: Array<[string, string]>): Payload {
  const value = fieldsToObject(entries);
  return { kind: 'json', bytes: encoder.encode(JSON.stringify(value)), value };
}

/**
 * Reads the payload of a POST (`method` 'POST': body must be JSON or one file, not both) or a
 * PUT (any Content-Type; non-JSON bodies are stored raw).
 */
export async function readPayload(call: FsCall, env: FsEnv, method: 'POST' | 'PUT', contentType: string | null): Promise<Payload> {
  const bytes = await requestBody(call, env);
  const media = parseMediaType(contentType);
  if (media.type === 'multipart/form-data') {
    let form: FormData;
    try {
      form = await new Response(bytes as BodyInit, { headers: { 'content-type': contentType! } }).formData();
    } catch {
      throw new HttpError(400, 'Malformed multipart/form-data body');
    }
    const files: File[] = [];
    const fields: Array<[string, string]> = [];
    for (const [name, value] of form) {
      if (typeof value === 'string') fields.push([name, value]);
      else files.push(value);
    }
    if (files.length > 1) throw new HttpError(400, method === 'POST' ? MSG.postMultipleFiles : MSG.putMultipleFiles);
    if (files.length === 1) {
      if (method === 'POST' && fields.length > 0) throw new HttpError(400, MSG.postFileAndBody);
      const f = files[0]!;
      return { kind: 'file', bytes: new Uint8Array(await f.arrayBuffer()), type: f.type || 'application/octet-stream', filename: f.name };
    }
    return fields.length ? fieldsPayload(fields) : { kind: 'empty' };
  }
  if (bytes.byteLength === 0) return { kind: 'empty' };
  if (media.type === 'application/x-www-form-urlencoded') {
    const params = new URLSearchParams(new TextDecoder().decode(bytes));
    return fieldsPayload([...params]);
  }
  if (method === 'PUT' && media.type !== '' && !isJsonMediaType(media.type)) {
    return { kind: 'raw', bytes, type: media.type };
  }
  // POST: any other body must be JSON (the spec's "JSON body, or one uploaded file").
  return jsonPayload(bytes);
}
