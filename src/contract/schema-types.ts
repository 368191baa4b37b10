/**
 * JSON Schema (OpenAPI 3.0 / 3.1 / Swagger 2.0 schema objects, and the schemas data is inferred
 * to) → TypeScript type text. `$ref`s to named schemas become their names; `allOf` an
 * intersection; `oneOf`/`anyOf` a union (with a discriminator, each alternative gets its tag as a
 * literal); `enum`/`const` literals; `nullable` (3.0) and a `null` type (3.1) `| null`;
 * `readOnly` properties `readonly`; `additionalProperties` an index signature; `prefixItems` a
 * tuple. What the emitter cannot say (a `not`, a recursive inline schema past its bound) is
 * `unknown`, never a guess.
 */
import { propertyKey } from './type-names.js';
import { isObj } from '../core/json-object.js';

type Obj = Record<string, unknown>;

export interface SchemaTypeContext {
  /** The type name a `$ref` points to (a named schema), or undefined to inline it. */
  refName(ref: string): string | undefined;
  /** Follows a `$ref` (for inlining and discriminators). */
  deref(node: unknown): unknown;
  /**
   * A property's type instead of its schema's (relation fields of data: `User['id']`), or
   * undefined. Given the object schema holding it.
   */
  propertyType?(owner: Obj, key: string, schema: unknown): string | undefined;
  /** Which properties to leave out of objects (request bodies: readOnly; answers: writeOnly). */
  omit?: 'readOnly' | 'writeOnly';
}

const literal = (v: unknown): string => (v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? JSON.stringify(v) : 'unknown');

