/**
 * multipart/form-data for handler requests, the same result in every host.
 *
 * Default (service worker, Vite, any platform Request): the body is read with `readBody`, which
 * enforces the size limit while the bytes arrive (413 at the first byte past it), then parsed by
 * the platform's `Response.formData()`. A body with a `Content-Encoding` is decoded first
 * (core/content-encoding.ts).
 *
 * A host may attach a faster streaming parser under `kParseMultipart` (the node host does, with
 * busboy: src/node/multipart.ts). It receives the limit and must answer 413 (HttpError) once
 * more than `limit` bytes arrived, and 400 on a malformed body.
 *
 * A part sent with `Content-Type: application/json` (or `+json`) and no filename is a JSON value
 * (`multipartValues`) where the parser sees each part's type: the node host's busboy does; the
 * platform's `formData()` drops a text field's type, so there it stays the text.
 */
import { readDecodedBody, requestCodings } from '../../core/content-encoding.js';
import type { BoundedSyncInflate } from '../../core/inflate-bounded.js';
import { HttpError } from '../../core/errors.js';
import { parseJsonBytes } from '../../core/json-safety.js';
import { isJsonMediaType, parseMediaType } from '../../core/media-type.js';
import type { UploadedFile } from '../types.js';

/** Host hook: `request[kParseMultipart](limit)` → fields and files. */
export const kParseMultipart = Symbol.for('mockyard.parseMultipart');

export interface MultipartResult {
  /** Text fields in arrival order (a repeated name appears several times). */
  fields: Array<[string, string]>;
  files: UploadedFile[];
  /** Indices in `fields` of the parts sent as JSON (`Content-Type: application/json`, no filename); set by parsers that see a part's type. */
  jsonFields?: number[];
}

/** Whether a field part's own Content-Type (busboy's `info.mimeType`) says JSON. */
export function isJsonPart(mimeType: string | undefined): boolean {
  return mimeType !== undefined && isJsonMediaType(parseMediaType(mimeType).type);
}

/** The fields with the JSON parts parsed (400 naming the field when one is not JSON). */
export function multipartValues(result: MultipartResult, maxDepth: number): Array<[string, unknown]> {
  const json = result.jsonFields;
  if (json === undefined || json.length === 0) return result.fields;
  const out: Array<[string, unknown]> = result.fields.slice();
  for (const i of json) {
    const [name, text] = result.fields[i]!;
    out[i] = [name, parseJsonBytes(new TextEncoder().encode(text), `multipart field "${name}" (Content-Type: application/json)`, maxDepth)];
  }
  return out;
}

export type MultipartParser = (limit: number) => Promise<MultipartResult>;

/** `inflate`: the runtime's native inflate for a compressed body (content-encoding.ts). */
export async function parseMultipart(request: Request, contentType: string, limit: number, inflate?: BoundedSyncInflate): Promise<MultipartResult> {
  // A compressed body is decoded first (the host's streaming parser sees the bytes as sent).
  const hook = requestCodings(request).length === 0 ? (request as unknown as Record<symbol, unknown>)[kParseMultipart] : undefined;
  if (typeof hook === 'function') return (hook as MultipartParser).call(request, limit);

  const bytes = await readDecodedBody(request, limit, inflate);
  let form: FormData;
  try {
    form = await new Response(bytes as BodyInit, { headers: { 'Content-Type': contentType } }).formData();
  } catch {
    throw new HttpError(400, 'Malformed multipart/form-data body');
  }
  const fields: Array<[string, string]> = [];
  const files: UploadedFile[] = [];
  for (const [name, value] of form) {
    if (typeof value === 'string') fields.push([name, value]);
    else {
      files.push({
        fieldName: name,
        filename: value.name,
        contentType: value.type || 'application/octet-stream',
        bytes: new Uint8Array(await value.arrayBuffer()),
      });
    }
  }
  return { fields, files };
}
