/**
 * The `collections` option (`mock.collections`): JSON arrays served as json-server collections by
 * the collections layer (layer.ts). `true` | `{ idField }` (default `'id'`) | `false`/`null`;
 * unset: on with `preset: 'json-server'`, else off.
 */
import { check } from '../../core/options.js';

/** What users write (`mock.collections`). */
export type CollectionsOption = boolean | { idField?: string };

export function resolveCollections(value: unknown, name: string, preset: boolean): { idField: string } | null {
  if (value === undefined) return preset ? { idField: 'id' } : null;
  if (value === false || value === null) return null;
  if (value === true) return { idField: 'id' };
  const c = check.object(value, name) ?? {};
  check.knownKeys(c, name, ['idField']);
  return { idField: check.string(c.idField, `${name}.idField`, 'id', { nonEmpty: true })! };
}
