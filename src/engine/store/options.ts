/**
 * The `store` option (`mock.store`): how the collection store names relations.
 *
 *   store: { relations: 'both' | 'json-server' | 'json-graphql-server' | 'none' | { <collection>: { <field>: '<parent collection>' } },
 *            foreignKeySuffix: '_id' }   (json-server 0.17's `--fks`: `<name><suffix>` names a relation)
 *
 * Declared relations come on top of the default convention (both `<name>Id` and `<name>_id`).
 */
import { check, OptionsError } from '../../core/options.js';
import type { DeclaredRelations, RelationNaming } from '../store-contract/contract.js';

export interface StoreOptions {
  relations?: RelationNaming['convention'] | DeclaredRelations;
  foreignKeySuffix?: string;
}

const CONVENTIONS = ['both', 'json-server', 'json-graphql-server', 'none'] as const;

export function resolveStoreOptions(value: unknown, option: string): RelationNaming {
  if (value === undefined || value === null) return { convention: 'both', declared: {} };
  if (typeof value !== 'object' || Array.isArray(value)) throw new OptionsError(option, 'must be an object ({ relations, foreignKeySuffix })');
  const rel = (value as StoreOptions).relations;
  check.knownKeys(value as Record<string, unknown>, option, ['relations', 'foreignKeySuffix']);
  const suffix = check.string((value as StoreOptions).foreignKeySuffix, `${option}.foreignKeySuffix`, undefined, { nonEmpty: true });
  const withSuffix = (naming: RelationNaming): RelationNaming => (suffix === undefined ? naming : { ...naming, suffix });
  if (rel === undefined || typeof rel === 'string') {
    return withSuffix({ convention: check.oneOf(rel, `${option}.relations`, CONVENTIONS, 'both'), declared: {} });
  }
  if (rel === null || typeof rel !== 'object' || Array.isArray(rel)) throw new OptionsError(`${option}.relations`, `must be one of ${CONVENTIONS.join(', ')} or an object { collection: { field: parentCollection } }`);
  const declared: Record<string, Record<string, string>> = {};
  for (const [collection, fields] of Object.entries(rel)) {
    if (fields === null || typeof fields !== 'object' || Array.isArray(fields)) throw new OptionsError(`${option}.relations.${collection}`, 'must be an object { field: parentCollection }');
    declared[collection] = {};
    for (const [field, parent] of Object.entries(fields as Record<string, unknown>)) {
      declared[collection]![field] = check.string(parent, `${option}.relations.${collection}.${field}`, undefined, { nonEmpty: true })!;
    }
  }
  return withSuffix({ convention: 'both', declared });
}
