/**
 * The `openapi` layer (`mock.openapi`), FIRST in the pipeline: every request under the prefix is
 * checked against the OpenAPI document before any handler or file runs.
 *
 *   path not in the document            → 404 (`No operation … in the OpenAPI document`)
 *   path there, method not              → 405 with `Allow`
 *   parameters / JSON body do not match → 400 with the one error body: a readable message (the
 *                                          first problems, `query.limit must be <= 100`) and
 *                                          `errors: [{ in, at, message }]` (at most 10)
 *   otherwise                           → the next layer (PASS)
 *
 * The document (a path, read by the host's loader, openapi-backend/document-loader.ts; or the
 * document object) becomes a route table whose operations compile with Ajv on first use
 * (request-validator.ts); `ready` waits for the document. A document that cannot be loaded is
 * logged and every request answers 500 (never unchecked); an operation that cannot compile is
 * reported once and answered unvalidated.
 * `peek` answers synchronously for requests without a JSON body to read (GET, DELETE…), so
 * validated GETs stay on the hosts' fast path. A JSON body is read once (bodyLimit, 413) and
 * kept for the layers after it (core/body.ts `keepBody`).
 */
import { bufferedBody, hasBody, keepBody, readBody } from '../../core/body.js';
import { errorResponse, HttpError } from '../../core/errors.js';
import { parseJsonBytes } from '../../core/json-safety.js';
import type { Logger } from '../../core/logger.js';
import { isJsonMediaType, parseMediaType } from '../../core/media-type.js';
import type { RequestContext } from '../context.js';
import { PASS, type Layer } from '../pipeline/layer.js';
import type { Exchange } from '../../core/exchange.js';
import { sharedOpenApiDocument, type DocumentLoader } from '../openapi-backend/document-loader.js';
import { readDocument, type Operation } from '../openapi-backend/operations.js';
import { createDeref } from '../openapi-backend/refs.js';
import { contractRefusal, invalidStatus } from './contract.js';
import type { compileDocument, Match, Problem } from './request-validator.js';

export const OPENAPI_LAYER = 'openapi';

export interface OpenApiLayerOptions {
  /** A path or URL (read by the host's loader; relative to `root` when given), or the document. */
  source: string | object;
  /** The option object the document belongs to (layers reading the same option load it once). */
  option?: object;
  root?: string;
  /** The engine's prefixes (normalised), to find the path below the prefix of an answer. */
  prefixes: readonly string[];
  bodyLimit: number;
  logger: Logger;
  /** Check the answers too: a mismatch is logged as a warning (the answer is sent unchanged). */
  validateResponses?: boolean;
  /** The runtime's loader for a document given by its path (openapi-backend/document-loader.ts). */
  loadDocument?: DocumentLoader;
}

export interface OpenApiLayer extends Layer {
  /** With `validateResponses`: the observer the engine registers (pipeline/run.ts Observer). */
  readonly observer: ((exchange: Exchange) => void) | undefined;
}

type Compiled = ReturnType<typeof compileDocument>;

/** A problem of an answer as the JSON pointer into its body (`/owner/name`). */
function answerPointer(p: Problem): string {
  return `/${p.at.split('.').filter(Boolean).map((s) => s.replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`;
}

function describeProblems(problems: Problem[]): string {
  return problems.map((p) => `${p.at ? `${p.in}.${p.at}` : p.in} ${p.message}`).join('; ');
}

