/**
 * Schema-first GraphQL (`graphql: { schema: 'schema.graphql' }`): an SDL file of the mocks folder
 * answers every query with realistic, seeded data, and mutations change that state — what
 * `@graphql-tools/mock` does, plus state.
 *
 *   - Values come from the field's type and name, with the generator the OpenAPI backend uses
 *     (schema-faker/field-names.ts, faker): `email` an address, `firstName` a name, `title` a few
 *     words, `createdAt` a date, `price` an amount; enums one of their values, lists 2 to 4
 *     items. Seeded by type, id and field: the same object always reads the same, in a list and
 *     on its own, after a restart too.
 *   - Objects with an `id` are entities: a list field of `Query` (`users: [User!]!`) answers the
 *     type's entities (10 to start with, ids "1"…"10"; `first`/`limit`/`take` and
 *     `offset`/`skip` arguments slice it); a single field with an id argument (`user(id: ID!)`)
 *     the entity with that id (null once deleted); an entity's object fields point to entities
 *     of the list (`Post.author` is one of the users).
 *   - Mutations by name: `create…`/`add…` make an entity from the arguments (an input object's
 *     fields, or the arguments themselves) with the next id; `update…`/`edit…`/`set…` merge them
 *     into the entity with the given id; `delete…`/`remove…` take it out (answering it, `true`
 *     or its id, as the return type says). Other mutations answer generated values.
 *   - The file is read through the Vfs (so it works in the browser too) and again when it
 *     changes: a new type or field is in the next answer; the state is kept.
 */
import {
  buildSchema, coerceInputValue, getNamedType, getNullableType, isAbstractType, isEnumType, isListType,
  isObjectType, isScalarType, type GraphQLField, type GraphQLInputType, type GraphQLFieldResolver, type GraphQLNamedType, type GraphQLObjectType,
  type GraphQLOutputType, type GraphQLSchema, type GraphQLTypeResolver,
} from 'graphql';
import { HttpError } from '../../core/errors.js';
import type { Faker } from '@faker-js/faker';
import { seedOf } from '../schema-faker/faker.js';
import { numberForName, stringForName } from '../schema-faker/field-names.js';
import type { SchemaFirstType } from './types-view.js';

const INITIAL = 10;
const kType = Symbol('type');
const kId = Symbol('id');

interface Entity {
  [kType]: string;
  [kId]: string;
  [field: string]: unknown;
}

interface TypeState {
  /** Ids in list order (generated ones first, created ones appended). */
  order: string[];
  removed: Set<string>;
  /** Fields set by mutations, per id. */
  set: Map<string, Record<string, unknown>>;
  next: number;
}

export interface SchemaFirst {
  readonly schema: GraphQLSchema;
  readonly fieldResolver: GraphQLFieldResolver<unknown, unknown>;
  readonly typeResolver: GraphQLTypeResolver<unknown, unknown>;
  /** The entity types as the devtools' Data tab sees them (types-view.ts). */
  types(): SchemaFirstType[];
}

/** The state of a schema-first API (kept across edits of the SDL file). */
export class SchemaFirstState {
  private readonly types = new Map<string, TypeState>();

  private of(type: string): TypeState {
    let s = this.types.get(type);
    if (!s) {
      s = { order: Array.from({ length: INITIAL }, (_, i) => String(i + 1)), removed: new Set(), set: new Map(), next: INITIAL + 1 };
      this.types.set(type, s);
    }
    return s;
  }

  /** Every type back to its seed. */
  resetAll(): void {
    this.types.clear();
  }

  /** A new entity: `id` when given, else the next one. The one path of `create…` mutations and the Data tab's adds. */
  private insert(type: string, id: string | undefined, values: Record<string, unknown>): string {
    const s = this.of(type);
    const at = id ?? String(s.next++);
    if (!s.order.includes(at)) s.order.push(at);
    s.removed.delete(at);
    s.set.set(at, values);
    return at;
  }

  /** Fields set on an entity (`replace`: only these). The one path of `update…` mutations and the Data tab's edits. */
  private merge(type: string, id: string, values: Record<string, unknown>, replace: boolean): void {
    const s = this.of(type);
    s.set.set(id, replace ? values : { ...(s.set.get(id) ?? {}), ...values });
  }

  /** The one path of `delete…` mutations and the Data tab's deletes. */
  private remove(type: string, id: string): void {
    this.of(type).removed.add(id);
  }

