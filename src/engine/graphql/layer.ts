/**
 * The GraphQL layer (`mock.graphql`): GraphQL over the collections at `<prefix>/graphql`.
 *
 *   POST <path>  { query, variables?, operationName? } (application/json), or the document
 *                itself (application/graphql)
 *   GET  <path>?query=…&variables=…&operationName=…   queries only (a mutation: 405)
 *   WebSocket <path>  subscriptions (and queries, mutations) with graphql-transport-ws
 *                     (subscriptions.ts)
 *
 * Answers: 200 `{ data, errors? }` once the document runs (field errors carry
 * `extensions.code`: NOT_FOUND, CONFLICT, BAD_REQUEST… from the store); `{ errors }` when the
 * document cannot run (syntax: GRAPHQL_PARSE_FAILED, validation: GRAPHQL_VALIDATION_FAILED):
 * 200 as json-graphql-server answers, 400 for clients that accept
 * `application/graphql-response+json` (GraphQL over HTTP); a request that is not GraphQL (no
 * query, bad JSON, variables that are not an object): the JSON 400; other methods: 405. Every answer records the operation
 * (`query GetPosts`, `mutation`, `subscription postCreated`) as what answered, so the request
 * log and the devtools journal name it.
 *
 * The schema follows the data (schema.ts): a collection or a field added to the files is in the
 * schema of the next request, without a restart.
 *
 * GraphQL handlers (operation-handlers.ts; `api.use`'s first) answer by operation name before the
 * schema, over HTTP and over the socket; subscription handlers feed subscriptions over the socket.
 * Under `readOnly` (json-server's `--read-only`) queries are answered and mutations refused: 403
 * `{ errors: [{ extensions: { code: 'FORBIDDEN' } }], data: null }` over HTTP, the same errors
 * over the socket.
 * Order: after handlers and the replay layers, before collections and files: its endpoint is a
 *   path of its own, which no collection or file should answer.
 */
import { hasBody } from '../../core/body.js';
import { readDecodedBody } from '../../core/content-encoding.js';
import { HttpError } from '../../core/errors.js';
import { FastResponse } from '../../core/fast-response.js';
import { parseJsonBytes } from '../../core/json-safety.js';
import { isJsonMediaType, parseMediaType } from '../../core/media-type.js';
import { withMessageLimit, type UpgradeResult } from '../../core/socket.js';
import type { RequestContext } from '../context.js';
import { PASS, type Layer } from '../pipeline/layer.js';
import type { EngineServices } from '../services.js';
import type { CollectionStore } from '../store/store.js';
import type { ResolvedGraphql } from './options.js';
import { createGraphqlService, DocumentError, type GraphqlRequest } from './service.js';
import { graphqlWsSession } from './subscriptions.js';
import { createSchemaFirstService, type SchemaSource } from './schema-first-service.js';
import type { SchemaFirstTypes } from './types-view.js';

export { schemaSource } from './schema-first-service.js';
import { answerWith, eventsOf, handlerFor, type GraphqlOperationHandler } from '../handler-api/operation-handlers.js';
import type { GraphqlAnswer, GraphqlResolverInput } from '../types.js';
import { parse, type OperationDefinitionNode } from 'graphql';
import { isObj } from '../../core/json-object.js';

const NAME = 'graphql';
const ALLOW = 'GET, POST';
const decoder = new TextDecoder();

function variablesOf(v: unknown): Record<string, unknown> | null {
  if (v === undefined || v === null) return null;
  if (!isObj(v)) throw new HttpError(400, 'GraphQL "variables" must be a JSON object');
  return v;
}

