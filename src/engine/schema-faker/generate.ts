/**
 * Realistic JSON values from a JSON Schema (OpenAPI 3.0 / 3.1 / Swagger 2 schema objects), drawn
 * from a faker instance the caller seeds: the same seed gives the same value on every machine.
 * Host-neutral and free of OpenAPI routing, so any engine may use it (OpenAPI backend, GraphQL…).
 *
 * In order: the schema's own `example` / `examples[0]` (when `useExamples`), `const`, `x-faker`
 * (a faker method path), `enum`, `default`; then `allOf` (merged), `oneOf`/`anyOf` (one branch
 * drawn; a `discriminator` property set to the branch's mapping name), then the type: objects
 * (every property; `readOnly` left out of requests, `writeOnly` out of answers), arrays
 * (`minItems`/`maxItems`, default 1–3, `uniqueItems`), strings (by `format`, by field name,
 * `pattern`, lengths), numbers (by field name; min/max, exclusive bounds, `multipleOf`),
 * booleans. `nullable` / `["string","null"]` give the non-null type. Recursion is bounded by
 * `maxDepth` (deeper optional properties are left out, arrays empty).
 */
import type { Faker } from '@faker-js/faker';
import { fakerMethod, numberForName, stringForFormat, stringForName } from './field-names.js';
import { isObj } from '../../core/json-object.js';
import { singular } from '../store/plurals.js';

export type Schema = Record<string, unknown>;

export interface GenerateOptions {
  faker: Faker;
  /** Follows a `$ref` (`{ $ref: '#/components/schemas/Pet' }` → the schema); default: none. */
  deref?: (node: unknown) => unknown;
  /** `response` (default) leaves `writeOnly` out; `request` leaves `readOnly` out. */
  direction?: 'response' | 'request';
  /** Schema examples win (default true). */
  useExamples?: boolean;
  /** Nesting bound for recursive schemas (default 5). */
  maxDepth?: number;
  /** A value for a named property before its schema is asked (relations); `undefined` = none. */
  field?: (name: string, schema: Schema) => unknown;
}

const clone = <T>(v: T): T => (v === undefined ? v : (JSON.parse(JSON.stringify(v)) as T));

interface Run {
  o: GenerateOptions;
  f: Faker;
  deref: (node: unknown) => unknown;
  maxDepth: number;
}

/** Merges `allOf` branches (properties, required, the first type/format seen). */
export function mergeAllOf(schema: Schema, deref: (node: unknown) => unknown = (n) => n): Schema {
  const out: Schema = {};
  const properties: Schema = {};
  const required = new Set<string>();
  const visit = (s0: unknown, depth: number) => {
    const s = deref(s0);
    if (!isObj(s) || depth > 20) return;
    for (const [k, v] of Object.entries(s)) {
      if (k === 'allOf') continue;
      if (k === 'properties' && isObj(v)) Object.assign(properties, v);
      else if (k === 'required' && Array.isArray(v)) v.forEach((r) => typeof r === 'string' && required.add(r));
      else if (!(k in out)) out[k] = v;
    }
    if (Array.isArray(s.allOf)) for (const part of s.allOf) visit(part, depth + 1);
  };
  visit(schema, 0);
  if (Object.keys(properties).length) out.properties = properties;
  if (required.size) out.required = [...required];
  if (out.type === undefined && out.properties) out.type = 'object';
  return out;
}

function typesOf(s: Schema): string[] {
  const t = s.type;
  if (Array.isArray(t)) return t.filter((x): x is string => typeof x === 'string');
  if (typeof t === 'string') return [t];
  if (isObj(s.properties) || s.additionalProperties !== undefined) return ['object'];
  if (s.items !== undefined || s.prefixItems !== undefined) return ['array'];
  if (s.minimum !== undefined || s.maximum !== undefined || s.multipleOf !== undefined) return ['number'];
  return ['string'];
}

function exampleOf(s: Schema): { found: boolean; value?: unknown } {
  if (s.example !== undefined) return { found: true, value: s.example };
  if (Array.isArray(s.examples) && s.examples.length > 0) return { found: true, value: s.examples[0] };
  return { found: false };
}

