/**
 * multipart/form-data: the one reading of a multipart body, bytes → fields and files, used by
 * every host (node, the Vite plugin, the browser worker, interceptFetch) through the handler
 * layer, file mode, json-server middlewares and OpenAPI request validation.
 *
 * Parts are split by @remix-run/multipart-parser (web-standard: Uint8Array in, no Node built-in),
 * which keeps each part's own headers (its Content-Disposition is read here, as browsers write it). That is what the platform's `Request.formData()` loses: a
 * text part's `Content-Type`. So the rule is the same everywhere:
 *   - a part with a `filename` parameter is a file (`filename=""` included, as in `formData()`),
 *     its `contentType` the part's media type without parameters (`application/octet-stream` if none);
 *   - any other part is a text field (UTF-8), and one sent with a JSON `Content-Type`
 *     (`application/json`, `+json`) is marked in `jsonFields`: `multipartValues` parses it;
 *   - a part with no `name` is skipped; a preamble before the first boundary is skipped;
 *   - a body that does not parse (no boundary, unterminated, empty) is a 400.
 * `parseMultipart` reads a Request's body whole first (`readDecodedBody`: the size limit enforced
 * while the bytes arrive, 413 at the first byte past it; a `Content-Encoding` decoded), so a
 * multipart body costs what any other body costs; `readMultipart` takes bytes already read.
 */
import { MultipartParseError, parseMultipart as splitParts } from '@remix-run/multipart-parser';
import { readDecodedBody } from './content-encoding.js';
import { HttpError } from './errors.js';
import type { BoundedSyncInflate } from './inflate-bounded.js';
import { parseJsonBytes } from './json-safety.js';
import { isJsonMediaType, parseMediaType } from './media-type.js';

export interface MultipartFile {
  fieldName: string;
  filename: string;
  contentType: string;
  bytes: Uint8Array;
}

export interface MultipartResult {
  /** Text fields in arrival order (a repeated name appears several times). */
  fields: Array<[string, string]>;
  files: MultipartFile[];
  /** Indices in `fields` of the parts sent with a JSON Content-Type (no filename). */
  jsonFields?: number[];
}

const MALFORMED = 'Malformed multipart/form-data body';

/** Where the first delimiter starts: 0, or after a preamble (RFC 2046 allows one), or -1. */
function firstDelimiter(bytes: Uint8Array, delimiter: Uint8Array): number {
  const matchesAt = (at: number) => {
    for (let j = 0; j < delimiter.length; j++) if (bytes[at + j] !== delimiter[j]) return false;
    return true;
  };
  if (matchesAt(0)) return 0;
  for (let i = 0; i + delimiter.length + 2 <= bytes.length; i++) {
    if (bytes[i] === 13 && bytes[i + 1] === 10 && matchesAt(i + 2)) return i + 2;
  }
  return -1;
}

/**
 * `name` and `filename` of a part's Content-Disposition, read as browsers write them (HTML's
 * form encoding: a quoted value runs to the next `"`, a backslash is a character, as
 * `Request.formData()` reads it); `filename*=UTF-8''…` (RFC 5987) wins over `filename`.
 */
function disposition(header: string | undefined): { name?: string; filename?: string } {
  const out: { name?: string; filename?: string } = {};
  if (header === undefined) return out;
  let star: string | undefined;
  const param = /;\s*([^\s=;]+)\s*=\s*(?:"([^"]*)"|([^;]*))/g;
  for (let m = param.exec(header); m !== null; m = param.exec(header)) {
    const key = m[1]!.toLowerCase();
    const value = m[2] ?? m[3]!.trim();
    if (key === 'name') out.name ??= value;
    else if (key === 'filename') out.filename ??= value;
    else if (key === 'filename*') star ??= value;
  }
  if (star !== undefined) {
    const ext = /^([\w!#$%&+^`{}~-]+)'[^']*'(.*)$/.exec(star);
    if (ext) {
      try {
        out.filename = new TextDecoder(ext[1]!.toLowerCase() === 'utf-8' ? 'utf-8' : ext[1]!).decode(percentBytes(ext[2]!));
      } catch {
        // Unknown charset: keep `filename`.
      }
    }
  }
  return out;
}

function percentBytes(text: string): Uint8Array {
  const out: number[] = [];
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '%' && /^[0-9a-fA-F]{2}$/.test(text.slice(i + 1, i + 3))) {
      out.push(parseInt(text.slice(i + 1, i + 3), 16));
      i += 2;
    } else out.push(...new TextEncoder().encode(text[i]!));
  }
  return new Uint8Array(out);
}

/** Parses a whole multipart/form-data body (`contentType` carries its boundary). 400 when malformed. */
export function readMultipart(bytes: Uint8Array, contentType: string): MultipartResult {
  const boundary = parseMediaType(contentType).params.boundary;
  if (!boundary) throw new HttpError(400, `${MALFORMED}: the Content-Type has no boundary`);
  const start = firstDelimiter(bytes, new TextEncoder().encode(`--${boundary}`));
  if (start < 0) throw new HttpError(400, `${MALFORMED}: no part starts with the boundary`);
  const fields: Array<[string, string]> = [];
  const files: MultipartFile[] = [];
  const jsonFields: number[] = [];
  try {
    // Limits are the body limit's job (already enforced on the raw bytes).
    const parts = splitParts(start === 0 ? bytes : bytes.subarray(start), { boundary, maxHeaderSize: 64 * 1024, maxFileSize: Infinity, maxTotalSize: Infinity, maxParts: Infinity });
    for (const part of parts) {
      const { name, filename } = disposition(part.headers['content-disposition']);
      if (name === undefined) continue;
      const type = part.headers['content-type'];
      if (filename !== undefined) {
        files.push({ fieldName: name, filename, contentType: parseMediaType(type).type || 'application/octet-stream', bytes: part.bytes });
      } else {
        if (type !== undefined && isJsonMediaType(parseMediaType(type).type)) jsonFields.push(fields.length);
        fields.push([name, part.text]);
      }
    }
  } catch (err) {
    if (err instanceof MultipartParseError) throw new HttpError(400, `${MALFORMED}: ${err.message}`);
    throw err;
  }
  return jsonFields.length > 0 ? { fields, files, jsonFields } : { fields, files };
}

/** The fields with the JSON parts parsed (400 naming the field when one is not JSON). */
export function multipartValues(result: MultipartResult, maxDepth: number): Array<[string, unknown]> {
  const json = result.jsonFields;
  if (json === undefined || json.length === 0) return result.fields;
  const out: Array<[string, unknown]> = result.fields.slice();
  const encoder = new TextEncoder();
  for (const i of json) {
    const [name, text] = result.fields[i]!;
    out[i] = [name, parseJsonBytes(encoder.encode(text), `multipart field "${name}" (Content-Type: application/json)`, maxDepth)];
  }
  return out;
}

/** A Request's multipart body. `inflate`: the runtime's native inflate for a compressed body (content-encoding.ts). */
export async function parseMultipart(request: Request, contentType: string, limit: number, inflate?: BoundedSyncInflate): Promise<MultipartResult> {
  return readMultipart(await readDecodedBody(request, limit, inflate), contentType);
}
