/**
 * POST: creates a file from a JSON body (`<path>.json`) or one uploaded file (byte-for-byte),
 * 201 with Location. An existing JSON array with POST pagination/filters configured is queried
 * instead (200, never modified); any other existing file: 400 for non-JSON, 409 for JSON.
 */
import { HttpError } from '../../core/errors.js';
import { FastResponse } from '../../core/fast-response.js';
import { parseJsonBytes } from '../../core/json-safety.js';
import { isJsonPath, parseMediaType, JSON_CONTENT_TYPE } from '../../core/media-type.js';
import { hasQueryConfig, inFsDir, locationOf, readQuery, requestBody, type FsCall, type FsEnv } from '../file-cache/fs-call.js';
import { MSG, PRESET_HINT } from '../file-cache/messages.js';
import { runExclusive } from '../file-cache/patch-batch.js';
import { jsonPayload, newTarget, readPayload } from './payload.js';
import { runQuery } from '../file-cache/query.js';
import { writeFile } from './write-conflict.js';

export async function create(call: FsCall, env: FsEnv): Promise<Response> {
  const contentType = call.ctx.request.headers.get('content-type');
  // An upload is checked first (the spec's 400s: more than one file, a file and a body), so an
  // existing path answers them too, with or without POST filters; never a 409 or a query.
  const upload = parseMediaType(contentType).type === 'multipart/form-data' ? await readPayload(call, env, 'POST', contentType) : undefined;
  const entry = await env.cache.lookupEntry(call.key, call);
  if (entry !== null) {
    if (!entry.isJson) throw new HttpError(400, MSG.postNotJson);
    if (entry.array !== undefined && hasQueryConfig(call, 'POST')) {
      // Form fields feed body filters and pagination as a JSON body does (a part sent as JSON is its value).
      const bytes = upload === undefined ? await requestBody(call, env) : undefined;
      const body = upload?.kind === 'json' ? upload.value : bytes !== undefined && bytes.byteLength > 0 ? parseJsonBytes(bytes, 'JSON body', env.maxJsonDepth) : undefined;
      const q = readQuery(call, 'POST', body);
      const r = runQuery(entry, entry.array, q.predicates, q.page, false, q.signature);
      return FastResponse.json(JSON.stringify(r.page), 200, { 'X-Total-Count': String(r.total) });
    }
    throw new HttpError(409, MSG.alreadyExists(call.ctx.pathname), entry.array !== undefined ? { details: { hint: PRESET_HINT } } : undefined);
  }

  const payload = upload ?? (await readPayload(call, env, 'POST', contentType));
  if (payload.kind === 'empty') throw new HttpError(400, MSG.noData);
  const rel = newTarget(call, payload);
  // An upload stored as .json must be JSON like any other JSON document.
  if (payload.kind !== 'json' && isJsonPath(rel)) jsonPayload(payload.bytes, env.maxJsonDepth);
  const bytes = payload.bytes;
  const path = inFsDir(env, rel);
  // Inside the file's queue, "absent?" then an atomic write (temp file + rename on disk): readers
  // never see a half-written new file, and no other write of this engine can slip in between.
  // (Vfs.create would be exclusive across processes but is not atomic on disk.)
  await runExclusive(env, path, async () => {
    if ((await env.vfs.stat(path)) !== null) throw new HttpError(409, MSG.alreadyExists(call.ctx.pathname));
    await writeFile(call, env, path, bytes, false, payload.kind === 'json' ? { value: payload.value } : undefined); // absent: a conflict is on the way (a parent path is a file)
  });
  const headers = { Location: locationOf(call, env, path) };
  return payload.kind === 'json'
    ? FastResponse.bytes(bytes, 201, { 'Content-Type': JSON_CONTENT_TYPE, ...headers })
    : FastResponse.empty(201, { ...headers, 'Content-Length': '0' });
}