export function createOpenApiLayer(options: OpenApiLayerOptions): OpenApiLayer {
  const { logger, bodyLimit } = options;
  let compiled: Compiled | undefined;
  /** The operations as the contract reads them (security, media types, documented codes). */
  let operations = new Map<string, Operation>();
  let failed = false;
  const ready = (async () => {
    try {
      const [{ compileDocument: compile }, doc] = await Promise.all([
        import('./request-validator.js'),
        sharedOpenApiDocument(options.option ?? options, options.source, options.root, options.loadDocument),
      ]);
      const deref = createDeref(doc);
      operations = new Map(readDocument(doc, deref).operations.map((o) => [o.label, o]));
      compiled = compile(doc, {
        deref,
        onUncompilable: (label, err) => logger.warn(`openapi: ${label} cannot be validated (${(err as Error)?.message ?? String(err)}); it is answered unvalidated`),
      });
      return true;
    } catch (err) {
      failed = true;
      logger.error(`openapi: the document could not be loaded: ${(err as Error)?.message ?? String(err)}`);
      return false;
    }
  })();

  function refuse(ctx: RequestContext, match: Exclude<Match, { operation: unknown }>): Response {
    ctx.answered(OPENAPI_LAYER);
    const head = ctx.method === 'HEAD';
    if (match.status === 405) {
      return errorResponse(405, `${ctx.method} is not an operation of ${ctx.pathname} in the OpenAPI document`, ctx.pathname, { headers: { Allow: match.allow }, head });
    }
    return errorResponse(404, `No operation for ${ctx.method} ${ctx.pathname} in the OpenAPI document`, ctx.pathname, { head });
  }

  /** 401 / 415 / 406 from the document's contract (contract.ts), before the schema checks. */
  function refused(ctx: RequestContext, label: string): Response | undefined {
    const op = operations.get(label);
    const refusal = op ? contractRefusal(op, ctx.request.headers, ctx.searchParams, hasBody(ctx.request)) : undefined;
    if (!refusal) return undefined;
    ctx.answered(OPENAPI_LAYER, `refused ${refusal.status}`);
    return errorResponse(refusal.status, refusal.message, ctx.pathname, { headers: refusal.headers, head: ctx.method === 'HEAD' });
  }

  function invalid(ctx: RequestContext, problems: Problem[], label: string): Response {
    ctx.answered(OPENAPI_LAYER, 'invalid request');
    return errorResponse(invalidStatus(operations.get(label)), `Request does not match the OpenAPI document: ${describeProblems(problems)}`, ctx.pathname, {
      details: { errors: problems },
      head: ctx.method === 'HEAD',
    });
  }

  function takesJson(ctx: RequestContext): boolean {
    return isJsonMediaType(parseMediaType(ctx.request.headers.get('content-type')).type);
  }

  /** validateResponses: reads a copy of the answer and logs what does not match. */
  function checkAnswer(x: Exchange): void {
    const response = x.response;
    if (compiled === undefined || response === undefined || x.answeredBy?.layer === OPENAPI_LAYER) return;
    const pathname = x.pathname;
    const prefix = options.prefixes.find((p) => pathname === p || pathname.startsWith(`${p}/`)) ?? '';
    const match = compiled.match(x.method, pathname.slice(prefix.length));
    if (!('operation' in match) || !match.operation.hasResponseSchema(response.status)) return;
    const op = match.operation;
    const type = parseMediaType(response.headers.get('content-type')).type;
    if (!isJsonMediaType(type) || x.method === 'HEAD') return;
    response.clone().text().then((text) => {
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        logger.warn(`openapi: the answer to ${x.method} ${pathname} (${response.status}) is not valid JSON (${op.label})`);
        return;
      }
      const problems = op.checkResponse(response.status, body);
      if (problems && problems.length) logger.warn(`openapi: the answer to ${x.method} ${pathname} (${response.status}) does not match ${op.label}: ${problems.map((p) => `${answerPointer(p)} ${p.message}`).join('; ')}`);
    }, () => undefined);
  }

  return {
    name: OPENAPI_LAYER,
    observer: options.validateResponses ? checkAnswer : undefined,
    ready,
    peek(ctx) {
      if (compiled === undefined) return undefined;
      const match = compiled.match(ctx.method, ctx.subPath);
      if (!('operation' in match)) return refuse(ctx, match);
      const op = match.operation;
      const refusal = refused(ctx, op.label);
      if (refusal) return refusal;
      if (op.jsonBody && (hasBody(ctx.request) || op.bodyRequired)) return undefined; // the body must be read
      const problems = op.check({ path: match.params, query: ctx.searchParams, headers: ctx.request.headers });
      return problems.length ? invalid(ctx, problems, op.label) : PASS;
    },
    async handle(ctx) {
      await ready;
      if (failed || compiled === undefined) throw new HttpError(500, 'The OpenAPI document could not be loaded', { expose: true });
      const match = compiled.match(ctx.method, ctx.subPath);
      if (!('operation' in match)) return refuse(ctx, match);
      const op = match.operation;
      const refusal = refused(ctx, op.label);
      if (refusal) return refusal;
      let body: unknown;
      const problems: Problem[] = [];
      if (op.jsonBody && hasBody(ctx.request) && takesJson(ctx)) {
        const bytes = bufferedBody(ctx.request) ?? (await readBody(ctx.request, bodyLimit));
        keepBody(ctx.request, bytes);
        if (bytes.byteLength > 0) body = parseJsonBytes(bytes); // malformed → 400
      }
      if (op.jsonBody && op.bodyRequired && body === undefined && !(hasBody(ctx.request) && !takesJson(ctx))) {
        problems.push({ in: 'body', at: '', message: 'is required' });
      }
      problems.push(...op.check({ path: match.params, query: ctx.searchParams, headers: ctx.request.headers, body }));
      return problems.length ? invalid(ctx, problems, op.label) : undefined;
    },
  };
}