/** The branch of a oneOf/anyOf, and the discriminator value that names it. */
function pickBranch(run: Run, s: Schema, branches: unknown[]): { branch: unknown; tag?: [string, string] } {
  const disc = isObj(s.discriminator) ? s.discriminator : undefined;
  const prop = typeof disc?.propertyName === 'string' ? disc.propertyName : undefined;
  const mapping = isObj(disc?.mapping) ? (disc!.mapping as Record<string, unknown>) : undefined;
  if (prop && mapping && Object.keys(mapping).length) {
    const name = run.f.helpers.arrayElement(Object.keys(mapping));
    const ref = mapping[name];
    const branch = branches.find((b) => isObj(b) && b.$ref === ref) ?? (typeof ref === 'string' ? { $ref: ref.includes('#') || ref.includes('/') ? ref : `#/components/schemas/${ref}` } : branches[0]);
    return { branch, tag: [prop, name] };
  }
  const branch = run.f.helpers.arrayElement(branches);
  if (prop && isObj(branch) && typeof branch.$ref === 'string') return { branch, tag: [prop, branch.$ref.split('/').pop()!] };
  return { branch };
}

function gen(run: Run, s0: unknown, name: string | undefined, depth: number): unknown {
  const s = run.deref(s0);
  if (s === true || s === undefined || (isObj(s) && Object.keys(s).length === 0)) return name ? (stringForName(run.f, name) ?? run.f.lorem.word()) : run.f.lorem.word();
  if (!isObj(s)) return null;
  if (run.o.useExamples !== false) {
    const ex = exampleOf(s);
    if (ex.found) return clone(ex.value);
  }
  if ('const' in s) return clone(s.const);
  if (typeof s['x-faker'] === 'string') {
    const v = fakerMethod(run.f, s['x-faker']);
    if (v !== undefined) return v;
  }
  if (Array.isArray(s.enum) && s.enum.length > 0) {
    const choices = s.enum.filter((v) => v !== null);
    return clone(run.f.helpers.arrayElement(choices.length ? choices : s.enum));
  }
  if (s.default !== undefined) return clone(s.default);
  if (Array.isArray(s.allOf)) return gen(run, mergeAllOf(s, run.deref), name, depth);
  const branches = Array.isArray(s.oneOf) ? s.oneOf : Array.isArray(s.anyOf) ? s.anyOf : undefined;
  if (branches && branches.length > 0) {
    const { branch, tag } = pickBranch(run, s, branches);
    const { oneOf: _o, anyOf: _a, discriminator: _d, ...rest } = s;
    const own = Object.keys(rest).some((k) => k === 'properties' || k === 'type' || k === 'required');
    const value = gen(run, own ? { allOf: [rest, branch] } : branch, name, depth);
    if (tag && isObj(value)) (value as Schema)[tag[0]] = tag[1];
    return value;
  }
  const types = typesOf(s).filter((t) => t !== 'null');
  if (types.length === 0) return null;
  const type = types[0]!;
  switch (type) {
    case 'object':
      return object(run, s, depth);
    case 'array':
      return array(run, s, name, depth);
    case 'integer':
    case 'number':
      return number(run, s, name, type === 'integer');
    case 'boolean':
      return run.f.datatype.boolean();
    default:
      return string(run, s, name);
  }
}

function object(run: Run, s: Schema, depth: number): Schema {
  const out: Schema = {};
  const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
  const props = isObj(s.properties) ? s.properties : {};
  const skip = run.o.direction === 'request' ? 'readOnly' : 'writeOnly';
  for (const [key, p0] of Object.entries(props)) {
    const p = run.deref(p0);
    if (isObj(p) && p[skip] === true) continue;
    if (depth >= run.maxDepth && !required.has(key)) continue;
    const hooked = run.o.field && isObj(p) ? run.o.field(key, p) : undefined;
    out[key] = hooked !== undefined ? hooked : gen(run, p, key, depth + 1);
  }
  for (const key of required) if (!(key in out) && !(key in props)) out[key] = run.f.lorem.word();
  if (Object.keys(props).length === 0 && isObj(s.additionalProperties) && depth < run.maxDepth) {
    for (let i = 0; i < 2; i++) out[run.f.lorem.word()] = gen(run, s.additionalProperties, undefined, depth + 1);
  }
  return out;
}

function array(run: Run, s: Schema, name: string | undefined, depth: number): unknown[] {
  const min = typeof s.minItems === 'number' ? s.minItems : 0;
  const max = typeof s.maxItems === 'number' ? s.maxItems : Math.max(min, 3);
  if (depth >= run.maxDepth) return min > 0 ? Array.from({ length: min }, () => gen(run, s.items, itemName(name), depth + 1)) : [];
  const n = run.f.number.int({ min: Math.max(min, Math.min(1, max)), max: Math.max(min, Math.min(max, min + 3)) });
  const out: unknown[] = [];
  const prefix = Array.isArray(s.prefixItems) ? s.prefixItems : [];
  const seen = new Set<string>();
  for (let tries = 0; out.length < n && tries < n * 10; tries++) {
    const item = gen(run, prefix[out.length] ?? s.items, itemName(name), depth + 1);
    if (s.uniqueItems === true) {
      const key = JSON.stringify(item);
      if (seen.has(key)) continue;
      seen.add(key);
    }
    out.push(item);
  }
  return out;
}

