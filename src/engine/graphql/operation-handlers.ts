/**
 * GraphQL handlers: answers by operation name for what the data cannot express, in msw's shape.
 *
 *   handlers: [
 *     graphql.query('GetUser', ({ variables }) => ({ data: { user: { id: variables.id, name: 'Ada' } } })),
 *     graphql.mutation('Login', () => { throw new HttpError(401, 'Wrong password') }),
 *   ]
 *
 * They sit in the mock API's `handlers` list (and a scenario's), so scenarios apply to them like
 * to REST handlers; the GraphQL layer asks them first, by operation type and name, and a match
 * wins over the schema derived from the data (the document is not validated against it: the
 * operation may name types the data has none of). A resolver answers `{ data?, errors? }` (or a
 * Response, for full control); a thrown HttpError is `{ errors: [{ message, extensions: { code } }] }`
 * with the error's code (401 → UNAUTHORIZED), anything else thrown is INTERNAL_SERVER_ERROR.
 */
import { HttpError } from '../../core/errors.js';
import { FastResponse } from '../../core/fast-response.js';
import type { GraphqlAnswer, GraphqlOperationHandler, GraphqlResolver, GraphqlResolverInput } from '../types.js';
import { kGraphqlOperation } from './operation-symbol.js';

export { kGraphqlOperation } from './operation-symbol.js';
export type { GraphqlAnswer, GraphqlOperationHandler, GraphqlOperationType, GraphqlResolver, GraphqlResolverInput } from '../types.js';

export function isGraphqlHandler(value: unknown): value is GraphqlOperationHandler {
  return value !== null && typeof value === 'object' && (value as Record<symbol, unknown>)[kGraphqlOperation] === true;
}

function handler(operationType: GraphqlOperationHandler['operationType'], operationName: string | RegExp, resolve: GraphqlResolver): GraphqlOperationHandler {
  if (typeof operationName !== 'string' && !(operationName instanceof RegExp)) throw new TypeError('mockyard: graphql handlers need an operation name (a string or a RegExp)');
  if (typeof resolve !== 'function') throw new TypeError(`mockyard: the graphql handler for ${String(operationName)} needs a resolver function`);
  return { [kGraphqlOperation]: true, operationType, operationName, resolve };
}

/** Builders of GraphQL handlers (msw's `graphql.query` / `graphql.mutation` / `graphql.operation`). */
export const graphql = {
  query: (operationName: string | RegExp, resolve: GraphqlResolver) => handler('query', operationName, resolve),
  mutation: (operationName: string | RegExp, resolve: GraphqlResolver) => handler('mutation', operationName, resolve),
  /** Any query or mutation (msw's `graphql.operation`). */
  operation: (resolve: GraphqlResolver) => handler('*', '*', resolve),
};

/** The first handler for an operation, or undefined. */
export function handlerFor(handlers: readonly GraphqlOperationHandler[], type: string, name: string | undefined): GraphqlOperationHandler | undefined {
  for (const h of handlers) {
    if (h.disabled === true) continue;
    if (h.operationType !== '*' && h.operationType !== type) continue;
    const n = h.operationName;
    if (n === '*' || (name !== undefined && (typeof n === 'string' ? n === name : n.test(name)))) return h;
  }
  return undefined;
}

function errorOf(err: unknown): NonNullable<GraphqlAnswer['errors']>[number] {
  if (err instanceof HttpError) return { message: err.expose ? err.message : 'Internal Server Error', extensions: { code: err.code, ...(err.details ?? {}) } };
  const e = err as { message?: unknown; extensions?: Record<string, unknown> } | null;
  const message = typeof e?.message === 'string' ? e.message : String(err);
  return { message, extensions: { code: 'INTERNAL_SERVER_ERROR', ...(e?.extensions ?? {}) } };
}

/** Runs a handler: its answer as the HTTP response (200 `{ data?, errors? }`, or its own Response). */
export async function answerWith(h: GraphqlOperationHandler, input: GraphqlResolverInput): Promise<Response> {
  let out: GraphqlAnswer | Response;
  try {
    out = await h.resolve(input);
  } catch (err) {
    return FastResponse.json(JSON.stringify({ errors: [errorOf(err)], data: null }), 200);
  }
  if (out instanceof Response) return out;
  if (out === null || typeof out !== 'object' || Array.isArray(out) || !('data' in out || 'errors' in out)) {
    return FastResponse.json(JSON.stringify({ errors: [{ message: `The GraphQL handler for ${input.operationType} ${input.operationName || '(anonymous)'} answered no { data, errors }`, extensions: { code: 'INTERNAL_SERVER_ERROR' } }], data: null }), 200);
  }
  const body: GraphqlAnswer = {};
  if (out.errors !== undefined) body.errors = out.errors;
  if (out.data !== undefined) body.data = out.data;
  if (out.extensions !== undefined) body.extensions = out.extensions;
  return FastResponse.json(JSON.stringify(body), 200);
}
