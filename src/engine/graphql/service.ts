/**
 * Runs GraphQL documents against the schema derived from the collections (schema.ts): the
 * current schema (rebuilt only when the shape of the data changed), parsed and validated
 * documents kept per schema (a client asks the same few documents again and again), execution
 * over one request's view of the data, and errors in the spec's shape with `extensions.code`.
 */
import {
  execute, GraphQLError, parse, subscribe, validate, type DocumentNode, type ExecutionResult, type GraphQLFormattedError,
  type GraphQLSchema, type OperationDefinitionNode,
} from 'graphql';
import { HttpError } from '../../core/errors.js';
import type { CollectionStore, Item, StoreChange } from '../store/store.js';
import { deriveSchema, RequestData, signatureOf, type ChangeStreams, type DerivedSchema } from './schema.js';
import { changeStream } from './change-stream.js';

export interface GraphqlRequest {
  readonly query: string;
  readonly variables?: Record<string, unknown> | null;
  readonly operationName?: string | null;
}

export interface Prepared {
  readonly document: DocumentNode;
  readonly operation: OperationDefinitionNode | undefined;
}

/** A document that cannot run (syntax, validation, unknown operation): the answer's errors. */
export class DocumentError extends Error {
  constructor(readonly errors: readonly GraphQLFormattedError[]) {
    super(errors[0]?.message ?? 'Invalid GraphQL document');
  }
}

const MAX_DOCUMENTS = 200;

function codeOf(error: GraphQLError): string {
  const original = error.originalError;
  if (original instanceof HttpError) return original.code;
  if (original && !(original instanceof GraphQLError)) return 'INTERNAL_SERVER_ERROR';
  return 'BAD_USER_INPUT';
}

/** An error in the spec's shape, with `extensions.code` (HttpError's code for store errors). */
export function formatError(error: GraphQLError, code?: string): GraphQLFormattedError {
  const formatted = error.toJSON();
  const given = (error.extensions as { code?: unknown } | undefined)?.code;
  return { ...formatted, extensions: { ...formatted.extensions, code: typeof given === 'string' ? given : code ?? codeOf(error) } };
}

export function formatResult(result: ExecutionResult): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (result.errors && result.errors.length > 0) out.errors = result.errors.map((e) => formatError(e));
  if ('data' in result) out.data = result.data;
  if (result.extensions) out.extensions = result.extensions;
  return out;
}

export interface GraphqlService {
  /** The schema for the data as it is now. */
  current(): Promise<{ derived: DerivedSchema; data: RequestData }>;
  /** Parses and validates (memoised per schema); throws DocumentError. */
  prepare(schema: GraphQLSchema, request: GraphqlRequest): Prepared;
  execute(request: GraphqlRequest, prepared: Prepared, derived: DerivedSchema, data: RequestData): Promise<ExecutionResult>;
  subscribe(request: GraphqlRequest, prepared: Prepared, derived: DerivedSchema, data: RequestData): Promise<AsyncIterableIterator<ExecutionResult> | ExecutionResult>;
}

export function createGraphqlService(store: CollectionStore): GraphqlService {
  let last: DerivedSchema | undefined;
  let documents = new Map<string, Prepared | DocumentError>();
  const streams: ChangeStreams = {
    changes: (collection: string, type: StoreChange['type']) => changeStream(store, collection, type),
  };

  return {
    async current() {
      const arrays = new Map<string, readonly Item[]>();
      for (const name of await store.names()) {
        const items = await store.all(name);
        if (items) arrays.set(name, items);
      }
      const { signature, collections, relations } = signatureOf(store, arrays);
      if (last === undefined || last.signature !== signature) {
        last = deriveSchema(store, collections, relations, signature, streams);
        documents = new Map();
      }
      return { derived: last, data: new RequestData(store, arrays) };
    },

    prepare(schema, request) {
      const key = `${request.operationName ?? ''}\u0000${request.query}`;
      let hit = documents.get(key);
      if (hit === undefined) {
        hit = prepareDocument(schema, request);
        if (documents.size >= MAX_DOCUMENTS) documents.delete(documents.keys().next().value!);
        documents.set(key, hit);
      }
      if (hit instanceof DocumentError) throw hit;
      return hit;
    },

    execute(request, prepared, derived, data) {
      return Promise.resolve(execute({ schema: derived.schema, document: prepared.document, contextValue: data, variableValues: request.variables ?? undefined, operationName: request.operationName ?? undefined }));
    },

    subscribe(request, prepared, derived, data) {
      return subscribe({ schema: derived.schema, document: prepared.document, contextValue: data, variableValues: request.variables ?? undefined, operationName: request.operationName ?? undefined }) as Promise<AsyncIterableIterator<ExecutionResult> | ExecutionResult>;
    },
  };
}

function prepareDocument(schema: GraphQLSchema, request: GraphqlRequest): Prepared | DocumentError {
  let document: DocumentNode;
  try {
    document = parse(request.query);
  } catch (err) {
    return new DocumentError([formatError(err as GraphQLError, 'GRAPHQL_PARSE_FAILED')]);
  }
  const errors = validate(schema, document);
  if (errors.length > 0) return new DocumentError(errors.map((e) => formatError(e, 'GRAPHQL_VALIDATION_FAILED')));
  const operations = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === 'OperationDefinition');
  const name = request.operationName ?? undefined;
  const operation = name === undefined ? (operations.length === 1 ? operations[0] : undefined) : operations.find((o) => o.name?.value === name);
  if (operation === undefined) {
    const message = name === undefined ? 'Must provide operation name if query contains multiple operations.' : `Unknown operation named "${name}".`;
    return new DocumentError([{ message, extensions: { code: 'BAD_USER_INPUT' } }]);
  }
  return { document, operation };
}
