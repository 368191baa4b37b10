/**
 * Runs GraphQL documents against the schema derived from the collections (schema.ts): the
 * current schema (rebuilt only when the shape of the data changed), parsed and validated
 * documents kept per schema (a client asks the same few documents again and again), execution
 * over one request's view of the data, and errors in the spec's shape with `extensions.code`.
 */
import {
  execute, GraphQLError, parse, subscribe, validate, ValuesOfCorrectTypeRule, type DocumentNode,
  type ExecutionResult, type GraphQLFormattedError, type GraphQLSchema, type OperationDefinitionNode,
} from 'graphql';
import { buildTemplate, hoistedValues, tokenize, type Template } from './literal-template.js';
import { HttpError } from '../../core/errors.js';
import type { CollectionStore, Item, StoreChange } from '../store/store.js';
import { deriveSchema, RequestData, sameArrays, signatureOf, type ChangeStreams, type DerivedSchema, type SeenShapes } from './schema.js';
import { changeStream } from './change-stream.js';

export interface GraphqlRequest {
  readonly query: string;
  readonly variables?: Record<string, unknown> | null;
  readonly operationName?: string | null;
}

export interface Prepared {
  readonly document: DocumentNode;
  readonly operation: OperationDefinitionNode | undefined;
  /**
   * A document of a known shape (literal-template.ts): its literals' values, as the variables
   * of the shape's template (`document`); `exact()` prepares the document itself, for a result
   * with errors (their locations are the text's own).
   */
  readonly hoisted?: { readonly values: Readonly<Record<string, unknown>>; exact(): Prepared };
}

/** The variables to run a prepared document with: the request's, and the hoisted literals' values. */
export function variablesOf(prepared: Prepared, request: GraphqlRequest): Record<string, unknown> | undefined {
  return prepared.hoisted ? { ...request.variables, ...prepared.hoisted.values } : request.variables ?? undefined;
}

/** Runs `prepared` with `run`; a hoisted document whose result has errors runs again as itself. */
export async function runPrepared(prepared: Prepared, request: GraphqlRequest, run: (p: Prepared, variables: Record<string, unknown> | undefined) => ExecutionResult | Promise<ExecutionResult>): Promise<ExecutionResult> {
  const result = await run(prepared, variablesOf(prepared, request));
  if (prepared.hoisted === undefined || result.errors === undefined || result.errors.length === 0) return result;
  const exact = prepared.hoisted.exact();
  return run(exact, request.variables ?? undefined);
}

/** A document that cannot run (syntax, validation, unknown operation): the answer's errors. */
export class DocumentError extends Error {
  constructor(readonly errors: readonly GraphQLFormattedError[]) {
    super(errors[0]?.message ?? 'Invalid GraphQL document');
  }
}

export const MAX_DOCUMENTS = 200;
/** Query answers kept (count, largest, total characters). */
const MAX_ANSWERS = 64;
const MAX_ANSWER_CHARS = 1 << 20;
const MAX_ANSWER_TOTAL = 8 << 20;

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
  /** Reads the data's shape now (the engine's start-up): what the schema keeps from then on. */
  learn?(): Promise<void>;
  /** The schema for the data as it is now, and the request's view of the data. */
  current(): Promise<{ derived: Pick<DerivedSchema, 'schema'>; data: RequestData }>;
  /** Parses and validates (memoised per schema); throws DocumentError. */
  prepare(schema: GraphQLSchema, request: GraphqlRequest): Prepared;
  execute(request: GraphqlRequest, prepared: Prepared, derived: Pick<DerivedSchema, 'schema'>, data: RequestData): Promise<ExecutionResult>;
  /**
   * The answer's JSON text. A query's answer is a function of the document, the variables and
   * the data, so while the collections stay the same arrays (no write since), the same query
   * is answered from the last answer (a list view polling, a page reloaded); mutations run.
   */
  answer(request: GraphqlRequest, prepared: Prepared, derived: Pick<DerivedSchema, 'schema'>, data: RequestData): Promise<string>;
  subscribe(request: GraphqlRequest, prepared: Prepared, derived: Pick<DerivedSchema, 'schema'>, data: RequestData): Promise<AsyncIterableIterator<ExecutionResult> | ExecutionResult>;
}

