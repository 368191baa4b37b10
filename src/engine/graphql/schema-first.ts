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
  buildSchema, getNamedType, getNullableType, isAbstractType, isEnumType, isListType,
  isObjectType, isScalarType, type GraphQLField, type GraphQLFieldResolver, type GraphQLNamedType, type GraphQLObjectType,
  type GraphQLOutputType, type GraphQLSchema, type GraphQLTypeResolver,
} from 'graphql';
import { HttpError } from '../../core/errors.js';
import type { Faker } from '@faker-js/faker';
import { seedOf } from '../schema-faker/faker.js';
import { numberForName, stringForName } from '../schema-faker/field-names.js';

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
        const s = this.of(goal.type.name);
        const input = inputOf(args);
        const id = input.id !== undefined && input.id !== null ? String(input.id) : String(s.next++);
        delete input.id;
        if (!s.order.includes(id)) s.order.push(id);
        s.removed.delete(id);
        s.set.set(id, scalarsOf(goal.type, input));
        return answerAs(f, entity(goal.type.name, id), goal.wrap);
      }
      const id = idArg(args);
      if (/^(update|edit|set|patch|modify|change)/i.test(name) && goal && id !== undefined) {
        const s = this.of(goal.type.name);
        if (s.removed.has(id)) return answerAs(f, null, goal.wrap);
        const input = inputOf(args);
        delete input.id;
        s.set.set(id, { ...(s.set.get(id) ?? {}), ...scalarsOf(goal.type, input) });
        return answerAs(f, entity(goal.type.name, id), goal.wrap);
      }
      if (/^(delete|remove|destroy)/i.test(name) && id !== undefined) {
        const type = goal?.type.name ?? [...this.types.keys()].find((t) => name.toLowerCase().includes(t.toLowerCase()));
        if (!type) return answerAs(f, null, undefined);
        const before = entity(type, id);
        if (before) this.of(type).removed.add(id);
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
    return { schema, fieldResolver, typeResolver };
  }
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

