/**
 * File-system mode: dispatches a request under the prefix to the method modules.
 * `serve` answers a Response, or `undefined` when file mode has nothing to say (GET/HEAD of a
 * path that resolves to no file, a method file mode does not know, or — with a proxy behind it —
 * a write naming nothing the mocks hold, unmocked-write.ts) so the next layer or the engine's
 * `noHandledRestFsRequestsAction` answers. Errors become the JSON error body here.
 */
import { HttpError, responseForError } from '../../core/errors.js';
import { isVfsError } from '../../vfs/types.js';
import type { RequestContext } from '../context.js';
import type { FsServeOverrides } from '../services.js';
import { create } from './create.js';
import { FileCache } from '../file-cache/file-cache.js';
import type { FsMode, FsModeOptions } from '../file-cache/files-layer.js';
import { FsCall, type FsEnv } from '../file-cache/fs-call.js';
import { jsonProblemReporter } from '../file-cache/json-problem.js';
import { MSG } from '../file-cache/messages.js';
import { read, readCached } from './read.js';
import { remove } from './remove.js';
import { replace } from './replace.js';
import { isUnmockedWrite, WRITE_METHODS } from './unmocked-write.js';
import { update } from './update.js';

const ALLOW = 'GET, HEAD, POST, PUT, PATCH, DELETE';

export function createFsMode(options: FsModeOptions): FsMode {
  const cache = new FileCache(options.vfs, options.fsDir, {
    maxDepth: options.maxJsonDepth,
    onProblem: jsonProblemReporter(options.logger, options.fsDir, options.maxJsonDepth),
    below: options.below,
    countObjects: options.countObjects,
  });
  const env: FsEnv = { name: options.name, vfs: options.vfs, fsDir: options.fsDir, cache, queue: options.queue, bodyLimit: options.bodyLimit, inflate: options.inflate, maxJsonDepth: options.maxJsonDepth, logger: options.logger, onUnreadQuery: options.onUnreadQuery };

  function dispatch(ctx: RequestContext, overrides: FsServeOverrides | undefined): Promise<Response | undefined> | undefined {
    const method = ctx.method;
    if (method === 'OPTIONS') throw new HttpError(405, MSG.optionsNotAllowed, { headers: { Allow: ALLOW } });
    const call = overrides === undefined
      ? new FsCall(ctx, ctx.subPath, options.pagination, options.filters, undefined)
      : new FsCall(
        ctx,
        overrides.path ?? ctx.subPath,
        overrides.pagination !== undefined ? overrides.pagination : options.pagination,
        overrides.filters !== undefined ? overrides.filters : options.filters,
        overrides.body,
        overrides.path !== undefined,
      );
    if (overrides === undefined && options.passUnmockedWrites === true && WRITE_METHODS.has(method)) {
      return isUnmockedWrite(call, env, method).then((unmocked) => (unmocked ? undefined : write(call, method)));
    }
    if (method === 'GET' || method === 'HEAD') return read(call, env, method === 'HEAD');
    return WRITE_METHODS.has(method) ? write(call, method) : undefined;
  }

  function write(call: FsCall, method: string): Promise<Response> {
    return method === 'POST' ? create(call, env) : method === 'PUT' ? replace(call, env) : method === 'PATCH' ? update(call, env) : remove(call, env);
  }

  function fail(ctx: RequestContext, err: unknown): Response {
    // Backstop: a path the driver refuses as unsafe is the client's doing, not a server fault.
    if (isVfsError(err, 'EINVAL')) err = new HttpError(400, 'Unsafe path');
    // Not allowed: a folder the process may not read, or a link whose real path leaves the root
    // (the disk driver's rule). The client learns "Forbidden"; the log says which and where.
    if (isVfsError(err, 'EACCES')) {
      options.logger.warn(`${ctx.method} ${ctx.pathname} refused: ${err.message}`);
      err = new HttpError(403, 'Forbidden');
    }
    if (!(err instanceof HttpError) || err.status >= 500) {
      options.logger.error(`${ctx.method} ${ctx.pathname} failed: ${(err as Error)?.message ?? String(err)}`);
    }
    return responseForError(err, ctx.pathname, ctx.method === 'HEAD');
  }

  return {
    env,
    serve(ctx, overrides) {
      try {
        const pending = dispatch(ctx, overrides);
        return pending === undefined ? Promise.resolve(undefined) : pending.catch((err: unknown) => fail(ctx, err));
      } catch (err) {
        return Promise.resolve(fail(ctx, err));
      }
    },
    serveCached(ctx) {
      const method = ctx.method;
      if (method !== 'GET' && method !== 'HEAD') return undefined;
      return readCached(new FsCall(ctx, ctx.subPath, options.pagination, options.filters, undefined), env, method === 'HEAD');
    },
    close() {
      cache.close();
    },
  };
}
