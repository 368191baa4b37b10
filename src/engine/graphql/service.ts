/**
 * Runs GraphQL documents against the schema derived from the collections (schema.ts): the
 * current schema (rebuilt only when the shape of the data changed), parsed and validated
 * documents kept per schema (a client asks the same few documents again and again), execution
 * over one request's view of the data, and errors in the spec's shape with `extensions.code`.
 */
import {
  execute, GraphQLError, Lexer, parse, Source, subscribe, TokenKind, validate, ValuesOfCorrectTypeRule, type DocumentNode,
  type ExecutionResult, type GraphQLFormattedError, type GraphQLSchema, type OperationDefinitionNode,
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
  const documents = new DocumentCache();
  /** Answers of queries over `lastArrays` (emptied when any collection changes). */
  let answers = new Map<string, string>();
  let answerBytes = 0;
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
      if (last !== undefined && lastArrays !== undefined && sameArrays(lastArrays, arrays)) return { derived: last, data: new RequestData(store, arrays) };
      answers = new Map();
      answerBytes = 0;
      const { signature, collections, relations } = signatureOf(store, arrays);
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
      return Promise.resolve(execute({ schema: derived.schema, document: prepared.document, contextValue: data, variableValues: request.variables ?? undefined, operationName: request.operationName ?? undefined }));
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

function sameArrays(a: ReadonlyMap<string, readonly Item[]>, b: ReadonlyMap<string, readonly Item[]>): boolean {
  if (a.size !== b.size) return false;
  for (const [k, v] of a) if (b.get(k) !== v) return false;
  return true;
}

const MAX_SHAPES = 500;
const LITERAL_RULES = [ValuesOfCorrectTypeRule];
const LITERALS = new Set<string>([TokenKind.INT, TokenKind.FLOAT, TokenKind.STRING, TokenKind.BLOCK_STRING]);

/**
 * Documents parsed and validated for one schema, by operation name and text (at most
 * MAX_DOCUMENTS, oldest dropped), with the shapes that passed validation; cleared when the
 * schema changes.
 */
export class DocumentCache {
  private documents = new Map<string, Prepared | DocumentError>();
  private shapes = new Set<string>();

  /** The prepared document; throws its DocumentError. */
  prepare(schema: GraphQLSchema, request: GraphqlRequest): Prepared {
    const key = `${request.operationName ?? ''}\u0000${request.query}`;
    let hit = this.documents.get(key);
    if (hit === undefined) {
      hit = prepareDocument(schema, request, this.shapes);
      if (this.documents.size >= MAX_DOCUMENTS) this.documents.delete(this.documents.keys().next().value!);
      this.documents.set(key, hit);
    }
    if (hit instanceof DocumentError) throw hit;
    return hit;
  }

  clear(): void {
    this.documents = new Map();
    this.shapes = new Set();
  }
}

/**
 * A document's shape: its tokens with number and string literals left out. Documents that
 * differ only in such literals (a list view asking page 3, then page 4) pass or fail every
 * validation rule alike except the one about literal values, so once a shape has passed, later
 * documents of that shape are checked with that rule alone (full validation costs more than
 * running the query). Undefined when the text does not tokenize (parse reports it).
 */
function shapeOf(query: string): string | undefined {
  try {
    const lexer = new Lexer(new Source(query));
    let out = '';
    for (let t = lexer.advance(); t.kind !== TokenKind.EOF; t = lexer.advance()) out += LITERALS.has(t.kind) ? '\u0001 ' : `${t.value ?? t.kind} `;
    return out;
  } catch {
    return undefined;
  }
}

export function prepareDocument(schema: GraphQLSchema, request: GraphqlRequest, shapes: Set<string>): Prepared | DocumentError {
  let document: DocumentNode;
  try {
    document = parse(request.query);
  } catch (err) {
    return new DocumentError([formatError(err as GraphQLError, 'GRAPHQL_PARSE_FAILED')]);
  }
  const shape = shapeOf(request.query);
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
