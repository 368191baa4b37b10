/**
 * The `graphql` option (`mock.graphql`): GraphQL over the collections.
 *
 *   graphql: true                      at `<prefix>/graphql`
 *   graphql: { path: '/gql' }          at `<prefix>/gql` (a path below the prefix)
 *   graphql: { schema: 'schema.graphql' }   schema-first: the SDL file of the mocks folder (or SDL
 *                                      text) answers with seeded data (schema-first.ts)
 *   graphql: false                     off
 * Default: on with `preset: 'json-server'`, off otherwise.
 */
import { check, OptionsError } from '../../core/options.js';

export type GraphqlOption = boolean | { path?: string; schema?: string };

export interface ResolvedGraphql {
  /** The endpoint below the prefix (`/graphql`). */
  readonly path: string;
  /** Schema-first: an SDL file of the mocks folder, or SDL text; undefined = derived from the collections. */
  readonly schema?: string;
}

export const DEFAULT_GRAPHQL_PATH = '/graphql';

export function resolveGraphqlOptions(value: unknown, option: string, preset: boolean): ResolvedGraphql | null {
  if (value === undefined || value === null) return preset ? { path: DEFAULT_GRAPHQL_PATH } : null;
  if (value === false) return null;
  if (value === true) return { path: DEFAULT_GRAPHQL_PATH };
  if (typeof value !== 'object' || Array.isArray(value)) throw new OptionsError(option, 'must be true, false or { path }');
  check.knownKeys(value as Record<string, unknown>, option, ['path', 'schema']);
  const schema = check.string((value as { schema?: unknown }).schema, `${option}.schema`, undefined, { nonEmpty: true });
  const raw = check.string((value as { path?: unknown }).path, `${option}.path`, DEFAULT_GRAPHQL_PATH, { nonEmpty: true })!;
  const path = `/${raw.replace(/^\/+|\/+$/g, '')}`;
  if (path === '/' || !/^[A-Za-z0-9\-._~/]+$/.test(path) || path.includes('//') || path.split('/').some((s) => s === '.' || s === '..')) throw new OptionsError(`${option}.path`, `must be a path below the prefix such as /graphql (got ${JSON.stringify(raw)})`);
  return schema === undefined ? { path } : { path, schema };
}
