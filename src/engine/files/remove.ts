/**
 * DELETE: removes the file (204, X-Deleted-Count: 1). With DELETE filters/pagination configured
 * and given, on a JSON array: removes the selected items (X-Deleted-Count: N), deletes the file
 * when none remain, 404 when nothing matched.
 */
import { carriesBody } from '../../core/body.js';
import { HttpError } from '../../core/errors.js';
import { FastResponse } from '../../core/fast-response.js';
import { assertKnownParams, hasQueryConfig, readQuery, type FsCall, type FsEnv } from '../file-cache/fs-call.js';
import { detectLayout, serializeJson } from '../../core/json-layout.js';
import { MSG } from '../file-cache/messages.js';
import { runExclusive } from '../file-cache/patch-batch.js';
import { runQuery } from '../file-cache/query.js';

export async function remove(call: FsCall, env: FsEnv): Promise<Response> {
  assertKnownParams(call, 'DELETE');
  if (call.body !== undefined ? call.body.byteLength > 0 : await carriesBody(call.ctx.request, env.bodyLimit)) {
    throw new HttpError(400, MSG.deleteWithBody);
  }
  const path = await env.cache.lookup(call.key, call);
  if (path === null) throw new HttpError(404, MSG.deleteNotFound);
  const query = hasQueryConfig(call, 'DELETE') ? readQuery(call, 'DELETE') : undefined;

  const deleted = await runExclusive(env, path, async () => {
    const entry = await env.cache.entry(path);
    if (entry === null) throw new HttpError(404, MSG.deleteNotFound);
    if (query?.present && entry.array !== undefined) {
      const items = entry.array;
      const r = runQuery(entry, items, query.predicates, query.page, true);
      if (r.page.length === 0) throw new HttpError(404, MSG.partialDeleteNotFound);
      const drop = new Uint8Array(items.length);
      for (const i of r.indices!) drop[i] = 1;
      const rest = items.filter((_, i) => drop[i] === 0);
      if (rest.length === 0) await env.cache.remove(path);
      else await env.cache.write(path, serializeJson(rest, detectLayout(entry.bytes)), true, { value: rest });
      return r.page.length;
    }
    if (!(await env.cache.remove(path))) throw new HttpError(404, MSG.deleteNotFound);
    return 1;
  });
  return FastResponse.empty(204, { 'X-Deleted-Count': String(deleted) });
}
