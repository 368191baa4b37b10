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
 */
import { readDecodedBody, requestCodings } from '../../core/content-encoding.js';
import type { BoundedSyncInflate } from '../../core/inflate-bounded.js';
import { HttpError } from '../../core/errors.js';
import type { UploadedFile } from '../types.js';

/** Host hook: `request[kParseMultipart](limit)` → fields and files. */
export const kParseMultipart = Symbol.for('mockyard.parseMultipart');

export interface MultipartResult {
  /** Text fields in arrival order (a repeated name appears several times). */
  fields: Array<[string, string]>;
  files: UploadedFile[];
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