  /** Builds the schema and its resolvers from SDL text (400-free: a broken file is a 500 naming it). */
  build(sdl: string, file: string, f: Faker): SchemaFirst {
    let schema: GraphQLSchema;
    try {
      schema = buildSchema(sdl);
    } catch (err) {
      throw new HttpError(500, `${file} is not a valid GraphQL schema: ${(err as Error).message}`);
    }
    const hasId = (t: GraphQLNamedType): boolean => isObjectType(t) && 'id' in t.getFields();
    const concrete = (t: GraphQLNamedType): GraphQLObjectType | undefined => (isAbstractType(t) ? schema.getPossibleTypes(t)[0] : isObjectType(t) ? t : undefined);

    const entity = (type: string, id: string): Entity | null => {
      const s = this.of(type);
      if (s.removed.has(id)) return null;
      return { [kType]: type, [kId]: id, ...(s.set.get(id) ?? {}) } as Entity;
    };
    const list = (type: string): Entity[] => {
      const s = this.of(type);
      return s.order.filter((id) => !s.removed.has(id)).map((id) => entity(type, id)!);
    };
    /** An entity of `type` chosen by `seed` among the current list (stable while the list is). */
    const pickOf = (type: string, seed: number): Entity | null => {
      const all = list(type);
      return all.length === 0 ? null : all[seed % all.length]!;
    };

    const generate = (type: GraphQLOutputType, owner: string, id: string, field: string, depth: number): unknown => {
      const t = getNullableType(type);
      const seed = seedOf(owner, id, field);
      f.seed(seed);
      if (isListType(t)) {
        const n = 2 + (seed % 3);
        const item = t.ofType as GraphQLOutputType;
        const named = concrete(getNamedType(item));
        if (named && hasId(named)) {
          const all = list(named.name);
          const start = seed % Math.max(all.length, 1);
          return all.length === 0 ? [] : Array.from({ length: Math.min(n, all.length) }, (_, i) => all[(start + i) % all.length]);
        }
        return Array.from({ length: n }, (_, i) => generate(item, owner, id, `${field}.${i}`, depth + 1));
      }
      if (isScalarType(t)) {
        switch (t.name) {
          case 'ID': return String(1 + (seed % 1000));
          case 'Int': return Math.round(numberForName(f, field) ?? f.number.int({ min: 0, max: 1000 }));
          case 'Float': return numberForName(f, field) ?? f.number.float({ min: 0, max: 1000, fractionDigits: 2 });
          case 'Boolean': return f.datatype.boolean();
          default: {
            const text = stringForName(f, field) ?? f.lorem.words(2);
            return text.charAt(0).toUpperCase() + text.slice(1);
          }
        }
      }
      if (isEnumType(t)) {
        const values = t.getValues();
        return values[seed % values.length]!.value;
      }
      const named = concrete(t as GraphQLNamedType);
      if (!named) return null;
      if (hasId(named)) return pickOf(named.name, seed);
      // A value object (an address, a price): nested under its owner, stable by path.
      return depth > 6 ? null : ({ [kType]: named.name, [kId]: `${owner}:${id}:${field}` } as Entity);
    };

    /** A mutation's values: its arguments, input objects flattened (`input: {…}`, `changes: {…}`). */
    const inputOf = (args: Record<string, unknown>): Record<string, unknown> => {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(args)) {
        if (v !== null && typeof v === 'object' && !Array.isArray(v)) Object.assign(out, v);
        else out[k] = v;
      }
      return out;
    };
    const idArg = (args: Record<string, unknown>): string | undefined => {
      for (const [k, v] of Object.entries(args)) if ((k === 'id' || k.endsWith('Id')) && (typeof v === 'string' || typeof v === 'number')) return String(v);
      const input = inputOf(args);
      return typeof input.id === 'string' || typeof input.id === 'number' ? String(input.id) : undefined;
    };
    /** The entity type a mutation works on: its return type, or the one entity field of a payload type. */
    const target = (f: GraphQLField<unknown, unknown>): { type: GraphQLObjectType; wrap?: string } | undefined => {
      const named = concrete(getNamedType(f.type));
      if (!named) return undefined;
      if (hasId(named)) return { type: named };
      const inner = Object.values(named.getFields()).filter((x) => { const n = concrete(getNamedType(x.type)); return n !== undefined && hasId(n) && !isListType(getNullableType(x.type)); });
      return inner.length === 1 ? { type: concrete(getNamedType(inner[0]!.type))!, wrap: inner[0]!.name } : undefined;
    };
    const answerAs = (f: GraphQLField<unknown, unknown>, e: Entity | null, wrap: string | undefined): unknown => {
      const t = getNamedType(f.type);
      if (isScalarType(t)) return t.name === 'Boolean' ? e !== null : e?.[kId] ?? null;
      if (wrap) return { [kType]: t.name, [kId]: e?.[kId] ?? 'none', [wrap]: e };
      return e;
    };

