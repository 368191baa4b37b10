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
 * The document (a path, or the document object) is dereferenced by @readme/openapi-parser
 * (loaded on demand) and compiled once with Ajv (request-validator.ts); `ready` waits for it. A
 * document that cannot be loaded is logged and every request answers 500 (never unchecked).
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
import { dereferenceLocal } from './local-refs.js';
import type { compileDocument, Match, Problem } from './request-validator.js';

/**
 * The parser is imported by a computed name, so browser bundlers leave it out (it resolves in
 * Node, where a document is given by its path); a document given as an object is dereferenced
 * here (local-refs.ts). The validator (Ajv) is its own chunk, loaded with the document.
 */
const PARSER = '@readme/openapi-parser';

export const OPENAPI_LAYER = 'openapi';

export interface OpenApiLayerOptions {
  /** A path or URL (resolved by the parser; relative to `root` when given), or the document. */
  source: string | object;
  root?: string;
  /** The engine's prefixes (normalised), to find the path below the prefix of an answer. */
  prefixes: readonly string[];
  bodyLimit: number;
  logger: Logger;
  /** Check the answers too: a mismatch is logged as a warning (the answer is sent unchanged). */
  validateResponses?: boolean;
}

export interface OpenApiLayer extends Layer {
  /** With `validateResponses`: the observer the engine registers (pipeline/run.ts Observer). */
  readonly observer: ((exchange: Exchange) => void) | undefined;
}

type Compiled = ReturnType<typeof compileDocument>;

function describeProblems(problems: Problem[]): string {
  return problems.map((p) => `${p.at ? `${p.in}.${p.at}` : p.in} ${p.message}`).join('; ');
}

function resolveSource(source: string | object, root: string | undefined): string | object {
  if (typeof source !== 'string' || !root) return source;
  if (/^([a-z][a-z0-9+.-]*:|\/|\\)/i.test(source)) return source; // URL, absolute or drive path
  return `${root.replace(/[\\/]+$/, '')}/${source}`;
}

export function createOpenApiLayer(options: OpenApiLayerOptions): OpenApiLayer {
  const { logger, bodyLimit } = options;
  let compiled: Compiled | undefined;
  let failed = false;
  const ready = (async () => {
    try {
      const [{ compileDocument: compile }, doc] = await Promise.all([
        import('./request-validator.js'),
        typeof options.source === 'string'
          ? (import(/* @vite-ignore */ PARSER) as Promise<{ dereference(path: string): Promise<unknown> }>).then((m) => m.dereference(resolveSource(options.source, options.root) as string))
          : Promise.resolve(dereferenceLocal(options.source)),
      ]);
      compiled = compile(doc as Record<string, unknown>);
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

  function invalid(ctx: RequestContext, problems: Problem[]): Response {
    ctx.answered(OPENAPI_LAYER, 'invalid request');
    return errorResponse(400, `Request does not match the OpenAPI document: ${describeProblems(problems)}`, ctx.pathname, {
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
      if (problems && problems.length) logger.warn(`openapi: the answer to ${x.method} ${pathname} (${response.status}) does not match ${op.label}: ${describeProblems(problems)}`);
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
      if (op.jsonBody && (hasBody(ctx.request) || op.bodyRequired)) return undefined; // the body must be read
      const problems = op.check({ path: match.params, query: ctx.searchParams, headers: ctx.request.headers });
      return problems.length ? invalid(ctx, problems) : PASS;
    },
    async handle(ctx) {
      await ready;
      if (failed || compiled === undefined) throw new HttpError(500, 'The OpenAPI document could not be loaded', { expose: true });
      const match = compiled.match(ctx.method, ctx.subPath);
      if (!('operation' in match)) return refuse(ctx, match);
      const op = match.operation;
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
      return problems.length ? invalid(ctx, problems) : undefined;
    },
  };
}
