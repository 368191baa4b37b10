/**
 * The `openapi` layer (`mock.openapi`): every request under the prefix is
 * checked against the OpenAPI document before any handler or file runs.
 *
 *   path not in the document            → 404 (`No operation … in the OpenAPI document`)
 *   path there, method not              → 405 with `Allow`
 *   parameters / JSON body do not match → 400 with the one error body: a readable message (the
 *                                          first problems, `query.limit must be <= 100`) and
 *                                          `errors: [{ in, at, message }]` (at most 10)
 *   otherwise                           → the next layer (PASS)
 *
 * With `validateResponses` (or `strictResponses`) the layer also wraps the answer of the layers
 * after it (`around`, pipeline/layer.ts): generated, file, handler, proxied or recorded, each is
 * checked against the documented response for its status and content type (response-check.ts);
 * a violation is logged with its JSON pointers and marked on the journal entry (violations.ts);
 * strict mode answers 500 with the violations listed instead. A request refused for an operation
 * (400, 401, 406, 415) or whose answer broke it carries that operation to its journal entry too. Such requests leave the fast path.
 *
 * The document (a path, read by the host's loader, openapi-document/document-loader.ts; or the
 * document object) becomes a route table whose operations compile with Ajv on first use
 * (request-validator.ts); `ready` waits for the document. A document that cannot be loaded is
 * logged and every request answers 500 (never unchecked); an operation that cannot compile is
 * reported once and answered unvalidated.
 * `peek` answers synchronously for requests without a JSON body to read (GET, DELETE…), so
 * validated GETs stay on the hosts' fast path. A JSON body is read once (bodyLimit, 413) and
 * kept for the layers after it (core/body.ts `keepBody`).
 * Order: after faults, before json-server's rewrite, handlers and every data layer: a request that
 *   breaks the document is refused before any handler or file runs, and `around` sees their answers.
 */
import { bufferedBody, carriesBody, hasBody, keepBody, keepJson, readBody } from '../../core/body.js';
import { decodedBody } from '../../core/content-encoding.js';
import type { BoundedSyncInflate } from '../../core/inflate-bounded.js';
import { errorResponse, HttpError } from '../../core/errors.js';
import { fastState } from '../../core/fast-response.js';
import { FORBIDDEN_KEYS, parseJsonBytes } from '../../core/json-safety.js';
import type { Logger } from '../../core/logger.js';
import { isJsonMediaType, parseMediaType } from '../../core/media-type.js';
import { readMultipart } from '../../core/multipart.js';
import type { RequestContext } from '../context.js';
import { collectFields } from '../handler-api/fields.js';
import { PASS, type Layer } from '../pipeline/layer.js';
import { documentModel, sharedOpenApiDocument, type DocumentLoader } from '../openapi-document/document-loader.js';
import type { Operation } from '../openapi-document/operations.js';
import { contractRefusal, invalidStatus, unexpectedBody, type Refusal } from './contract.js';
import { pageWriteOf } from '../page-write.js';
import { documentedError } from './documented-error.js';
import { checkAnswer } from './response-check.js';
import { recordContractViolations, recordOpenApiOperation, type OperationRef } from './violations.js';
import type { compileDocument, Match, Problem } from './request-validator.js';

export const OPENAPI_LAYER = 'openapi';

export interface OpenApiLayerOptions {
  /** A path or URL (read by the host's loader; relative to `root` when given), or the document. */
  source: string | object;
  /** The option object the document belongs to (layers reading the same option load it once). */
  option?: object;
  root?: string;
  bodyLimit: number;
  logger: Logger;
  /** Check the answers too: a mismatch is logged and marked in the journal (the answer is sent unchanged). */
  validateResponses?: boolean;
  /** Check the answers, and answer 500 (listing the violations) instead of one that breaks the document. */
  strictResponses?: boolean;
  /** The runtime's loader for a document given by its path (openapi-document/document-loader.ts). */
  loadDocument?: DocumentLoader;
  /** The runtime's native inflate for compressed request bodies (runtime.ts). */
  inflate?: BoundedSyncInflate;
}

export type OpenApiLayer = Layer;

type Compiled = ReturnType<typeof compileDocument>;

