/**
 * PUT: replaces the file the path resolves to (200) or creates it (201 with Location).
 * Content-Type is required; the body (or the one uploaded file) is stored as received. A `.json`
 * target only accepts valid JSON without forbidden keys.
 */
import { HttpError } from '../../core/errors.js';
import { FastResponse } from '../../core/fast-response.js';
import { isJsonPath, JSON_CONTENT_TYPE } from '../../core/media-type.js';
import { assertKnownParams, locationOf, inFsDir, type FsCall, type FsEnv } from '../file-cache/fs-call.js';
import { MSG } from '../file-cache/messages.js';
import { runExclusive } from '../file-cache/patch-batch.js';
import { jsonPayload, newTarget, readPayload } from './payload.js';
import { writeFile } from './write-conflict.js';

export async function replace(call: FsCall, env: FsEnv): Promise<Response> {
  assertKnownParams(call, 'PUT');
  const contentType = call.ctx.request.headers.get('content-type');
  if (!contentType || !contentType.trim()) throw new HttpError(400, MSG.putNoContentType);
  const payload = await readPayload(call, env, 'PUT', contentType);
  if (payload.kind === 'empty') throw new HttpError(400, MSG.noData);

  const existing = await env.cache.lookup(call.key, call);
  const path = existing ?? inFsDir(env, newTarget(call, payload));

  if (payload.kind !== 'json' && isJsonPath(path)) jsonPayload(payload.bytes, env.maxJsonDepth);
  const bytes = payload.bytes;

  const created = await runExclusive(env, path, async () => {
    const before = await env.vfs.stat(path);
    if (before?.kind === 'dir') throw new HttpError(409, MSG.folderExists(call.ctx.pathname));
    await writeFile(call, env, path, bytes, before !== null);
    return before === null;
  });
  const status = created ? 201 : 200;
  const headers: Record<string, string> = created ? { Location: locationOf(call, env, path) } : {};
  if (isJsonPath(path)) return FastResponse.bytes(bytes, status, { 'Content-Type': JSON_CONTENT_TYPE, ...headers });
  return FastResponse.empty(status, { ...headers, 'Content-Length': '0' });
}
