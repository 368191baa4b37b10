/**
 * The `parser` option for REST handlers.
 *
 * `true` (default), by Content-Type:
 *   - `application/json` and any `+json` type → parsed value (malformed or nested deeper than
 *     `maxJsonDepth` → 400, never a string);
 *   - `text/*` → string (decoded with the `charset` parameter, UTF-8 by default);
 *   - `application/x-www-form-urlencoded` → object, a repeated key as an array;
 *   - `multipart/form-data` → text fields in `req.body` (repeated → array), files in `req.files`;
 *   - anything else, or no Content-Type → the bytes (Uint8Array).
 *   A request without a body (or an empty one) leaves `req.body` undefined.
 * `false`: nothing is read; `req.query` is filled anyway.
 * `{ parser, transform }`: the parser functions run as middlewares `(req, res, next)` (they read
 * `req.request` themselves), then `transform(req)` may return `{ body, query }` to assign.
 *
 * The body size limit (`bodyLimit`) holds while the bytes arrive: 413 past it. Bodies with a
 * `Content-Encoding` are decoded first (core/content-encoding.ts: gzip, deflate; 415 otherwise).
 */
import { hasBody } from '../../core/body.js';
import { readDecodedBody } from '../../core/content-encoding.js';
import type { BoundedSyncInflate } from '../../core/inflate-bounded.js';
import { HttpError } from '../../core/errors.js';
import { parseJsonBytes } from '../../core/json-safety.js';
import { isJsonMediaType, parseMediaType } from '../../core/media-type.js';
import type { ParserConfig } from '../types.js';
import { runMiddlewares } from '../handler-api/chain.js';
import { collectFields } from '../handler-api/fields.js';
import { multipartValues, parseMultipart, readMultipart } from '../../core/multipart.js';
import type { PortableRequest } from '../handler-api/request.js';
import type { ResponseBuilder } from '../handler-api/response.js';

function decodeText(bytes: Uint8Array, charset: string | undefined): string {
  try {
    return new TextDecoder(charset || 'utf-8').decode(bytes);
  } catch {
    // Unknown charset label: UTF-8 is the best guess.
    return new TextDecoder().decode(bytes);
  }
}

/**
 * The built-in parser. With `raw` (already-read bytes: `handle: 'FS'` routes read the body once
 * and pass it on) nothing is read from the request again.
 */
export async function parseBuiltin(req: PortableRequest, limit: number, raw: Uint8Array | undefined, maxDepth: number, inflate?: BoundedSyncInflate): Promise<void> {
  if (raw === undefined && !hasBody(req.request)) return;
  const header = req.request.headers.get('content-type');
  const { type, params } = parseMediaType(header);
  if (type === 'multipart/form-data') {
    const parsed = raw ? readMultipart(raw, header!) : await parseMultipart(req.request, header!, limit, inflate);
    req.body = collectFields(multipartValues(parsed, maxDepth));
    req.files = parsed.files;
    return;
  }
  const bytes = raw ?? (await readDecodedBody(req.request, limit, inflate));
  if (bytes.byteLength === 0) return;
  if (isJsonMediaType(type)) req.body = parseJsonBytes(bytes, 'JSON body', maxDepth);
  else if (type.startsWith('text/')) req.body = decodeText(bytes, params.charset);
  else if (type === 'application/x-www-form-urlencoded') req.body = collectFields(new URLSearchParams(decodeText(bytes, params.charset)));
  else req.body = bytes;
}

/** Runs the configured parser. Resolves 'responded' when a custom parser function answered. */
export async function runParser(parser: boolean | ParserConfig, req: PortableRequest, res: ResponseBuilder, limit: number, raw: Uint8Array | undefined, maxDepth: number, inflate?: BoundedSyncInflate): Promise<'next' | 'responded'> {
  if (parser === false) return 'next';
  if (parser === true) {
    await parseBuiltin(req, limit, raw, maxDepth, inflate);
    return 'next';
  }
  const fns = Array.isArray(parser.parser) ? parser.parser : [parser.parser];
  if ((await runMiddlewares(fns, req, res)) === 'responded') return 'responded';
  if (parser.transform) {
    const out = parser.transform(req);
    if (out && typeof out === 'object') {
      if ('body' in out) req.body = out.body;
      if ('query' in out && out.query) req.query = out.query;
    } else if (out !== undefined) {
      throw new HttpError(500, 'parser.transform must return an object { body?, query? }');
    }
  }
  return 'next';
}
