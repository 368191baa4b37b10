/**
 * GET and HEAD: the file as stored (bytes from the cache), or, for a JSON array with pagination
 * or filters configured and given, the filtered page. HEAD answers GET's headers, no body.
 */
import { hasBody } from '../../core/body.js';
import { HttpError } from '../../core/errors.js';
import { FastResponse } from '../../core/fast-response.js';
import { configFor, readQuery, type FsCall, type FsEnv } from './fs-call.js';
import { MSG } from './messages.js';
import { runQuery } from './query.js';

export async function read(call: FsCall, env: FsEnv, head: boolean): Promise<Response | undefined> {
  const request = call.ctx.request;
  if ((call.body !== undefined && call.body.byteLength > 0) || hasBody(request)) {
    throw new HttpError(400, head ? MSG.headWithBody : MSG.getWithBody);
  }
  let entry = env.cache.peek(call.key) ?? null;
  if (entry === null) {
    entry = await env.cache.resolveEntry(call.key, call);
    if (entry === null) return undefined;
  }
  const method = head ? 'HEAD' : 'GET';
  if (entry.array !== undefined && call.ctx.search.length > 1 && (configFor(call.pagination, method) || configFor(call.filters, method))) {
    const q = readQuery(call, method);
    if (q.present) {
      const r = runQuery(entry, entry.array, q.predicates, q.page, false, q.signature);
      return FastResponse.json(JSON.stringify(r.page), 200, { 'X-Total-Count': String(r.total) }, head);
    }
  }
  return new FastResponse(head ? null : entry.bytes, { status: 200, headers: entry.headers }) as unknown as Response;
}