    const mutate = (f: GraphQLField<unknown, unknown>, args: Record<string, unknown>): unknown => {
      const name = f.name;
      const goal = target(f);
      if (goal === undefined && !/^(delete|remove|destroy)/i.test(name)) return generate(f.type, 'Mutation', JSON.stringify(args), name, 0);
      if (/^(create|add|insert|new|register)/i.test(name) && goal) {
        const input = inputOf(args);
        const given = input.id !== undefined && input.id !== null ? String(input.id) : undefined;
        delete input.id;
        const id = this.insert(goal.type.name, given, scalarsOf(goal.type, input));
        return answerAs(f, entity(goal.type.name, id), goal.wrap);
      }
      const id = idArg(args);
      if (/^(update|edit|set|patch|modify|change)/i.test(name) && goal && id !== undefined) {
        if (this.of(goal.type.name).removed.has(id)) return answerAs(f, null, goal.wrap);
        const input = inputOf(args);
        delete input.id;
        this.merge(goal.type.name, id, scalarsOf(goal.type, input), false);
        return answerAs(f, entity(goal.type.name, id), goal.wrap);
      }
      if (/^(delete|remove|destroy)/i.test(name) && id !== undefined) {
        const type = goal?.type.name ?? [...this.types.keys()].find((t) => name.toLowerCase().includes(t.toLowerCase()));
        if (!type) return answerAs(f, null, undefined);
        const before = entity(type, id);
        if (before) this.remove(type, id);
        return answerAs(f, before, goal?.wrap);
      }
      return generate(f.type, 'Mutation', JSON.stringify(args), name, 0);
    };

    const root = (f: GraphQLField<unknown, unknown>, args: Record<string, unknown>): unknown => {
      const named = concrete(getNamedType(f.type));
      if (named && hasId(named)) {
        if (isListType(getNullableType(f.type))) {
          let all: Entity[] = list(named.name);
          const skip = num(args.offset ?? args.skip);
          const take = num(args.first ?? args.limit ?? args.take);
          if (skip !== undefined) all = all.slice(skip);
          if (take !== undefined) all = all.slice(0, take);
          return all;
        }
        const id = idArg(args);
        return id !== undefined ? entity(named.name, id) : pickOf(named.name, 0);
      }
      return generate(f.type, 'Query', JSON.stringify(args), f.name, 0);
    };

    const fieldResolver: GraphQLFieldResolver<unknown, unknown> = (source, args, _ctx, info) => {
      const field = info.parentType.getFields()[info.fieldName]!;
      if (info.parentType === schema.getMutationType()) return mutate(field, args as Record<string, unknown>);
      if (info.parentType === schema.getQueryType()) return root(field, args as Record<string, unknown>);
      const e = source as Entity;
      if (e === null || typeof e !== 'object') return null;
      if (Object.prototype.hasOwnProperty.call(e, info.fieldName)) return e[info.fieldName];
      if (info.fieldName === 'id' && e[kId] !== undefined) return e[kId];
      return generate(field.type, e[kType] ?? info.parentType.name, e[kId] ?? '', info.fieldName, 1);
    };
    const typeResolver: GraphQLTypeResolver<unknown, unknown> = (value, _ctx, _info, abstract) => (value as Entity)?.[kType] ?? schema.getPossibleTypes(abstract)[0]?.name;

