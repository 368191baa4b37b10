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
import type { GraphqlAnswer, GraphqlOperationHandler, GraphqlResolver, GraphqlResolverInput, GraphqlSubscriptionResolver } from '../types.js';
import { kGraphqlOperation } from '../operation-symbol.js';

export type { GraphqlAnswer, GraphqlOperationHandler, GraphqlOperationType, GraphqlResolver, GraphqlResolverInput, GraphqlSubscriptionResolver } from '../types.js';

export function isGraphqlHandler(value: unknown): value is GraphqlOperationHandler {
  return value !== null && typeof value === 'object' && (value as Record<symbol, unknown>)[kGraphqlOperation] === true;
}

function handler(operationType: GraphqlOperationHandler['operationType'], operationName: string | RegExp, resolve: GraphqlResolver | GraphqlSubscriptionResolver): GraphqlOperationHandler {
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
  /**
   * A subscription over WebSocket (`graphql-transport-ws`): the resolver gives the events, e.g.
   * `async function* ({ variables }) { yield { data: { onTick: { n: 1 } } }; }` (see
   * GraphqlSubscriptionResolver). An SDL's `type Subscription` fields are fed this way.
   */
  subscription: (operationName: string | RegExp, resolve: GraphqlSubscriptionResolver) => handler('subscription', operationName, resolve),
};

/** The first handler for an operation, or undefined. */
export function handlerFor(handlers: readonly GraphqlOperationHandler[], type: string, name: string | undefined): GraphqlOperationHandler | undefined {
  for (const h of handlers) {
    if (h.disabled === true) continue;
    if (h.operationType === '*' ? type === 'subscription' : h.operationType !== type) continue;
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

/** A resolver's answer as the body to send: `{ errors?, data?, extensions? }`, or the error saying it gave none. */
function bodyOf(out: unknown, input: GraphqlResolverInput): GraphqlAnswer {
  if (out === null || typeof out !== 'object' || Array.isArray(out) || !('data' in out || 'errors' in out)) {
    return { errors: [{ message: `The GraphQL handler for ${input.operationType} ${input.operationName || '(anonymous)'} answered no { data, errors }`, extensions: { code: 'INTERNAL_SERVER_ERROR' } }], data: null };
  }
  const answer = out as GraphqlAnswer;
  const body: GraphqlAnswer = {};
  if (answer.errors !== undefined) body.errors = answer.errors;
  if (answer.data !== undefined) body.data = answer.data;
  if (answer.extensions !== undefined) body.extensions = answer.extensions;
  return body;
}

/** Runs a query or mutation handler: its answer as the HTTP response (200 `{ data?, errors? }`, or its own Response). */
export async function answerWith(h: GraphqlOperationHandler, input: GraphqlResolverInput): Promise<Response> {
  let out: GraphqlAnswer | Response;
  try {
    out = await (h.resolve as GraphqlResolver)(input);
  } catch (err) {
    return FastResponse.json(JSON.stringify({ errors: [errorOf(err)], data: null }), 200);
  }
  if (out instanceof Response) return out;
  return FastResponse.json(JSON.stringify(bodyOf(out, input)), 200);
}

/**
 * Runs a subscription handler: its events as answers to send one by one. A throw (at the start
 * or between events) is one last `{ errors }` answer; closing this iterator closes the handler's.
 */
export async function* eventsOf(h: GraphqlOperationHandler, input: GraphqlResolverInput): AsyncGenerator<GraphqlAnswer> {
  let events: AsyncIterable<GraphqlAnswer>;
  try {
    events = await (h.resolve as GraphqlSubscriptionResolver)(input);
    if (events === null || typeof events !== 'object' || !(Symbol.asyncIterator in events)) {
      throw new Error(`The GraphQL handler for subscription ${input.operationName || '(anonymous)'} gave no async iterable (an async generator function: async function* () { yield { data } })`);
    }
  } catch (err) {
    yield { errors: [errorOf(err)] };
    return;
  }
  try {
    for await (const event of events) yield bodyOf(event, input);
  } catch (err) {
    yield { errors: [errorOf(err)] };
  }
}