function comment(schema: Obj, indent: string): string {
  const text = [schema.title, schema.description].filter((t): t is string => typeof t === 'string' && t.trim() !== '').join(' — ');
  const deprecated = schema.deprecated === true;
  if (!text && !deprecated) return '';
  const lines = text ? text.replace(/\*\//g, '*\\/').split('\n').map((l) => l.trimEnd()) : [];
  if (deprecated) lines.push('@deprecated');
  return lines.length === 1 ? `${indent}/** ${lines[0]} */\n` : `${indent}/**\n${lines.map((l) => `${indent} * ${l}`).join('\n')}\n${indent} */\n`;
}

const union = (parts: string[]): string => {
  const unique = [...new Set(parts)];
  if (unique.includes('unknown')) return 'unknown';
  return unique.length === 0 ? 'never' : unique.join(' | ');
};
const wrap = (t: string): string => (/[|&]/.test(t) && !/^\{[\s\S]*\}$/.test(t) ? `(${t})` : t);

/** The TypeScript type of `schema`, written at `indent` (its object members one level deeper). */
export function schemaType(schema: unknown, ctx: SchemaTypeContext, indent = '', depth = 0, seen: ReadonlySet<unknown> = new Set()): string {
  if (schema === true || schema === undefined) return 'unknown';
  if (schema === false) return 'never';
  if (!isObj(schema)) return 'unknown';
  if (typeof schema.$ref === 'string') {
    const name = ctx.refName(schema.$ref);
    if (name) return name;
    const target = ctx.deref(schema);
    if (seen.has(target) || depth > 24) return 'unknown';
    return schemaType(target, ctx, indent, depth + 1, new Set([...seen, target]));
  }
  if (depth > 24) return 'unknown';
  const next = (s: unknown) => schemaType(s, ctx, indent, depth + 1, seen);
  const nullable = schema.nullable === true || schema['x-nullable'] === true;
  const withNull = (t: string) => (nullable && t !== 'unknown' && !/\bnull\b/.test(t) ? `${wrap(t)} | null` : t);

  if ('const' in schema) return literal(schema.const);
  if (Array.isArray(schema.enum)) return withNull(union(schema.enum.map(literal)));

  const parts: string[] = [];
  if (Array.isArray(schema.allOf) && schema.allOf.length) parts.push(schema.allOf.map((s) => wrap(next(s))).join(' & '));
  for (const key of ['oneOf', 'anyOf'] as const) {
    const alts = schema[key];
    if (!Array.isArray(alts) || alts.length === 0) continue;
    const tag = isObj(schema.discriminator) && typeof schema.discriminator.propertyName === 'string' ? schema.discriminator : undefined;
    parts.push(wrap(union(alts.map((alt) => {
      const t = next(alt);
      if (!tag) return t;
      const value = discriminatorValue(tag as Obj, alt, ctx);
      return value === undefined ? t : `(${wrap(t)} & { ${propertyKey(tag.propertyName as string)}: ${JSON.stringify(value)} })`;
    }))));
  }
  const own = ownType(schema, ctx, indent, depth, seen);
  if (own !== undefined) parts.push(own);
  if (parts.length === 0) return withNull('unknown');
  return withNull(parts.length === 1 ? parts[0]! : parts.map(wrap).join(' & '));
}

/** The tag value of one alternative of a discriminated union: its key in `mapping`, else the referenced schema's name. */
function discriminatorValue(tag: Obj, alt: unknown, ctx: SchemaTypeContext): string | undefined {
  if (!isObj(alt) || typeof alt.$ref !== 'string') return undefined;
  const ref = alt.$ref;
  if (isObj(tag.mapping)) {
    for (const [value, target] of Object.entries(tag.mapping)) if (target === ref || (typeof target === 'string' && ref.endsWith(`/${target}`))) return value;
  }
  return ref.slice(ref.lastIndexOf('/') + 1);
}

/** The type `type` / `properties` / `items` say, or undefined when the schema says none. */
function ownType(schema: Obj, ctx: SchemaTypeContext, indent: string, depth: number, seen: ReadonlySet<unknown>): string | undefined {
  const types = Array.isArray(schema.type) ? (schema.type as unknown[]).filter((t): t is string => typeof t === 'string') : typeof schema.type === 'string' ? [schema.type] : [];
  const looksObject = isObj(schema.properties) || schema.additionalProperties !== undefined;
  const looksArray = schema.items !== undefined || Array.isArray(schema.prefixItems);
  if (types.length === 0) {
    if (looksObject) types.push('object');
    else if (looksArray) types.push('array');
    else return undefined;
  }
  return union(types.map((t) => {
    switch (t) {
      case 'null': return 'null';
      case 'boolean': return 'boolean';
      case 'integer': case 'number': return 'number';
      case 'string': return 'string';
      case 'array': return arrayType(schema, ctx, indent, depth, seen);
      case 'object': return objectType(schema, ctx, indent, depth, seen);
      default: return 'unknown';
    }
  }));
}

function arrayType(schema: Obj, ctx: SchemaTypeContext, indent: string, depth: number, seen: ReadonlySet<unknown>): string {
  if (Array.isArray(schema.prefixItems)) {
    const head = schema.prefixItems.map((s) => schemaType(s, ctx, indent, depth + 1, seen));
    const rest = schema.items === false ? '' : `, ...${wrap(schemaType(schema.items, ctx, indent, depth + 1, seen))}[]`;
    return `[${head.join(', ')}${rest}]`;
  }
  return `${wrap(schemaType(schema.items, ctx, indent, depth + 1, seen))}[]`;
}

function objectType(schema: Obj, ctx: SchemaTypeContext, indent: string, depth: number, seen: ReadonlySet<unknown>): string {
  const inner = `${indent}  `;
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : []);
  const lines: string[] = [];
  const properties = isObj(schema.properties) ? schema.properties : {};
  for (const [key, raw] of Object.entries(properties)) {
    const prop = ctx.deref(raw);
    const flags = isObj(prop) ? prop : {};
    if (ctx.omit && flags[ctx.omit] === true) continue;
    const type = ctx.propertyType?.(schema, key, raw) ?? schemaType(raw, ctx, inner, depth + 1, seen);
    const readonly = flags.readOnly === true && ctx.omit === undefined ? 'readonly ' : '';
    lines.push(`${comment(flags, inner)}${inner}${readonly}${propertyKey(key)}${required.has(key) ? '' : '?'}: ${type};`);
  }
  const extra = schema.additionalProperties;
  if (extra === true || isObj(extra) || (extra === undefined && lines.length === 0 && !isObj(schema.properties))) {
    const t = isObj(extra) ? schemaType(extra, ctx, inner, depth + 1, seen) : 'unknown';
    // An index signature must admit every named property's type.
    lines.push(`${inner}[key: string]: ${lines.length && t !== 'unknown' ? 'unknown' : t};`);
  }
  if (lines.length === 0) return 'Record<string, never>';
  return `{\n${lines.join('\n')}\n${indent}}`;
}

/** `schemaType`'s comment for a named declaration. */
export function declarationComment(schema: unknown, indent = ''): string {
  return isObj(schema) ? comment(schema, indent) : '';
}
