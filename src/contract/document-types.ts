/**
 * The TypeScript declarations of an OpenAPI document (3.0, 3.1, Swagger 2.0: read through the
 * engine's document model, openapi-document/document-loader.ts, which reads Swagger 2.0 as 3.x):
 *
 *   export interface Pet {…}            one type per component schema (`definitions` in 2.0),
 *                                       with its own name; a child of a discriminated base gets
 *                                       its tag as a literal
 *   export interface components {…}     `components['schemas']['Pet']`, as openapi-typescript
 *   export interface paths {…}          per path and method: parameters (path, query, header,
 *                                       cookie), requestBody, responses by status and media type
 *   export interface operations {…}     the same operations by operationId
 *   export interface Routes / Api       what createMockApi<Api>() takes: 'METHOD /template' →
 *                                       the JSON body and the first 2xx JSON answer
 *
 * `readOnly` properties are `readonly` in the schema's type and left out of request bodies;
 * `writeOnly` ones are left out of answers (`Omit<Pet, 'password'>`, named keys of the body's
 * own schema).
 */
import { documentModel } from '../engine/openapi-document/document-loader.js';
import type { MediaContent, Operation } from '../engine/openapi-document/operations.js';
import { declaration } from './data-types.js';
import { RESERVED_NAMES } from './data-model.js';
import { declarationComment, schemaType, type SchemaTypeContext } from './schema-types.js';
import { nameRegistry, pascalCase, propertyKey } from './type-names.js';
import { isObj } from '../core/json-object.js';

type Obj = Record<string, unknown>;

/** The named schemas of a document, by their `$ref` prefix. */
function namedSchemas(doc: Obj): { prefix: string; schemas: Obj } {
  if (doc.swagger !== undefined) return { prefix: '#/definitions/', schemas: isObj(doc.definitions) ? doc.definitions : {} };
  const components = isObj(doc.components) ? doc.components : {};
  return { prefix: '#/components/schemas/', schemas: isObj(components.schemas) ? components.schemas : {} };
}

const identifier = (name: string) => (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : pascalCase(name));

export function documentTypes(doc: Obj, source: string): string {
  const { deref, model } = documentModel(doc);
  const { prefix, schemas } = namedSchemas(doc);
  const name = nameRegistry(RESERVED_NAMES);
  const names = new Map<string, string>();
  for (const key of Object.keys(schemas)) names.set(key, name(identifier(key)));
  const refName = (ref: string) => {
    if (!ref.startsWith(prefix)) return undefined;
    const key = decodeURIComponent(ref.slice(prefix.length).replace(/~1/g, '/').replace(/~0/g, '~'));
    return names.get(key);
  };
  const ctx: SchemaTypeContext = { refName, deref };
  const out: string[] = [`// Types of ${source} (${model.version}), written by \`mockyard export\` (docs/contract.md). Do not edit: run it again.\n`];

  // Discriminated bases: child schema key → [property, tag value].
  const tags = new Map<string, [string, string]>();
  for (const [key, s] of Object.entries(schemas)) {
    const base = deref(s);
    if (!isObj(base) || !isObj(base.discriminator) || typeof base.discriminator.propertyName !== 'string') continue;
    const prop = base.discriminator.propertyName;
    const mapping = isObj(base.discriminator.mapping) ? base.discriminator.mapping : {};
    for (const [childKey, child] of Object.entries(schemas)) {
      const c = deref(child);
      if (!isObj(c) || !Array.isArray(c.allOf) || !c.allOf.some((a) => isObj(a) && a.$ref === `${prefix}${key}`)) continue;
      const value = Object.entries(mapping).find(([, target]) => target === `${prefix}${childKey}` || target === childKey)?.[0] ?? childKey;
      tags.set(childKey, [prop, value]);
    }
  }
  for (const [key, s] of Object.entries(schemas)) {
    let type = schemaType(deref(s), { ...ctx, refName: (ref) => (ref === `${prefix}${key}` && !isObj(deref(s)) ? undefined : refName(ref)) });
    const tag = tags.get(key);
    if (tag) type = `${/[|&]/.test(type) && !type.startsWith('{\n') ? `(${type})` : type} & { ${propertyKey(tag[0])}: ${JSON.stringify(tag[1])} }`;
    out.push(declaration(names.get(key)!, type, deref(s)));
  }
  out.push(`export interface components {\n  schemas: {\n${[...names].map(([key, n]) => `    ${propertyKey(key)}: ${n};\n`).join('')}  };\n}\n`);

  const byPath = new Map<string, Operation[]>();
  for (const op of model.operations) byPath.set(op.template, [...(byPath.get(op.template) ?? []), op]);
  const opType = (op: Operation, indent: string) => operationType(op, ctx, indent);
  out.push(`export interface paths {\n${[...byPath].map(([template, ops]) => `  ${JSON.stringify(template)}: {\n${ops.map((op) => `    ${op.method.toLowerCase()}: ${opType(op, '    ')};\n`).join('')}  };\n`).join('')}}\n`);
  const withIds = model.operations.filter((op) => typeof op.op.operationId === 'string');
  out.push(`export interface operations {\n${withIds.map((op) => `  ${propertyKey(op.op.operationId as string)}: paths[${JSON.stringify(op.template)}][${JSON.stringify(op.method.toLowerCase())}];\n`).join('')}}\n`);

  const routes = model.operations.map((op) => {
    const body = jsonContent(op.body?.contents);
    const success = op.responses.filter((r) => /^2/.test(r.code)).sort((a, b) => a.code.localeCompare(b.code))[0];
    const answer = success ? jsonContent(success.contents) : undefined;
    const parts = [
      ...(body ? [`body: ${contentType(body, ctx, 'readOnly', '  ')}`] : []),
      `response: ${answer ? contentType(answer, ctx, 'writeOnly', '  ') : success ? 'undefined' : 'unknown'}`,
    ];
    return `  ${JSON.stringify(`${op.method} ${op.template}`)}: { ${parts.join('; ')} };\n`;
  });
  out.push(`/** The routes below the document's server path: 'METHOD /template' → JSON request body and first 2xx JSON answer. */\nexport interface Routes {\n${routes.join('')}}\n`);
  out.push('/** The generic parameter of createMockApi<Api>() / defineConfig<Api>() (docs/contract.md). */\nexport interface Api {\n  routes: Routes;\n}\n');
  return out.join('\n');
}

