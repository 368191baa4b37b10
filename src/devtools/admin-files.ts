/**
 * The admin API's file routes (admin.ts hands every `/files…` path here): the mock files of the
 * shared mocks folder (`fsDir` in the mock API's filesystem: the folder the CLI serves), read and
 * written as the files layer serves them, so a route made here is an ordinary mock file.
 *
 *   GET    files/<path>    the file's bytes, its Content-Type and ETag
 *   PUT    files/<path>    body: the new bytes. A precondition is required, so nothing is
 *                          overwritten unseen: `If-None-Match: *` creates (412 when the file
 *                          exists), `If-Match: <etag>` replaces the version read (412 when it changed
 *                          since: edited on disk, saved from another tab), `If-Match: *` replaces
 *                          whatever is there. A `.json` file must be valid JSON (400 naming the error).
 *                          201 created / 200 replaced, with the new ETag.
 *   DELETE files/<path>    `If-Match` as PUT; 204
 *
 * Paths go through requestPathToVfs (400 on traversal tricks). The check and the write of one
 * file run one at a time (the admin API's queue); an edit on disk in between is caught by the
 * tag of what was read.
 */
import { readBody } from '../core/body.js';
import type { KeyedQueue } from '../core/keyed-queue.js';
import { HttpError } from '../core/errors.js';
import { FastResponse } from '../core/fast-response.js';
import { assertNoForbiddenKeys, parseJsonBytes } from '../core/json-safety.js';
import { contentTypeFor, isJsonPath } from '../core/media-type.js';
import type { MockApi } from '../engine/create-mock-api.js';
import { joinVfsPath, requestPathToVfs } from '../vfs/path.js';
import { isVfsError, type Vfs } from '../vfs/types.js';
import { checkPreconditions, etagOfBytes } from './etag.js';

const FILE_LIMIT = 16 * 1024 * 1024;

async function readOrUndefined(vfs: Vfs, path: string): Promise<Uint8Array | undefined> {
  try {
    return await vfs.read(path);
  } catch (err) {
    if (isVfsError(err, 'ENOENT') || isVfsError(err, 'ENOTDIR')) return undefined;
    if (isVfsError(err, 'EISDIR')) throw new HttpError(409, 'That path is a folder');
    throw err;
  }
}

/** `queue`: the admin API's per-file queue (the check and the write of one file together). */
export async function filesRoute(api: MockApi, queue: KeyedQueue, request: Request, method: string, sub: string): Promise<Response> {
  const fsDir = api.options.fsDir;
  if (fsDir === null) throw new HttpError(404, 'File routing is off (fsDir: null): there is no mocks folder');
  const rel = requestPathToVfs(sub.slice('/files'.length)).path;
  if (rel === '') throw new HttpError(400, 'Name a file below the mocks folder: files/<path>');
  const vfs = api.app.fs;
  const path = joinVfsPath(fsDir, rel);
  const what = `The file ${rel}`;
  switch (method) {
    case 'GET':
    case 'HEAD': {
      const bytes = await readOrUndefined(vfs, path);
      if (bytes === undefined) throw new HttpError(404, `${what} does not exist`);
      return FastResponse.bytes(bytes, 200, { 'Content-Type': contentTypeFor(rel), ETag: etagOfBytes(bytes), 'Cache-Control': 'no-store' }, method === 'HEAD');
    }
    case 'PUT': {
      if (request.headers.get('if-match') === null && request.headers.get('if-none-match')?.trim() !== '*') {
        throw new HttpError(428, 'Say what you are writing over: If-None-Match: * to create, If-Match: <etag> (from GET) to replace the version you read, If-Match: * to replace whatever is there');
      }
      const bytes = await readBody(request, FILE_LIMIT);
      if (isJsonPath(rel)) {
        assertNoForbiddenKeys(parseJsonBytes(bytes));
      }
      return queue.run(path, async () => {
        const current = await readOrUndefined(vfs, path);
        checkPreconditions(request, current === undefined ? undefined : etagOfBytes(current), what);
        await vfs.write(path, bytes);
        return FastResponse.json(JSON.stringify({ path: rel, size: bytes.byteLength }), current === undefined ? 201 : 200, { ETag: etagOfBytes(bytes), 'Cache-Control': 'no-store' });
      });
    }
    case 'DELETE':
      return queue.run(path, async () => {
        const current = await readOrUndefined(vfs, path);
        if (current === undefined) throw new HttpError(404, `${what} does not exist`);
        checkPreconditions(request, etagOfBytes(current), what);
        await vfs.remove(path);
        return FastResponse.empty(204);
      });
    default:
      throw new HttpError(405, `Method ${method} is not allowed here`, { headers: { Allow: 'GET, HEAD, PUT, DELETE' } });
  }
}