    const roots = new Set([schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()]);
    const types = (): SchemaFirstType[] =>
      Object.values(schema.getTypeMap())
        .filter((t): t is GraphQLObjectType => isObjectType(t) && !t.name.startsWith('__') && !roots.has(t) && hasId(t))
        .map((t) => this.typeView(t, generate));
    return { schema, fieldResolver, typeResolver, types };
  }

  /**
   * One entity type as a collection (types-view.ts): its live entities with the values GraphQL
   * answers for its scalar and enum fields; writes checked against the field types, then made
   * through the mutations' own methods (insert, merge, remove).
   */
  private typeView(t: GraphQLObjectType, generate: (type: GraphQLOutputType, owner: string, id: string, field: string, depth: number) => unknown): SchemaFirstType {
    const type = t.name;
    const fields = Object.values(t.getFields()).filter((f) => f.name !== 'id' && valueField(f));
    const live = (): string[] => {
      const s = this.of(type);
      return s.order.filter((id) => !s.removed.has(id));
    };
    const has = (id: string): boolean => {
      const s = this.of(type);
      return s.order.includes(id) && !s.removed.has(id);
    };
    const itemOf = (id: string): Record<string, unknown> => {
      const set = this.of(type).set.get(id) ?? {};
      const out: Record<string, unknown> = { id };
      for (const f of fields) out[f.name] = Object.prototype.hasOwnProperty.call(set, f.name) ? set[f.name] : generate(f.type, type, id, f.name, 1);
      return out;
    };
    const idOf = (v: unknown): string | undefined => (v === undefined || v === null ? undefined : typeof v === 'string' || typeof v === 'number' ? String(v) : badId(type, v));
    return {
      name: type,
      count: () => live().length,
      slice: (offset, limit) => live().slice(offset, offset + limit).map(itemOf),
      all: () => live().map(itemOf),
      get: (id) => (has(id) ? itemOf(id) : undefined),
      insert: (values) => {
        const checked = checkValues(t, values);
        const id = idOf(values.id);
        if (id !== undefined && has(id)) throw new HttpError(409, `${type} ${JSON.stringify(id)} already exists`);
        return itemOf(this.insert(type, id, checked));
      },
      update: (id, values, replace) => {
        const checked = checkValues(t, values);
        const given = idOf(values.id);
        if (given !== undefined && given !== id) throw new HttpError(400, `${type}.id cannot change (${JSON.stringify(id)} → ${JSON.stringify(given)})`);
        if (!has(id)) return undefined;
        this.merge(type, id, checked, replace);
        return itemOf(id);
      },
      remove: (id) => {
        if (!has(id)) return false;
        this.remove(type, id);
        return true;
      },
      replaceAll: (items) => {
        const rows = items.map((item, i) => {
          if (item === null || typeof item !== 'object' || Array.isArray(item)) throw new HttpError(400, `Item ${i} is not a JSON object`);
          return { id: idOf((item as Record<string, unknown>).id), values: checkValues(t, item as Record<string, unknown>, `Item ${i}: `) };
        });
        const given = rows.map((r) => r.id).filter((id): id is string => id !== undefined);
        if (new Set(given).size !== given.length) throw new HttpError(400, `Two items of ${type} have the same id`);
        // The next id after every numeric one (a loop: a spread of 100k+ ids overflows the call stack).
        const next = given.reduce((max, id) => (/^\d{1,15}$/.test(id) ? Math.max(max, Number(id)) : max), 0) + 1;
        const s: TypeState = { order: [], removed: new Set(), set: new Map(), next };
        this.types.set(type, s);
        // The ids are unique (checked above), so each is appended as insert would, without its search of the whole list.
        for (const r of rows) {
          const id = r.id ?? String(s.next++);
          s.order.push(id);
          s.set.set(id, r.values);
        }
        return s.order.length;
      },
      reset: () => {
        this.types.delete(type);
      },
    };
  }
}

/** A field the Data tab shows and sets: a scalar, an enum, or a list of those (object fields point to other entities). */
function valueField(f: GraphQLField<unknown, unknown>): boolean {
  const named = getNamedType(f.type);
  return isScalarType(named) || isEnumType(named);
}

function badId(type: string, v: unknown): never {
  throw new HttpError(400, `${type}.id must be a string or a number, not ${JSON.stringify(v)}`);
}

/** `values` (without `id`) checked against the type's fields, coerced as GraphQL coerces an argument; a 400 names every problem. */
function checkValues(t: GraphQLObjectType, values: Record<string, unknown>, prefix = ''): Record<string, unknown> {
  const fields = t.getFields();
  const out: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const [k, v] of Object.entries(values)) {
    if (k === 'id') continue;
    const f = fields[k];
    if (!f) {
      problems.push(`${t.name} has no field ${JSON.stringify(k)}`);
      continue;
    }
    if (!valueField(f)) {
      problems.push(`${t.name}.${k} is an object field (${String(f.type)}): it points to other entities and is not set here`);
      continue;
    }
    const coerced = coerceInputValue(v, f.type as GraphQLInputType, (path, _value, error) => problems.push(`${t.name}.${k}${path.map((p) => `[${p}]`).join('')}: ${error.message}`));
    if (coerced !== undefined) out[k] = coerced;
  }
  if (problems.length > 0) throw new HttpError(400, `${prefix}${problems.join('; ')}`, { details: { errors: problems } });
  return out;
}

function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : undefined;
}

/** The input values a type can hold as they are (scalars, enums, lists of those), by field name. */
function scalarsOf(type: GraphQLObjectType, input: Record<string, unknown>): Record<string, unknown> {
  const fields = type.getFields();
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(input)) {
    const f = fields[k];
    if (!f || v === undefined) continue;
    const named = getNamedType(f.type);
    if (isScalarType(named) || isEnumType(named)) out[k] = v;
  }
  return out;
}