function jsonContent(contents: readonly MediaContent[] | undefined): MediaContent | undefined {
  return contents?.find((c) => /[/+]json\b|^application\/json/i.test(c.type)) ?? contents?.find((c) => c.type === '*/*');
}

/** The properties of `schema` (through `allOf`) flagged `flag`. */
function flagged(schema: unknown, flag: 'readOnly' | 'writeOnly', deref: (n: unknown) => unknown, depth = 0): string[] {
  const s = deref(schema);
  if (!isObj(s) || depth > 8) return [];
  const own = isObj(s.properties) ? Object.entries(s.properties).filter(([, p]) => isObj(deref(p)) && (deref(p) as Obj)[flag] === true).map(([k]) => k) : [];
  const inherited = Array.isArray(s.allOf) ? s.allOf.flatMap((a) => flagged(a, flag, deref, depth + 1)) : [];
  return [...new Set([...own, ...inherited])];
}

/** A media type's schema as a type; `omit`: the properties left out (readOnly in requests, writeOnly in answers). */
function contentType(content: MediaContent, ctx: SchemaTypeContext, omit: 'readOnly' | 'writeOnly', indent: string): string {
  const schema = content.schema;
  const keys = flagged(schema, omit, ctx.deref);
  const isRef = isObj(schema) && typeof schema.$ref === 'string' && ctx.refName(schema.$ref) !== undefined;
  if (keys.length && isRef) return `Omit<${ctx.refName((schema as Obj).$ref as string)}, ${keys.map((k) => JSON.stringify(k)).join(' | ')}>`;
  return schemaType(schema, { ...ctx, omit }, indent);
}

function operationType(op: Operation, ctx: SchemaTypeContext, indent: string): string {
  const inner = `${indent}  `;
  const lines: string[] = [];
  const groups: string[] = [];
  for (const where of ['query', 'header', 'path', 'cookie'] as const) {
    const params = op.parameters.filter((p) => p.in === where);
    if (!params.length) continue;
    const required = params.some((p) => p.required);
    const fields = params.map((p) => `${inner}    ${declarationComment(p.schema).trim() ? '' : ''}${propertyKey(p.name)}${p.required ? '' : '?'}: ${schemaType(p.schema, ctx, `${inner}    `)};\n`).join('');
    groups.push(`${inner}  ${where}${required ? '' : '?'}: {\n${fields}${inner}  };\n`);
  }
  lines.push(groups.length ? `${inner}parameters: {\n${groups.join('')}${inner}};\n` : `${inner}parameters: {};\n`);
  if (op.body) {
    const contents = op.body.contents.map((c) => `${inner}    ${JSON.stringify(c.type)}: ${contentType(c, ctx, 'readOnly', `${inner}    `)};\n`).join('');
    lines.push(`${inner}requestBody${op.body.required ? '' : '?'}: {\n${inner}  content: {\n${contents}${inner}  };\n${inner}};\n`);
  }
  const responses = op.responses.map((r) => {
    const code = r.code === 'DEFAULT' ? 'default' : r.code;
    const key = /^\d+$/.test(code) ? code : JSON.stringify(code);
    const body = r.contents.length
      ? `${inner}    content: {\n${r.contents.map((c) => `${inner}      ${JSON.stringify(c.type)}: ${contentType(c, ctx, 'writeOnly', `${inner}      `)};\n`).join('')}${inner}    };\n`
      : `${inner}    content?: never;\n`;
    return `${inner}  ${key}: {\n${body}${inner}  };\n`;
  });
  lines.push(`${inner}responses: {\n${responses.join('')}${inner}};\n`);
  return `{\n${lines.join('')}${indent}}`;
}
