/**
 * What a db.json (or a folder of mocks) holds, as the contract sees it: its collections (JSON
 * arrays of objects) and its singular objects, each with the schema its values show, and the
 * relation fields the store's rule names (src/engine/store/relations.ts: `userId` → users).
 *
 * The folder's rooms (src/contract/):
 * the contract both ways (no node:*; docs/contract.md): value-shape.ts (JSON values → a
 * schema that says what the data showed), data-model.ts (collections and objects of a
 * db.json or folder, relations by the store's rule), type-names.ts, schema-types.ts
 * (JSON Schema → TypeScript), data-types.ts and document-types.ts (the .d.ts of data
 * and of an OpenAPI document), data-openapi.ts (an OpenAPI 3.1 document of data),
 * learn-har.ts (what recorded traffic adds); the CLI's `export` is src/node/contract-cli.ts
 */
import { findRelations } from '../engine/store/relations.js';
import type { RelationNaming } from '../engine/store-contract/contract.js';
import { collectionTypeName, nameRegistry, pascalCase } from './type-names.js';
import { shapeOf, shapeToSchema, type Schema } from './value-shape.js';

export interface DataCollection {
  /** The collection's name (`todos`, `v1/posts`). */
  name: string;
  /** Its item type's name (`Todo`). */
  typeName: string;
  /** The item schema. */
  schema: Schema;
  /** Relation field → the parent collection. */
  relations: Map<string, string>;
  /** The items (examples). */
  items: readonly Record<string, unknown>[];
}

export interface DataObject {
  name: string;
  typeName: string;
  schema: Schema;
  value: unknown;
}

export interface DataModel {
  idField: string;
  collections: DataCollection[];
  objects: DataObject[];
}

/** Names the generated files use for themselves. */
export const RESERVED_NAMES = ['Api', 'Collections', 'Objects', 'Routes', 'paths', 'components', 'operations', 'ErrorBody', 'NewItem'];

const isItem = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The model of `documents` (top-level name → parsed value, as the store's `documents()` gives them). */
export function dataModel(documents: Record<string, unknown>, naming: RelationNaming, idField = 'id'): DataModel {
  const name = nameRegistry(RESERVED_NAMES);
  const collections: DataCollection[] = [];
  const objects: DataObject[] = [];
  for (const [key, value] of Object.entries(documents)) {
    if (Array.isArray(value) && value.every(isItem)) {
      collections.push({ name: key, typeName: name(collectionTypeName(key)), schema: shapeToSchema(shapeOf(value)), relations: new Map(), items: value });
    } else {
      objects.push({ name: key, typeName: name(pascalCase(key)), schema: shapeToSchema(shapeOf([value])), value });
    }
  }
  const fields = new Map(collections.map((c) => [c.name, Object.keys((c.schema.properties as object | undefined) ?? {})]));
  const byName = new Map(collections.map((c) => [c.name, c]));
  for (const r of findRelations(naming, fields)) byName.get(r.child)!.relations.set(r.field, r.parent);
  return { idField, collections, objects };
}
