/**
 * The TypeScript declarations of a data model (data-model.ts): one exported type per collection
 * (its items) and per singular object, relation fields typed as the related item's id
 * (`userId: User['id']`), and the maps the mock API's generic parameter takes
 * (`RouteHandler` in src/engine/types.ts, src/engine/store-contract/typed-store.ts): `Collections`, `Objects`, `Routes` and `Api`.
 */
import type { DataModel } from './data-model.js';
import { declarationComment, schemaType, type SchemaTypeContext } from './schema-types.js';
import { propertyKey } from './type-names.js';
import { isObj } from '../core/json-object.js';

type Obj = Record<string, unknown>;

/** `export interface Name {…}` for object types, else `export type Name = …;`. */
export function declaration(name: string, type: string, schema?: unknown): string {
  return `${declarationComment(schema)}${isObjectLiteral(type) ? `export interface ${name} ${type}` : `export type ${name} = ${type};`}\n`;
}

/** Whether `type` is one `{ … }` (not `{ … } | null`, not an intersection). */
function isObjectLiteral(type: string): boolean {
  if (!type.startsWith('{\n') || !type.endsWith('}')) return false;
  let depth = 0;
  for (let i = 0; i < type.length; i++) {
    const ch = type[i];
    if (ch === '/' && type[i + 1] === '*') i = type.indexOf('*/', i + 2) + 1 || type.length;
    else if (ch === '"' || ch === "'") {
      for (i++; i < type.length && type[i] !== ch; i++) if (type[i] === '\\') i++;
    } else if (ch === '{') depth++;
    else if (ch === '}' && --depth === 0 && i !== type.length - 1) return false;
  }
  return true;
}

const allowsNull = (schema: unknown): boolean => isObj(schema) && (schema.type === 'null' || (Array.isArray(schema.type) && schema.type.includes('null')) || (Array.isArray(schema.anyOf) && schema.anyOf.some(allowsNull)));

export function dataTypes(model: DataModel, source: string): string {
  const out: string[] = [`// Types of ${source}, written by \`mockyard export\` (docs/contract.md). Do not edit: run it again.\n`];
  const byName = new Map(model.collections.map((c) => [c.name, c]));
  const hasId = (name: string) => {
    const props = byName.get(name)?.schema.properties;
    return isObj(props) && model.idField in props;
  };
  for (const c of model.collections) {
    const ctx: SchemaTypeContext = {
      refName: () => undefined,
      deref: (n) => n,
      propertyType: (owner, key, schema) => {
        const parent = owner === c.schema ? c.relations.get(key) : undefined;
        if (parent === undefined || !hasId(parent)) return undefined;
        const id = `${byName.get(parent)!.typeName}[${JSON.stringify(model.idField)}]`;
        return allowsNull(schema) ? `${id} | null` : id;
      },
    };
    const type = isObj(c.schema.properties) ? schemaType(c.schema, ctx) : '{\n  [key: string]: unknown;\n}';
    out.push(declaration(c.typeName, type));
  }
  const plain: SchemaTypeContext = { refName: () => undefined, deref: (n) => n };
  for (const o of model.objects) out.push(declaration(o.typeName, schemaType(o.schema, plain)));

  const id = JSON.stringify(model.idField);
  out.push(`/** The collections: name → item type (\`req.app.store.all('name')\`). */\nexport interface Collections {\n${model.collections.map((c) => `  ${propertyKey(c.name)}: ${c.typeName};\n`).join('')}}\n`);
  out.push(`/** The singular objects: name → type. */\nexport interface Objects {\n${model.objects.map((o) => `  ${propertyKey(o.name)}: ${o.typeName};\n`).join('')}}\n`);
  const routes: string[] = [];
  const route = (key: string, spec: string) => routes.push(`  ${JSON.stringify(key)}: { ${spec} };\n`);
  for (const c of model.collections) {
    const t = c.typeName;
    const created = hasId(c.name) ? `Omit<${t}, ${id}> & { ${propertyKey(model.idField)}?: ${t}[${id}] }` : t;
    route(`GET /${c.name}`, `response: ${t}[]`);
    route(`POST /${c.name}`, `body: ${created}; response: ${t}`);
    route(`GET /${c.name}/:id`, `response: ${t}`);
    route(`PUT /${c.name}/:id`, `body: ${created}; response: ${t}`);
    route(`PATCH /${c.name}/:id`, `body: Partial<${t}>; response: ${t}`);
    route(`DELETE /${c.name}/:id`, `response: ${t}`);
  }
  for (const o of model.objects) {
    route(`GET /${o.name}`, `response: ${o.typeName}`);
    route(`PUT /${o.name}`, `body: ${o.typeName}; response: ${o.typeName}`);
    route(`PATCH /${o.name}`, `body: Partial<${o.typeName}>; response: ${o.typeName}`);
  }
  out.push(`/** The routes below the mock API's prefix: 'METHOD /pattern' → request body and answer. */\nexport interface Routes {\n${routes.join('')}}\n`);
  out.push('/** The generic parameter of createMockApi<Api>() / defineConfig<Api>() (docs/contract.md). */\nexport interface Api {\n  collections: Collections;\n  objects: Objects;\n  routes: Routes;\n}\n');
  return out.join('\n');
}