/** What the request log and the journal show: `query GetPosts`. */
function operationLabel(request: GraphqlRequest): string {
  if (request.operationName) {
    const m = new RegExp(`\\b(query|mutation|subscription)\\s+${request.operationName.replace(/[^\w]/g, '')}\\b`).exec(request.query);
    return `${m?.[1] ?? 'query'} ${request.operationName}`;
  }
  const m = /^\s*(?:#[^\n]*\n\s*)*(query|mutation|subscription)?\s*([_A-Za-z][_0-9A-Za-z]*)?/.exec(request.query);
  const kind = m?.[1] ?? 'query';
  if (m?.[2]) return `${kind} ${m[2]}`;
  const field = /\{\s*([_A-Za-z][_0-9A-Za-z]*)/.exec(request.query)?.[1];
  return field ? `${kind} { ${field} }` : kind;
}

/** A mutation under `readOnly`: the errors entry (403 over HTTP, as the REST refusal). */
const READ_ONLY: GraphqlAnswer = { errors: [{ message: 'Mutations are not allowed: the mock API is read-only', extensions: { code: 'FORBIDDEN' } }], data: null };

async function* once(answer: GraphqlAnswer | Promise<GraphqlAnswer>): AsyncGenerator<GraphqlAnswer> {
  yield await answer;
}

export function createGraphqlLayer(options: ResolvedGraphql & { readOnly?: boolean }, store: CollectionStore, services: EngineServices, handlers: readonly GraphqlOperationHandler[] = [], schema?: SchemaSource): Layer & { schemaFirstTypes?: SchemaFirstTypes } {
  const schemaFirst = schema ? createSchemaFirstService(schema, store) : undefined;
  const service = schemaFirst ?? createGraphqlService(store);
  /** The operation a document runs (type and name), memoised by text; null when it does not parse. */
  const operations = new Map<string, { type: string; name: string | undefined } | null>();
  function operationOf(request: GraphqlRequest): { type: string; name: string | undefined } | null {
    const key = `${request.operationName ?? ''}\u0000${request.query}`;
    let op = operations.get(key);
    if (op === undefined) {
      op = null;
      try {
        const defs = parse(request.query).definitions.filter((d): d is OperationDefinitionNode => d.kind === 'OperationDefinition');
        const def = request.operationName ? defs.find((d) => d.name?.value === request.operationName) : defs.length === 1 ? defs[0] : undefined;
        if (def) op = { type: def.operation, name: def.name?.value };
      } catch {
        // not a document: the schema's answer says why
      }
      if (operations.size >= 200) operations.delete(operations.keys().next().value!);
      operations.set(key, op);
    }
    return op;
  }

  /** `api.use`'s GraphQL handlers (newest first), then this pipeline's; rebuilt when the list changes. */
  let merged: { version: number; handlers: readonly GraphqlOperationHandler[] } = { version: -1, handlers };
  function withOverrides(): readonly GraphqlOperationHandler[] {
    const list = services.overrides;
    if (!list || list.graphql.length === 0) return handlers;
    if (merged.version !== list.version) merged = { version: list.version, handlers: [...list.graphql, ...handlers] };
    return merged.handlers;
  }

  function inputOf(request: GraphqlRequest, op: { type: string; name: string | undefined }, http: Request): GraphqlResolverInput {
    return { query: request.query, variables: request.variables ?? {}, operationName: op.name ?? '', operationType: op.type as GraphqlResolverInput['operationType'], request: http, app: services.app };
  }

  /**
   * Over the socket: the answers of a handler (a subscription's events; a query's or mutation's
   * one answer) or the read-only refusal; undefined when the schema answers.
   */
  function ownAnswers(request: GraphqlRequest, http: Request): AsyncIterableIterator<GraphqlAnswer> | undefined {
    const op = operationOf(request);
    if (!op) return undefined;
    if (op.type === 'mutation' && options.readOnly) return once(READ_ONLY);
    const h = handlerFor(withOverrides(), op.type, op.name);
    if (!h) return undefined;
    if (op.type === 'subscription') return eventsOf(h, inputOf(request, op, http));
    return once(answerWith(h, inputOf(request, op, http)).then((r) => r.json() as Promise<GraphqlAnswer>));
  }

  async function read(ctx: RequestContext): Promise<GraphqlRequest> {
    if (ctx.method === 'GET') {
      if (hasBody(ctx.request)) throw new HttpError(400, 'A GET request must not have a body');
      const query = ctx.searchParams.get('query');
      if (!query) throw new HttpError(400, 'Missing GraphQL "query" (a query string parameter for GET)');
      const raw = ctx.searchParams.get('variables');
      let variables: unknown = null;
      if (raw) {
        try {
          variables = JSON.parse(raw);
        } catch {
          throw new HttpError(400, 'GraphQL "variables" must be a JSON object');
        }
      }
      return { query, variables: variablesOf(variables), operationName: ctx.searchParams.get('operationName') };
    }
    const type = parseMediaType(ctx.request.headers.get('content-type')).type;
    const bytes = await readDecodedBody(ctx.request, 1024 * 1024, services.runtime.inflate); // Content-Encoding as every layer reads it
    if (type === 'application/graphql') return { query: decoder.decode(bytes) };
    if (type !== '' && !isJsonMediaType(type)) throw new HttpError(415, 'A GraphQL request must be sent as JSON (Content-Type: application/json)');
    if (bytes.byteLength === 0) throw new HttpError(400, 'Missing GraphQL request body');
    const body = parseJsonBytes(bytes, 'GraphQL request body');
    if (!isObj(body)) throw new HttpError(400, 'A GraphQL request body must be a JSON object { query, variables?, operationName? }');
    if (typeof body.query !== 'string' || body.query === '') throw new HttpError(400, 'Missing GraphQL "query"');
    if (body.operationName !== undefined && body.operationName !== null && typeof body.operationName !== 'string') throw new HttpError(400, 'GraphQL "operationName" must be a string');
    return { query: body.query, variables: variablesOf(body.variables), operationName: (body.operationName as string | null | undefined) ?? null };
  }

  async function answer(ctx: RequestContext): Promise<Response> {
    if (ctx.method !== 'GET' && ctx.method !== 'POST' && ctx.method !== 'HEAD') throw new HttpError(405, `${ctx.method} is not allowed on the GraphQL endpoint`, { headers: { Allow: ALLOW } });
    if (ctx.method === 'HEAD') throw new HttpError(405, 'HEAD is not allowed on the GraphQL endpoint', { headers: { Allow: ALLOW } });
    const request = await read(ctx);
    ctx.answered(NAME, operationLabel(request));
    const all = withOverrides();
    if (all.length > 0 || options.readOnly) {
      const op = operationOf(request);
      if (op?.type === 'mutation' && ctx.method === 'GET') throw new HttpError(405, 'Mutations must be sent with POST', { headers: { Allow: 'POST' } });
      if (op?.type === 'mutation' && options.readOnly) {
        ctx.undelayed = true; // as the REST 403 of readOnly: `delay` does not hold it back
        return FastResponse.json(JSON.stringify(READ_ONLY), 403);
      }
      if (op?.type === 'subscription') throw new HttpError(400, 'Subscriptions run over WebSocket (graphql-transport-ws) at this path');
      // GraphQL handlers win over the schema derived from the data (operation-handlers.ts);
      // those added with `api.use` win over the configured (and the scenario's) ones.
      const h = op ? handlerFor(all, op.type, op.name) : undefined;
      if (h && op) return answerWith(h, inputOf(request, op, ctx.request));
    }
    const { derived, data } = await service.current();
    let prepared;
    try {
      prepared = service.prepare(derived.schema, request);
    } catch (err) {
      if (err instanceof DocumentError) {
        // GraphQL over HTTP: 400 for clients that accept application/graphql-response+json; the
        // legacy application/json answer is a 200 (as json-graphql-server and most servers give).
        const modern = /application\/graphql-response\+json/i.test(ctx.request.headers.get('accept') ?? '');
        return FastResponse.json(JSON.stringify({ errors: err.errors }), modern ? 400 : 200, modern ? { 'Content-Type': 'application/graphql-response+json; charset=utf-8' } : undefined);
      }
      throw err;
    }
    const kind = prepared.operation?.operation ?? 'query';
    if (kind === 'subscription') throw new HttpError(400, 'Subscriptions run over WebSocket (graphql-transport-ws) at this path');
    if (kind === 'mutation' && ctx.method === 'GET') throw new HttpError(405, 'Mutations must be sent with POST', { headers: { Allow: 'POST' } });
    return FastResponse.json(await service.answer(request, prepared, derived, data), 200);
  }

  return {
    name: NAME,
    // Schema-first: its entity types, for the devtools' Data tab (types-view.ts, registered by layers.ts).
    ...(schemaFirst ? { schemaFirstTypes: schemaFirst.types } : {}),
    // The data's shape at start: the schema keeps it (and only grows) while the server runs.
    ready: service.learn?.().catch(() => undefined),
    peek(ctx) {
      return ctx.subPath === options.path ? undefined : PASS;
    },
    handle(ctx) {
      return ctx.subPath === options.path ? answer(ctx) : undefined;
    },
    upgrade(ctx): UpgradeResult {
      if (ctx.subPath !== options.path) return undefined;
      const http = ctx.request;
      return withMessageLimit((peer) => graphqlWsSession(peer, service, (request) => services.logger.debug(`graphql-ws ${operationLabel(request)}`), (request) => ownAnswers(request, http)), 1024 * 1024);
    },
  };
}
