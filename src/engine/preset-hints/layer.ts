/**
 * Pointers to the json-server preset where the spec's file mode answers a newcomer's request in
 * a way they do not expect (a folder of JSON arrays read as a REST API):
 *   - `GET <array>/<id>` → the JSON 404, with a `hint` naming the option (the `itemRouteHints` layer,
 *     last in the list when collections are off and no proxy follows);
 *   - POST to an existing JSON array → the spec's 409, with the same `hint` (files/create.ts);
 *   - GET query parameters that no pagination/filter option reads → one warning per path.
 * The spec's status codes and messages stay as they are; only a `hint` field and a log line are added.
 * Order: last, only when collections and the proxy are off: it turns the end of the list's 404 for
 *   `<array>/<id>` into a 404 with a hint.
 */
import { errorResponse } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import type { RequestContext } from '../context.js';
import { PASS, type Layer } from '../pipeline/layer.js';
import { SCENARIO_PARAM } from '../selection/scenario.js';
import { collectionFile } from '../store/collection-file.js';
import type { FileEntry } from '../file-cache/file-cache.js';
import type { FsCall } from '../file-cache/fs-call.js';
import type { FilesLayer } from '../file-cache/files-layer.js';
import { PRESET_HINT } from '../file-cache/messages.js';

const WARN_AT_MOST = 1000;

/**
 * The files layer's `onUnreadQuery` (read.ts): a GET answered with the whole file although query
 * parameters were given, none of which an option reads. Warns once per path.
 */
export function unreadQueryWarning(logger: Logger): (call: FsCall, entry: FileEntry) => void {
  const warned = new Set<string>();
  return (call, entry) => {
    if (warned.has(call.key) || warned.size >= WARN_AT_MOST) return;
    const names = [...new Set(call.ctx.searchParams.keys())].filter((n) => n !== SCENARIO_PARAM);
    if (names.length === 0) return;
    warned.add(call.key);
    const option = entry.array !== undefined
      ? "set preset: 'json-server' (CLI: --preset json-server) for json-server's query syntax, or configure pagination/filters"
      : 'configure pagination/filters to read them';
    logger.warn(`GET ${call.ctx.prefix}${call.key}: query parameter${names.length > 1 ? 's' : ''} ${names.map((n) => JSON.stringify(n)).join(', ')} ignored (file mode serves the file as stored; ${option}). Said once per path.`);
  };
}

/** `/todos` for a GET/HEAD of `/todos/2`, else undefined. */
function parentKey(ctx: RequestContext): string | undefined {
  if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return undefined;
  const cut = ctx.subPath.lastIndexOf('/');
  return cut <= 0 || cut === ctx.subPath.length - 1 ? undefined : ctx.subPath.slice(0, cut);
}

/**
 * Last layer when collections are off: a GET/HEAD that nothing answered, whose parent path is a
 * JSON array file (`/api/todos/2` next to `todos.json`), gets the JSON 404 with a `hint`.
 */
export function itemRouteHints(files: FilesLayer): Layer {
  return {
    name: 'preset-hints',
    async handle(ctx: RequestContext) {
      const key = parentKey(ctx);
      const env = files.mode()?.env;
      if (key === undefined || env === undefined) return undefined;
      if ((await collectionFile(env, key).catch(() => null)) === null) return undefined;
      return errorResponse(404, 'Not Found', ctx.pathname, { head: ctx.method === 'HEAD', details: { hint: PRESET_HINT } });
    },
    peek(ctx) {
      const key = parentKey(ctx);
      const cache = files.mode()?.env.cache;
      if (key === undefined || cache === undefined) return PASS;
      const entry = cache.lookupEntryNow(key);
      if (entry !== undefined) return entry.array === undefined ? PASS : undefined;
      return cache.lookupNow(key) === null ? PASS : undefined;
    },
  };
}