export function createGraphqlService(store: CollectionStore): GraphqlService {
  let last: DerivedSchema | undefined;
  /** The arrays the last schema was checked against: the same arrays, the same schema. */
  let lastArrays: Map<string, readonly Item[]> | undefined;
  /** Every collection and field seen since start (`learn()` at start, then each new set of arrays): the schema only grows. */
  const seen: SeenShapes = new Map();
  const documents = new DocumentCache(true);
  /** Answers of queries over `lastArrays` (emptied when any collection changes). */
  let answers = new Map<string, string>();
  let answerBytes = 0;
  const streams: ChangeStreams = {
    changes: (collection: string, type: StoreChange['type']) => changeStream(store, collection, type),
  };

  return {
    async learn() {
      await this.current();
    },

    async current() {
      const arrays = new Map<string, readonly Item[]>();
      for (const name of await store.names()) {
        const items = await store.all(name);
        if (items) arrays.set(name, items);
      }
      if (last !== undefined && lastArrays !== undefined && sameArrays(lastArrays, arrays)) return { derived: last, data: new RequestData(store, arrays) };
      answers = new Map();
      answerBytes = 0;
      const { signature, collections, relations } = signatureOf(store, arrays, seen);
      if (last === undefined || last.signature !== signature) {
        last = deriveSchema(store, collections, relations, signature, streams);
        documents.clear();
      }
      lastArrays = new Map(arrays);
      return { derived: last, data: new RequestData(store, arrays) };
    },

    prepare(schema, request) {
      return documents.prepare(schema, request);
    },

    execute(request, prepared, derived, data) {
      return runPrepared(prepared, request, (p, variableValues) => execute({ schema: derived.schema, document: p.document, contextValue: data, variableValues, operationName: request.operationName ?? undefined }));
    },

    async answer(request, prepared, derived, data) {
      const query = prepared.operation?.operation === 'query' && data.unchanged(lastArrays);
      const key = query ? `${request.operationName ?? ''}\u0000${request.query}\u0000${request.variables ? JSON.stringify(request.variables) : ''}` : '';
      if (query) {
        const hit = answers.get(key);
        if (hit !== undefined) return hit;
      }
      const text = JSON.stringify(formatResult(await this.execute(request, prepared, derived, data)));
      if (query && data.unchanged(lastArrays) && text.length <= MAX_ANSWER_CHARS) {
        while (answers.size >= MAX_ANSWERS || (answers.size > 0 && answerBytes + text.length > MAX_ANSWER_TOTAL)) {
          const [oldest, old] = answers.entries().next().value!;
          answers.delete(oldest);
          answerBytes -= old.length;
        }
        answers.set(key, text);
        answerBytes += text.length;
      }
      return text;
    },

    subscribe(request, prepared, derived, data) {
      return subscribe({ schema: derived.schema, document: prepared.document, contextValue: data, variableValues: request.variables ?? undefined, operationName: request.operationName ?? undefined }) as Promise<AsyncIterableIterator<ExecutionResult> | ExecutionResult>;
    },
  };
}

const MAX_SHAPES = 500;
const LITERAL_RULES = [ValuesOfCorrectTypeRule];

/**
 * Documents parsed and validated for one schema, by operation name and text (at most
 * MAX_DOCUMENTS, oldest dropped), with the shapes that passed validation and their templates
 * (literal-template.ts); cleared when the schema changes.
 */
export class DocumentCache {
  private documents = new Map<string, Prepared | DocumentError>();
  private shapes = new Set<string>();
  private templates = new Map<string, Template | null>();

  /**
   * `hoist`: documents of a known shape come from its template (the service over the
   * collections, whose query resolvers only read, so a query run again gives the same answer).
   */
  constructor(private readonly hoist = false) {}

  /** The prepared document; throws its DocumentError. */
  prepare(schema: GraphQLSchema, request: GraphqlRequest): Prepared {
    const key = `${request.operationName ?? ''}\u0000${request.query}`;
    let hit = this.documents.get(key);
    if (hit === undefined) {
      hit = this.fromShape(schema, request);
      if (this.documents.size >= MAX_DOCUMENTS) this.documents.delete(this.documents.keys().next().value!);
      this.documents.set(key, hit);
    }
    if (hit instanceof DocumentError) throw hit;
    return hit;
  }

  /** A new text: from its shape's template when there is one, else parsed and validated. */
  private fromShape(schema: GraphQLSchema, request: GraphqlRequest): Prepared | DocumentError {
    const tokens = tokenize(request.query);
    const exact = () => prepareDocument(schema, request, this.shapes, tokens?.shape);
    if (tokens === undefined || !this.hoist) return exact();
    const shapeKey = `${request.operationName ?? ''}\u0000${tokens.shape}`;
    const template = this.templates.get(shapeKey);
    if (template) {
      const values = hoistedValues(template, tokens.literals);
      if (values !== undefined) {
        return {
          document: template.document,
          operation: template.operation,
          hoisted: {
            values,
            exact: () => {
              const p = exact();
              if (p instanceof DocumentError) throw p;
              return p;
            },
          },
        };
      }
      return exact();
    }
    const prepared = exact();
    if (template === undefined && !(prepared instanceof DocumentError)) {
      // The first valid document of this shape: its template serves the next ones (null: none can).
      if (this.templates.size >= MAX_SHAPES) this.templates.delete(this.templates.keys().next().value!);
      this.templates.set(shapeKey, buildTemplate(schema, prepared.document, tokens.literals) ?? null);
    }
    return prepared;
  }

  clear(): void {
    this.documents = new Map();
    this.shapes = new Set();
    this.templates = new Map();
  }
}

/**
 * Documents that differ only in number and string literals (their shape: tokens with those left
 * out; literal-template.ts) pass or fail every validation rule alike except the one about
 * literal values, so once a shape has passed, later documents of that shape are checked with
 * that rule alone (full validation costs more than running the query).
 */
export function prepareDocument(schema: GraphQLSchema, request: GraphqlRequest, shapes: Set<string>, shape = tokenize(request.query)?.shape): Prepared | DocumentError {
  let document: DocumentNode;
  try {
    document = parse(request.query);
  } catch (err) {
    return new DocumentError([formatError(err as GraphQLError, 'GRAPHQL_PARSE_FAILED')]);
  }
  const known = shape !== undefined && shapes.has(shape);
  const errors = validate(schema, document, known ? LITERAL_RULES : undefined);
  if (!known && shape !== undefined && errors.length === 0) {
    if (shapes.size >= MAX_SHAPES) shapes.delete(shapes.values().next().value!);
    shapes.add(shape);
  }
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
