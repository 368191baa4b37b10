/**
 * One operation's schema made self-contained for Ajv: a copy of it whose `$ref`s point into its
 * own `$defs` (`definitions` for draft-07), each referenced schema copied once, so a recursive
 * schema is a `$ref` loop Ajv handles and nothing else of the document is compiled. The copy is
 * also where the document's dialect is adapted:
 *   - OpenAPI 3.0 `nullable: true` becomes a type union (`["string","null"]`, `null` added to an
 *     `enum`); `nullable` without a `type` is dropped (Ajv refuses it, the writers meant "null
 *     too");
 *   - Swagger 2 `type: file` is dropped (no JSON type);
 *   - `x-…` extensions and `discriminator` are left out (annotations for Ajv).
 */
import type { Deref } from '../openapi-document/refs.js';
import { isObj } from '../../core/json-object.js';

export type { Deref };

type Obj = Record<string, unknown>;

export function bundleSchema(schema: unknown, deref: Deref, v31: boolean): Obj {
  const defsKey = v31 ? '$defs' : 'definitions';
  const defs: Obj = {};
  const names = new Map<string, string>();

  const copy = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(copy);
    if (!isObj(node)) return node;
    if (typeof node.$ref === 'string') {
      const ref = node.$ref;
      let name = names.get(ref);
      if (name === undefined) {
        name = `s${names.size}`;
        names.set(ref, name);
        defs[name] = {};
        const target = deref({ $ref: ref });
        defs[name] = copy(target);
      }
      return { $ref: `#/${defsKey}/${name}` };
    }
    const out: Obj = {};
    for (const [k, v] of Object.entries(node)) {
      if (k.startsWith('x-') || k === 'discriminator' || k === 'nullable' || k === 'example') continue;
      // Keywords whose values are schemas (or maps/lists of them) are copied as schemas; others as data.
      out[k] = SCHEMA_VALUED.has(k) ? copySchemaValue(k, v) : v;
    }
    if (out.type === 'file') delete out.type;
    if (node.nullable === true && !v31) {
      if (typeof out.type === 'string') out.type = [out.type, 'null'];
      else if (Array.isArray(out.type) && !out.type.includes('null')) out.type = [...out.type, 'null'];
      if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
    }
    return out;
  };

  const copySchemaValue = (k: string, v: unknown): unknown => {
    if (MAP_OF_SCHEMAS.has(k)) {
      if (!isObj(v)) return v;
      const m: Obj = {};
      for (const [name, s] of Object.entries(v)) m[name] = copy(s);
      return m;
    }
    return copy(v);
  };

  const root = copy(schema);
  return { allOf: [root], [defsKey]: defs };
}

const MAP_OF_SCHEMAS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);
const SCHEMA_VALUED = new Set([
  ...MAP_OF_SCHEMAS,
  'items', 'prefixItems', 'additionalItems', 'additionalProperties', 'unevaluatedProperties', 'unevaluatedItems',
  'allOf', 'anyOf', 'oneOf', 'not', 'if', 'then', 'else', 'contains', 'propertyNames',
]);