/** What `peek` prepared for `handle`: the match (past the contract's refusals), and whether its parameters were checked too. */
interface Peeked {
  match: Match;
  checked: boolean;
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
      operations = new Map(documentModel(doc).model.operations.map((o) => [o.label, o]));
      compiled = compile(doc, {
        onUncompilable: (label, err) => logger.warn(`openapi: ${label} cannot be validated (${(err as Error)?.message ?? String(err)}); it is answered unvalidated`),
      });
      return true;
    } catch (err) {
      failed = true;
      logger.error(`openapi: the document could not be loaded: ${(err as Error)?.message ?? String(err)}`);
      return false;
    }
  })();

  /** One reference per operation, made on its first refusal or violation. */
  const refs = new Map<string, OperationRef>();
  function markOperation(ctx: RequestContext, label: string): void {
    let ref = refs.get(label);
    if (ref === undefined) {
      const id = operations.get(label)?.op.operationId;
      refs.set(label, (ref = { label, operationId: typeof id === 'string' ? id : null }));
    }
    recordOpenApiOperation(ctx.request, ref);
  }

  function refuse(ctx: RequestContext, match: Exclude<Match, { operation: unknown }>): Response {
    ctx.answered(OPENAPI_LAYER);
    const head = ctx.method === 'HEAD';
    if (match.status === 405) {
      return errorResponse(405, `${ctx.method} is not an operation of ${ctx.pathname} in the OpenAPI document`, ctx.pathname, { headers: { Allow: match.allow }, head });
    }
    return errorResponse(404, `No operation for ${ctx.method} ${ctx.pathname} in the OpenAPI document`, ctx.pathname, { head });
  }

  /** 401 / 415 / 406 from the document's contract (contract.ts), before the schema checks. */
  function refused(ctx: RequestContext, label: string, known?: Refusal): Response | undefined {
    const op = operations.get(label);
    const refusal = known ?? (op ? contractRefusal(op, ctx.request.headers, ctx.searchParams, hasBody(ctx.request), false, undefined, pageWriteOf(ctx.request) !== undefined) : undefined);
    if (!refusal) return undefined;
    ctx.answered(OPENAPI_LAYER, `refused ${refusal.status}`);
    markOperation(ctx, label);
    const head = ctx.method === 'HEAD';
    if (refusal.status === 401) {
      const documented = documentedError(op, 401, ctx.request.headers.get('accept'), refusal.message, refusal.headers, head);
      if (documented) return documented;
    }
    return errorResponse(refusal.status, refusal.message, ctx.pathname, { headers: refusal.headers, head: ctx.method === 'HEAD' });
  }

  function invalid(ctx: RequestContext, problems: Problem[], label: string): Response {
    ctx.answered(OPENAPI_LAYER, 'invalid request');
    markOperation(ctx, label);
    const op = operations.get(label);
    const status = invalidStatus(op);
    const message = `Request does not match the OpenAPI document: ${describeProblems(problems)}`;
    const documented = documentedError(op, status, ctx.request.headers.get('accept'), message, {}, ctx.method === 'HEAD');
    if (documented) return documented;
    return errorResponse(status, message, ctx.pathname, {
      details: { errors: problems },
      head: ctx.method === 'HEAD',
    });
  }

  function takesJson(ctx: RequestContext): boolean {
    return isJsonMediaType(parseMediaType(ctx.request.headers.get('content-type')).type);
  }

  function takesForm(ctx: RequestContext): boolean {
    const type = parseMediaType(ctx.request.headers.get('content-type')).type;
    return type === 'application/x-www-form-urlencoded' || type === 'multipart/form-data';
  }

  /**
   * A form body's fields (read once within bodyLimit and kept for the layers after this one):
   * urlencoded, or multipart read by core/multipart.ts (a part stays text; a file part stands as its name).
   * Repeated fields become arrays. A multipart body that cannot be parsed is a 400.
   */
  async function formOf(ctx: RequestContext): Promise<Record<string, unknown> | undefined> {
    const kept = bufferedBody(ctx.request);
    const bytes = kept ?? (await readBody(ctx.request, bodyLimit));
    if (kept === undefined) keepBody(ctx.request, bytes);
    if (bytes.byteLength === 0) return undefined;
    const decoded = await decodedBody(ctx.request, bytes, bodyLimit, options.inflate);
    const contentType = ctx.request.headers.get('content-type') ?? '';
    let entries: Iterable<[string, unknown]>;
    if (parseMediaType(contentType).type === 'application/x-www-form-urlencoded') entries = new URLSearchParams(new TextDecoder().decode(decoded));
    else {
      const form = readMultipart(decoded, contentType);
      entries = [...form.fields, ...form.files.map((f) => [f.fieldName, f.filename] as [string, unknown])];
    }
    return collectFields([...entries].filter(([k]) => !FORBIDDEN_KEYS.has(k)));
  }

  /**
   * validateResponses / strictResponses: the answer of the layers after this one, checked against
   * the operation's documented response (response-check.ts). A violation is logged with its JSON
   * pointers and kept for the journal (violations.ts); strict mode answers 500 listing them.
   */
  async function checked(ctx: RequestContext, next: () => Promise<Response | undefined>): Promise<Response | undefined> {
    // Matched before next(): later layers may rewrite the path (json-server's routes).
    const match = compiled?.match(ctx.method, ctx.subPath);
    const answer = await next();
    if (answer === undefined || match === undefined || !('operation' in match)) return answer;
    const by = ctx.answeredBy?.layer;
    if (by === OPENAPI_LAYER || by === 'not-found') return answer;
    const op = operations.get(match.operation.label);
    if (op === undefined) return answer;
    const { response, problems, unchecked } = await checkAnswer(op, match.operation, ctx.method, answer, { readLimit: bodyLimit });
    if (unchecked !== undefined && !uncheckedSaid.has(op.label)) {
      uncheckedSaid.add(op.label); // once per operation
      logger.warn(`openapi: the answer to ${ctx.method} ${ctx.pathname} (${response.status}, ${by ?? 'unknown'}) is ${unchecked}: its body is not checked against ${op.label}`);
    }
    if (problems.length === 0) return response;
    const list = problems.map((p) => `${p.pointer || '(answer)'} ${p.message}`).join('; ');
    recordContractViolations(ctx.request, { operation: op.label, status: response.status, problems });
    markOperation(ctx, op.label);
    logger.warn(`openapi: the answer to ${ctx.method} ${ctx.pathname} (${response.status}, ${by ?? 'unknown'}) does not match ${op.label}: ${list}`);
    if (!options.strictResponses) return response;
    if (fastState(response) === undefined) response.body?.cancel().catch(() => undefined);
    ctx.answered(OPENAPI_LAYER, `strict: the answer of ${by ?? 'a layer'} broke the document`);
    return errorResponse(500, `The answer (${response.status}) does not match the OpenAPI document (${op.label}): ${list}`, ctx.pathname, {
      details: { operation: op.label, answered: { status: response.status, layer: by ?? null }, violations: problems },
      head: ctx.method === 'HEAD',
    });
  }
  const wraps = options.validateResponses === true || options.strictResponses === true;
  /** Operations whose answer body could not be checked, already said in the log. */
  const uncheckedSaid = new Set<string>();

  return {
    name: OPENAPI_LAYER,
    ready,
    ...(wraps ? { around: checked } : {}),
    peek(ctx) {
      if (compiled === undefined) return undefined;
      const match = compiled.match(ctx.method, ctx.subPath);
      if (!('operation' in match)) return refuse(ctx, match);
      const op = match.operation;
      const refusal = refused(ctx, op.label);
      if (refusal) return refusal;
      // A body hinted to an operation that documents none: handle reads it (an empty one is none).
      if ((!operations.get(op.label)?.body && hasBody(ctx.request)) || ((op.jsonBody || op.formBody) && (hasBody(ctx.request) || op.bodyRequired))) {
        ctx.peeked = { match, checked: false } satisfies Peeked; // the body must be read: handle goes on from here
        return undefined;
      }
      const problems = op.check({ path: match.params, query: ctx.searchParams, headers: ctx.request.headers });
      if (problems.length) return invalid(ctx, problems, op.label);
      if (!wraps) return PASS;
      ctx.peeked = { match, checked: true } satisfies Peeked; // checking the answer takes the promise path (`around`)
      return undefined;
    },
    async handle(ctx) {
      const peeked = ctx.peeked as Peeked | undefined;
      if (peeked?.checked) return undefined; // peek found nothing to refuse
      let match: Match;
      if (peeked) match = peeked.match; // matched and past the contract in peek
      else {
        await ready;
        if (failed || compiled === undefined) throw new HttpError(500, 'The OpenAPI document could not be loaded', { expose: true });
        match = compiled.match(ctx.method, ctx.subPath);
        if (!('operation' in match)) return refuse(ctx, match);
        const refusal = refused(ctx, match.operation.label);
        if (refusal) return refusal;
      }
      if (!('operation' in match)) return refuse(ctx, match);
      const op = match.operation;
      const model = operations.get(op.label);
      if (model && !model.body && hasBody(ctx.request) && (await carriesBody(ctx.request, bodyLimit))) return refused(ctx, op.label, unexpectedBody(model));
      let body: unknown;
      const problems: Problem[] = [];
      if (op.jsonBody && hasBody(ctx.request) && takesJson(ctx)) {
        const kept = bufferedBody(ctx.request);
        const bytes = kept ?? (await readBody(ctx.request, bodyLimit));
        if (kept === undefined) keepBody(ctx.request, bytes); // as sent: the proxy forwards them with their Content-Encoding
        if (bytes.byteLength > 0) {
          body = parseJsonBytes(await decodedBody(ctx.request, bytes, bodyLimit, options.inflate)); // gzip/deflate undone; malformed → 400
          keepJson(ctx.request, bytes, body); // parsed once for the layers after this one
        }
      }
      let form: Record<string, unknown> | undefined;
      if (op.formBody && hasBody(ctx.request) && takesForm(ctx)) form = await formOf(ctx);
      if ((op.jsonBody || op.formBody) && op.bodyRequired && body === undefined && form === undefined && !(hasBody(ctx.request) && !takesJson(ctx) && !takesForm(ctx))) {
        problems.push({ in: 'body', at: '', message: 'is required' });
      }
      problems.push(...op.check({ path: match.params, query: ctx.searchParams, headers: ctx.request.headers, body, form }));
      return problems.length ? invalid(ctx, problems, op.label) : undefined;
    },
  };
}
