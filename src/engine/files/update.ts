/**
 * PATCH: patches an existing JSON file (merge patch or JSON Patch by Content-Type, parameters
 * such as `; charset=utf-8` accepted), 200 with the new document. Read-modify-write runs in the
 * file's queue (grouped with the patches queued behind it, see patch-batch.ts), so concurrent
 * patches never lose an update; the write is atomic (Vfs.write).
 */
import { HttpError } from '../../core/errors.js';
import { FastResponse } from '../../core/fast-response.js';
import { parseJsonBytes } from '../../core/json-safety.js';
import { isJsonPath, parseMediaType, JSON_CONTENT_TYPE } from '../../core/media-type.js';
import { assertKnownParams, requestBody, type FsCall, type FsEnv } from '../file-cache/fs-call.js';
import { MSG } from '../file-cache/messages.js';
import { enqueuePatch } from '../file-cache/patch-batch.js';
import { patchKindFor, validatePatch } from '../file-cache/patch-document.js';

export async function update(call: FsCall, env: FsEnv): Promise<Response> {
  assertKnownParams(call, 'PATCH');
  const kind = patchKindFor(parseMediaType(call.ctx.request.headers.get('content-type')).type);
  if (kind === undefined) throw new HttpError(415, MSG.patchUnsupported);
  const path = await env.cache.lookup(call.key, call);
  if (path === null) throw new HttpError(404, MSG.patchNotFound);
  if (!isJsonPath(path)) throw new HttpError(400, MSG.patchNotJson);
  const bytes = await requestBody(call, env);
  if (bytes.byteLength === 0) throw new HttpError(400, MSG.noData);
  const patch = parseJsonBytes(bytes, 'PATCH body', env.maxJsonDepth);
  validatePatch(kind, patch);

  const written = await enqueuePatch(env, path, kind, patch);
  return FastResponse.bytes(written, 200, { 'Content-Type': JSON_CONTENT_TYPE });
}
