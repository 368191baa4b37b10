/**
 * GET and HEAD: the file as stored (bytes from the cache), or, for a JSON array with pagination
 * or filters configured and given, the filtered page; a request whose exact query has a variant
 * file (`users@page=2.json`, query-variant.ts) gets that file as stored. HEAD answers GET's
 * headers, no body.
 *
 * `readCached` is the synchronous form for a file already in the cache and fresh (the engine's
 * hot path): same answer, no promise; `undefined` when the async `read` must run.
 */
import { carriesBody, hasBody } from '../../core/body.js';
import { HttpError } from '../../core/errors.js';
import { FastResponse } from '../../core/fast-response.js';
import type { FileEntry } from '../file-cache/file-cache.js';
import { configFor, readQuery, relativeToFsDir, type FsCall, type FsEnv } from '../file-cache/fs-call.js';
import { MSG } from '../file-cache/messages.js';
import { PASS } from '../pipeline/layer.js';
import { pageAnswer } from './page-answer.js';
import { knowVariants, peekVariant, resolveVariant } from '../file-cache/query-variant.js';

/** May carry a body (the async path decides: zero bytes is none). */
function hasAnyBody(call: FsCall): boolean {
  return (call.body !== undefined && call.body.byteLength > 0) || hasBody(call.ctx.request);
}

/** The answer for a resolved file (recorded as answered by this files layer, with the file). */
function answer(call: FsCall, env: FsEnv, entry: FileEntry, head: boolean): Response {
  const method = head ? 'HEAD' : 'GET';
  call.ctx.answered(env.name ?? 'files', relativeToFsDir(env, entry.path));
  if (call.ctx.search.length > 1) {
    if (entry.array !== undefined && (configFor(call.pagination, method) || configFor(call.filters, method))) {
      const q = readQuery(call, method);
      if (q.present) {
        const a = pageAnswer(entry, entry.array, q.predicates, q.page, q.signature);
        return new FastResponse(head ? null : a.body, { status: 200, headers: a.headers }) as unknown as Response;
      }
    } else env.onUnreadQuery?.(call, entry);
  }
  return new FastResponse(head ? null : entry.wire ?? entry.bytes, { status: 200, headers: entry.headers }) as unknown as Response;
}

/** A file as stored, no query applied (a query variant: query-variant.ts). */
function asStored(call: FsCall, env: FsEnv, entry: FileEntry, head: boolean): Response {
  call.ctx.answered(env.name ?? 'files', relativeToFsDir(env, entry.path));
  return new FastResponse(head ? null : entry.wire ?? entry.bytes, { status: 200, headers: entry.headers }) as unknown as Response;
}

export async function read(call: FsCall, env: FsEnv, head: boolean): Promise<Response | undefined> {
  if ((call.body !== undefined && call.body.byteLength > 0) || (await carriesBody(call.ctx.request, env.bodyLimit))) throw new HttpError(400, head ? MSG.headWithBody : MSG.getWithBody);
  if (call.ctx.search.length > 1) {
    const variant = await resolveVariant(call, env);
    if (variant !== null) return asStored(call, env, variant, head);
  } else await knowVariants(call, env); // so a later query is decided on the fast path
  const entry = env.cache.lookupEntryNow(call.key) ?? (await env.cache.lookupEntry(call.key, call));
  return entry === null ? undefined : answer(call, env, entry, head);
}

/**
 * The answer when the file is cached and needs no check; PASS when the path is known to name no
 * file (`read` would answer undefined); else `undefined` (the caller runs the async path, which
 * also produces every error: a body, a bad query parameter).
 */
export function readCached(call: FsCall, env: FsEnv, head: boolean): Response | typeof PASS | undefined {
  if (hasAnyBody(call)) return undefined;
  if (call.ctx.search.length > 1) {
    const variant = peekVariant(call, env);
    if (variant === undefined) return undefined;
    if (variant !== null) return asStored(call, env, variant, head);
  }
  const entry = env.cache.lookupEntryNow(call.key);
  if (entry === undefined) return env.cache.lookupNow(call.key) === null ? PASS : undefined;
  try {
    return answer(call, env, entry, head);
  } catch {
    return undefined;
  }
}
