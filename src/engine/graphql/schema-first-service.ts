/**
 * The GraphQL service of a schema-first API (schema-first.ts): the SDL read through the Vfs
 * (again when its file changes), documents parsed and validated once per schema, and every
 * operation executed with the generated, stateful resolvers. The same contract as the service
 * over the collections (service.ts), so the layer, GraphQL handlers and subscriptions over
 * WebSocket work alike.
 */
import { execute, GraphQLError, subscribe, type ExecutionResult, type GraphQLFieldResolver, type GraphQLSchema } from 'graphql';
import { HttpError } from '../../core/errors.js';
import { joinSafe } from '../../vfs/path.js';
import type { Vfs } from '../../vfs/types.js';
import type { CollectionStore } from '../store/store.js';
import { RequestData } from './schema.js';
import { SchemaFirstState, type SchemaFirst } from './schema-first.js';
import { loadFaker } from '../schema-faker/faker.js';
import type { Faker } from '@faker-js/faker';
import { DocumentCache, formatResult, type GraphqlService } from './service.js';
import type { SchemaFirstTypes } from './types-view.js';

export interface SchemaSource {
  /** The SDL text and a version that changes when it does. */
  read(): Promise<{ text: string; version: string }>;
  /** How the schema is named in errors (`schema.graphql`). */
  readonly label: string;
}

/** `schema`: SDL text itself (it holds a `{`), or a file of the mocks folder. */
export function schemaSource(schema: string, vfs: Vfs | null, fsDir: string | null): SchemaSource {
  if (schema.includes('{')) return { label: 'the graphql.schema option', read: async () => ({ text: schema, version: 'inline' }) };
  return {
    label: schema,
    async read() {
      if (!vfs || fsDir === null) throw new HttpError(500, `graphql.schema ${schema} needs the mocks folder (file routing is off)`);
      const path = joinSafe(fsDir, schema);
      const stat = await vfs.stat(path).catch(() => null);
      if (!stat || stat.kind !== 'file') throw new HttpError(500, `graphql.schema: ${schema} was not found in the mocks folder`);
      return { version: `${stat.size}:${stat.mtimeMs}:${stat.ino ?? ''}`, text: new TextDecoder().decode(await vfs.read(path)) };
    },
  };
}

/**
 * An SDL's subscription fields have no data behind them: handlers feed them
 * (`graphql.subscription`, answered before the schema). Without one, the error says so.
 */
const unfedSubscription: GraphQLFieldResolver<unknown, unknown> = (_source, _args, _context, info) => {
  const name = info.operation.name?.value;
  const how = name ? `graphql.subscription('${name}', async function* () { yield { data: { ${info.fieldName}: … } }; })` : 'a named subscription and a graphql.subscription handler for it';
  throw new GraphQLError(`No handler feeds the subscription field ${info.fieldName}: add ${how} to the handlers`, { extensions: { code: 'NOT_IMPLEMENTED' } });
};

export function createSchemaFirstService(source: SchemaSource, store: CollectionStore): GraphqlService & { types: SchemaFirstTypes } {
  const state = new SchemaFirstState();
  let faker: Faker | undefined;
  let built: { version: string; api: SchemaFirst } | undefined;
  const documents = new DocumentCache();
  const data = new RequestData(store, new Map());
  const run = (schema: GraphQLSchema) => built?.api.schema === schema ? built.api : undefined;

  const service = {
    async current() {
      const { text, version } = await source.read();
      if (built === undefined || built.version !== version) {
        faker ??= await loadFaker();
        built = { version, api: state.build(text, source.label, faker) };
        documents.clear();
      }
      return { derived: { schema: built.api.schema }, data };
    },
    prepare(schema, request) {
      return documents.prepare(schema, request);
    },
    async execute(request, prepared, derived) {
      const api = run(derived.schema);
      return execute({ schema: derived.schema, document: prepared.document, variableValues: request.variables ?? undefined, operationName: request.operationName ?? undefined, fieldResolver: api?.fieldResolver, typeResolver: api?.typeResolver }) as ExecutionResult;
    },
    async answer(request, prepared, derived, d) {
      return JSON.stringify(formatResult(await this.execute(request, prepared, derived, d)));
    },
    subscribe(request, prepared, derived) {
      const api = run(derived.schema);
      return subscribe({ schema: derived.schema, document: prepared.document, variableValues: request.variables ?? undefined, operationName: request.operationName ?? undefined, fieldResolver: api?.fieldResolver, typeResolver: api?.typeResolver, subscribeFieldResolver: unfedSubscription }) as Promise<AsyncIterableIterator<ExecutionResult> | ExecutionResult>;
    },
  } satisfies GraphqlService;
  return {
    ...service,
    // The devtools' Data tab (types-view.ts): the schema as it is now, over the same state.
    types: {
      async list() {
        await service.current();
        return built!.api.types();
      },
      resetAll: () => state.resetAll(),
    },
  };
}
