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
 *   ?session=<id>          the same on that session's view of the folder: reads fall through to
 *                          the mocks, writes and deletes stay in the session's data (the shared
 *                          files are never written; created when needed)
 *
 *   POST   routes          body { path, status?, headers?, body? | text? }: a new static route
 *                          (createStaticRoute below): `<path>.json` / `<path>.txt` when it answers
 *                          200 without headers, else the recording `<path>@recorded.json` (the
 *                          recordings layer's format, docs/proxy.md), which carries a status and
 *                          headers. Never over an existing route (412). 201 { file, url, status }.
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
import { keepsHeader } from '../engine/recordings/kept-headers.js';
import { parseRecording, RECORDING_SUFFIX } from '../engine/recordings/recording-file.js';
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
  // `?session=<id>`: that session's view of the folder (reads fall through to the mocks, writes stay in the session).
  const session = new URL(request.url).searchParams.get('session');
  // A session's edit takes its turn in that session's own per-file queue (the one its REST and store writes take).
  const own = session ? api.sessions.files(session) : { vfs: api.app.fs, fsDir, queue };
  const vfs = own.vfs;
  const path = joinVfsPath(own.fsDir, rel);
  const what = session ? `Session ${session}'s ${rel}` : `The file ${rel}`;
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
      return own.queue.run(path, async () => {
        const current = await readOrUndefined(vfs, path);
        checkPreconditions(request, current === undefined ? undefined : etagOfBytes(current), what);
        await vfs.write(path, bytes);
        return FastResponse.json(JSON.stringify({ path: rel, size: bytes.byteLength }), current === undefined ? 201 : 200, { ETag: etagOfBytes(bytes), 'Cache-Control': 'no-store' });
      });
    }
    case 'DELETE':
      return own.queue.run(path, async () => {
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

/**
 * A new static route from the page (`POST routes`): an ordinary file of the mocks folder the CLI
 * serves as any other. A 200 without headers is the plain file (`flags.json`, `flags.txt`); a
 * status or headers make it a recording, `flags@recorded.json` holding one GET answer (HEAD takes
 * its status and headers), checked by the recordings' own parser. Headers are the ones a
 * recording replays (kept-headers.ts: Content-Type, Location, Link, the caching ones, X-*, …);
 * another is a 400 naming it, rather than a header silently never sent.
 */
export async function createStaticRoute(api: MockApi, queue: KeyedQueue, spec: Record<string, unknown>): Promise<Response> {
  const fsDir = api.options.fsDir;
  if (fsDir === null) throw new HttpError(404, 'File routing is off (fsDir: null): there is no mocks folder');
  if (typeof spec.path !== 'string') throw new HttpError(400, 'path must be the route\u2019s path below the prefix (flags, v1/config)');
  const rel = requestPathToVfs(`/${spec.path.replace(/^\/+/, '')}`).path.replace(/\.(json|txt)$/, '');
  if (rel === '' || rel.includes('@')) throw new HttpError(400, 'path must name a route below the prefix without "@" (flags, v1/config)');
  const status = spec.status ?? 200;
  if (!Number.isInteger(status) || (status as number) < 200 || (status as number) > 599) throw new HttpError(400, 'status must be a final HTTP status (200-599)');
  const headers: Record<string, string> = {};
  if (spec.headers !== undefined) {
    if (typeof spec.headers !== 'object' || spec.headers === null || Array.isArray(spec.headers)) throw new HttpError(400, 'headers must be an object of names and values');
    for (const [name, value] of Object.entries(spec.headers)) {
      if (typeof value !== 'string') throw new HttpError(400, `headers.${name} must be a string`);
      if (!keepsHeader(name.toLowerCase())) throw new HttpError(400, `${name} is not a header a recording answers with (Content-Type, Location, Link, Cache-Control, ETag, Retry-After, WWW-Authenticate, X-*, …: docs/proxy.md)`);
      headers[name.toLowerCase()] = value;
    }
  }
  if ((spec.body === undefined) === (spec.text === undefined)) throw new HttpError(400, 'Give the answer as body (a JSON value) or text (a string)');
  if (spec.text !== undefined && typeof spec.text !== 'string') throw new HttpError(400, 'text must be a string');
  assertNoForbiddenKeys(spec.body);
  const plain = status === 200 && Object.keys(headers).length === 0;
  const name = plain ? `${rel}.${spec.text === undefined ? 'json' : 'txt'}` : `${rel}${RECORDING_SUFFIX}`;
  let text: string;
  if (plain) text = spec.text === undefined ? `${JSON.stringify(spec.body, null, 2)}\n` : (spec.text as string);
  else {
    if (spec.text !== undefined) headers['content-type'] ??= 'text/plain; charset=utf-8';
    const response = { status, headers, ...(spec.text === undefined ? { body: spec.body } : { text: spec.text }) };
    text = `${JSON.stringify({ recorded: [{ request: { method: 'GET' }, response }] }, null, 2)}\n`;
    try {
      parseRecording(new TextEncoder().encode(text));
    } catch (err) {
      throw new HttpError(400, `The route cannot be saved: ${(err as Error).message}`);
    }
  }
  const vfs = api.app.fs;
  const path = joinVfsPath(fsDir, name);
  return queue.run(path, async () => {
    for (const taken of new Set([name, `${rel}.json`, `${rel}${RECORDING_SUFFIX}`])) {
      if ((await readOrUndefined(vfs, joinVfsPath(fsDir, taken))) !== undefined) throw new HttpError(412, `A route at ${rel} exists already (${taken}): edit that file instead`);
    }
    await vfs.write(path, text);
    const prefix = api.prefixes.find((p) => p !== '/') ?? '';
    return FastResponse.json(JSON.stringify({ file: name, url: `${prefix.replace(/\/$/, '')}/${rel}`, status }), 201, { 'Cache-Control': 'no-store' });
  });
}
