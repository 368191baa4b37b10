/**
 * Express-style middlewares on every request (`middlewares`, json-server's `--middlewares`) and
 * `readOnly` (json-server's `--read-only`), before the handlers:
 *
 *   - readOnly: a method other than GET, HEAD and OPTIONS answers 403, except a POST to the
 *     GraphQL endpoint (`graphqlPath`): a query does not write, the GraphQL layer refuses mutations;
 *   - each middleware `(req, res, next)` gets the portable req/res handlers get
 *     (handler-api/request.ts, handler-api/response.ts), `req.body` parsed as 0.17's CLI parses it
 *     (JSON, form); one that answers (`res.json`, `res.sendStatus`,
 *     `res.end`) answers the request; when every one called `next()`, the headers they set
 *     (`res.header('X-Hello', 'World')`) go onto whatever answers it (`ctx.onAnswer`);
 *   - `gatewayTimeout` bounds them as it bounds handlers: a middleware that neither calls
 *     `next()` nor answers within it gets a 504.
 * Order: after the rewrite, before handlers: json-server runs its middlewares (and `--read-only`)
 *   before its router.
 */
import { hasBody, readBody, replayBody } from '../../core/body.js';
import { readDecodedBody } from '../../core/content-encoding.js';
import type { BoundedSyncInflate } from '../../core/inflate-bounded.js';
import { errorResponse } from '../../core/errors.js';
import { parseJsonBytes } from '../../core/json-safety.js';
import { isJsonMediaType, parseMediaType } from '../../core/media-type.js';
import { collectFields } from '../handler-api/fields.js';
import { readMultipart } from '../../core/multipart.js';
import { withHeaders } from '../../core/fast-response.js';
import { runMiddlewares, type StepOutcome } from '../handler-api/chain.js';
import { Deadlines } from '../handler-api/deadline.js';
import { PortableRequest } from '../handler-api/request.js';
import { ResponseBuilder } from '../handler-api/response.js';
import { PASS, type Layer } from '../pipeline/layer.js';
import type { RequestContext } from '../context.js';
import type { MockApiApp, MiddlewareFunction } from '../types.js';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** How the middlewares' `req.body` is read (as Express's body-parser reads JSON and forms, with the engine's limits). */
export interface MiddlewareBody {
  limit: number;
  maxDepth: number;
  inflate?: BoundedSyncInflate;
}

/** Parses the body into `req.body`; whether it was JSON that can be written back (no content coding), else undefined. */
async function parsedBody(ctx: RequestContext, req: PortableRequest, body: MiddlewareBody): Promise<true | undefined> {
  const bytes = await readBody(ctx.request, body.limit); // a 413 is the answer
  replayBody(ctx.request, bytes); // the layer that answers reads them again (and decodes them itself)
  const header = ctx.request.headers.get('content-type');
  const type = parseMediaType(header).type;
  try {
    const raw = await readDecodedBody(ctx.request, body.limit, body.inflate);
    if (isJsonMediaType(type)) req.body = parseJsonBytes(raw, 'JSON body', body.maxDepth);
    else if (type === 'application/x-www-form-urlencoded') req.body = collectFields(new URLSearchParams(new TextDecoder().decode(raw)));
    else if (type === 'multipart/form-data') req.body = collectFields(readMultipart(raw, header!).fields);
  } catch {
    req.body = undefined;
    return undefined;
  }
  return isJsonMediaType(type) && !ctx.request.headers.has('content-encoding') ? true : undefined;
}

/** `chain`: the middlewares of the moment (live-rules.ts), read once when a request reaches the layer. */
export function createMiddlewareLayer(chain: () => readonly MiddlewareFunction[], readOnly: boolean, app: MockApiApp, gatewayTimeout: number, body: MiddlewareBody, graphqlPath?: string): Layer {
  const deadlines = new Deadlines();
  const refused = (ctx: { method: string; subPath: string }) => readOnly && !READS.has(ctx.method) && !(ctx.method === 'POST' && ctx.subPath === graphqlPath);
  return {
    name: 'middlewares',
    ownDelay: true, // readOnly's 403 and a middleware's own answer come before json-server 0.17's --delay: not delayed
    async handle(ctx) {
      if (refused(ctx)) {
        ctx.answered('middlewares', 'read-only');
        return errorResponse(403, `${ctx.method} is not allowed: the mock API is read-only`, ctx.pathname);
      }
      const middlewares = chain(); // this request's chain, whatever a reload does meanwhile
      if (middlewares.length === 0) return undefined;
      const req = new PortableRequest(ctx, {}, app);
      const res = new ResponseBuilder();
      // json-server 0.17 parses the body before its middlewares (`req.body`, `{}` without one, as
      // Express's body-parser); the layers after read the same bytes again (core/body.ts
      // replayBody). A body the parser refuses is left to the layer that answers (its 400/413).
      const json = hasBody(ctx.request) ? await parsedBody(ctx, req, body) : undefined;
      if (req.body === undefined) req.body = {};
      const before = json === undefined ? undefined : JSON.stringify(req.body);
      type Outcome = StepOutcome | 'timeout' | { error: unknown };
      const work: Promise<Outcome> = runMiddlewares(middlewares, req, res).then((o) => o, (error: unknown) => ({ error }));
      const outcome = await deadlines.race<Outcome>(work, gatewayTimeout, async () => 'timeout');
      if (outcome === 'timeout') {
        res.seal();
        ctx.answered('middlewares', 'gateway timeout');
        return errorResponse(504, `No answer from the middlewares within gatewayTimeout (${gatewayTimeout} ms)`, ctx.pathname, { head: ctx.method === 'HEAD' });
      }
      if (typeof outcome === 'object') throw outcome.error;
      if (outcome === 'responded') {
        ctx.answered('middlewares');
        return res.toResponse(ctx.method === 'HEAD');
      }
      // A JSON body a middleware changed (`req.body.createdAt = …`, json-server's own example) is
      // what the layers after it store.
      if (before !== undefined && req.body !== null && typeof req.body === 'object') {
        const after = JSON.stringify(req.body);
        if (after !== before) replayBody(ctx.request, new TextEncoder().encode(after));
      }
      const headers = res.headerRecord();
      // Static files are served as json-server serves them: before (without) its middlewares.
      if (Object.keys(headers).length > 0) ctx.onAnswer((r) => (ctx.answeredBy?.layer === 'static' ? r : withHeaders(r, headers)));
      return undefined;
    },
    close() {
      deadlines.expireAll();
    },
    peek(ctx) {
      if (chain().length > 0) return undefined;
      return refused(ctx) ? undefined : PASS;
    },
  };
}
