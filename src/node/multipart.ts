/**
 * multipart/form-data on node:http with busboy: the node host's streaming parser for the
 * handler layer (hook `kParseMultipart` of src/engine/handler-api/multipart.ts). Parts are parsed
 * as the bytes arrive; the body size limit counts the raw bytes, so the request is refused (413)
 * at the first chunk past it, and the rest is never read (the connection is closed after the
 * answer, like readBody's 413).
 */
import type { IncomingMessage } from 'node:http';
import busboy from 'busboy';
import { tooLarge } from '../core/body.js';
import { HttpError } from '../core/errors.js';
import { abandonBody } from './lingering-close.js';
import { isJsonPart, type MultipartResult } from '../engine/handler-api/multipart.js';
import type { UploadedFile } from '../engine/types.js';

export function parseMultipartIncoming(incoming: IncomingMessage, limit: number): Promise<MultipartResult> {
  const declared = incoming.headers['content-length'];
  if (declared !== undefined && Number(declared) > limit) {
    abandonBody(incoming);
    return Promise.reject(tooLarge(limit));
  }
  return new Promise<MultipartResult>((resolve, reject) => {
    let bb: busboy.Busboy;
    try {
      bb = busboy({ headers: incoming.headers, defParamCharset: 'utf8', limits: { fieldSize: limit } });
    } catch (err) {
      reject(new HttpError(400, `Malformed multipart/form-data request: ${(err as Error).message}`));
      return;
    }
    const fields: Array<[string, string]> = [];
    const files: UploadedFile[] = [];
    const jsonFields: number[] = [];
    let pendingFiles = 0;
    let closed = false;
    let failed = false;
    let size = 0;

    const finish = () => {
      if (!failed && closed && pendingFiles === 0) resolve(jsonFields.length > 0 ? { fields, files, jsonFields } : { fields, files });
    };
    const fail = (err: Error) => {
      if (failed) return;
      failed = true;
      incoming.off('data', onData);
      incoming.unpipe(bb);
      bb.destroy();
      reject(err);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        fail(tooLarge(limit));
        abandonBody(incoming);
      }
    };

    // A part with no filename is a field; its own Content-Type (busboy's `mimeType`, `text/plain`
    // when it has none) marks a JSON value (handler-api/multipart.ts `multipartValues`).
    bb.on('field', (name, value, info) => {
      if (isJsonPart(info.mimeType)) jsonFields.push(fields.length);
      fields.push([name, value]);
    });
    bb.on('file', (name, stream, info) => {
      pendingFiles++;
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('error', (err) => fail(new HttpError(400, `Malformed multipart/form-data body: ${err.message}`)));
      stream.on('end', () => {
        pendingFiles--;
        const buf = Buffer.concat(chunks);
        files.push({
          fieldName: name,
          filename: info.filename ?? '',
          contentType: info.mimeType || 'application/octet-stream',
          bytes: new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength),
        });
        finish();
      });
    });
    bb.on('error', (err: Error) => fail(new HttpError(400, `Malformed multipart/form-data body: ${err.message}`)));
    bb.on('close', () => {
      closed = true;
      finish();
    });
    incoming.on('error', (err) => fail(new HttpError(400, 'Request body could not be read', { cause: err })));
    incoming.on('close', () => {
      if (!incoming.complete) fail(new HttpError(400, 'Request body ended early (client disconnected)'));
    });
    incoming.on('data', onData);
    incoming.pipe(bb);
  });
}