function itemName(name: string | undefined): string | undefined {
  if (!name) return name;
  return /photourls$/i.test(name) ? name : singular(name);
}

function number(run: Run, s: Schema, name: string | undefined, integer: boolean): number {
  let min = typeof s.minimum === 'number' ? s.minimum : undefined;
  let max = typeof s.maximum === 'number' ? s.maximum : undefined;
  if (typeof s.exclusiveMinimum === 'number') min = s.exclusiveMinimum + (integer ? 1 : 1e-6);
  else if (s.exclusiveMinimum === true && min !== undefined) min += integer ? 1 : 1e-6;
  if (typeof s.exclusiveMaximum === 'number') max = s.exclusiveMaximum - (integer ? 1 : 1e-6);
  else if (s.exclusiveMaximum === true && max !== undefined) max -= integer ? 1 : 1e-6;
  const step = typeof s.multipleOf === 'number' && s.multipleOf > 0 ? s.multipleOf : undefined;
  if (min === undefined && max === undefined && !step && name) {
    const byName = numberForName(run.f, name);
    if (byName !== undefined) return integer ? Math.round(byName) : byName;
  }
  const lo = min ?? (max !== undefined ? Math.min(0, max - 1000) : integer ? 1 : 0);
  const hi = max ?? lo + (integer ? 1000 : 1000);
  if (step) {
    const k = run.f.number.int({ min: Math.ceil(lo / step), max: Math.max(Math.ceil(lo / step), Math.floor(hi / step)) });
    return Number((k * step).toPrecision(12));
  }
  if (integer) return run.f.number.int({ min: Math.ceil(lo), max: Math.max(Math.ceil(lo), Math.floor(hi)) });
  return run.f.number.float({ min: lo, max: hi, fractionDigits: 2 });
}

function fit(run: Run, value: string, s: Schema): string {
  const min = typeof s.minLength === 'number' ? s.minLength : 0;
  const max = typeof s.maxLength === 'number' ? s.maxLength : Infinity;
  let v = value;
  if (v.length > max) v = v.slice(0, max);
  if (v.length < min) v += run.f.string.alpha(min - v.length);
  return v;
}

function string(run: Run, s: Schema, name: string | undefined): string {
  const format = typeof s.format === 'string' ? s.format : undefined;
  if (format) {
    const v = stringForFormat(run.f, format);
    if (v !== undefined) return format === 'date' || format === 'date-time' || format === 'uuid' ? v : fit(run, v, s);
  }
  if (typeof s.pattern === 'string') {
    try {
      const re = new RegExp(s.pattern, 'u');
      const v = run.f.helpers.fromRegExp(plainClasses(s.pattern.replace(/^\^/, '').replace(/\$$/, '')));
      if (re.test(v)) return v;
    } catch {
      // a pattern faker cannot draw from: fall through to the name/words below
    }
  }
  const byName = name ? stringForName(run.f, name) : undefined;
  if (byName !== undefined) return fit(run, byName, s);
  return fit(run, run.f.lorem.words({ min: 1, max: 3 }), s);
}

const CLASSES: Record<string, string> = { d: '0-9', w: 'a-zA-Z0-9_', s: ' ' };

/** `\d`, `\w`, `\s` written as the character ranges faker's fromRegExp understands. */
function plainClasses(pattern: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\' && i + 1 < pattern.length) {
      const next = pattern[i + 1]!;
      const range = CLASSES[next];
      out += range ? (inClass ? range : `[${range}]`) : c + next;
      i++;
      continue;
    }
    if (c === '[') inClass = true;
    else if (c === ']') inClass = false;
    out += c;
  }
  return out;
}

/** A value for `schema`. Seed `options.faker` first for a reproducible value. */
export function generate(schema: unknown, options: GenerateOptions, name?: string): unknown {
  const run: Run = { o: options, f: options.faker, deref: options.deref ?? ((n) => n), maxDepth: options.maxDepth ?? 5 };
  return gen(run, schema, name, 0);
}
