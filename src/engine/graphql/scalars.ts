/**
 * The two scalars a schema derived from data needs, as json-graphql-server defines them:
 * `Date` (fields whose values are all ISO 8601 timestamps such as `2017-07-03T00:00:00.000Z`;
 * stored and answered as that text) and `JSON` (objects, and lists of objects, answered as is).
 */
import { GraphQLError, GraphQLScalarType, Kind, valueFromASTUntyped } from 'graphql';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export function isIsoDate(value: unknown): value is string {
  if (typeof value !== 'string' || !ISO.test(value)) return false;
  const d = new Date(value);
  return !Number.isNaN(d.getTime()) && d.toISOString() === value;
}

function dateText(value: unknown): string {
  if (isIsoDate(value)) return value;
  const d = value instanceof Date ? value : new Date(value as string);
  if (Number.isNaN(d.getTime())) throw new GraphQLError(`Not a valid date: ${JSON.stringify(value)}`);
  return d.toISOString();
}

/** Dates travel as ISO text both ways (resolvers store the text, never a Date object). */
export const DateScalar = new GraphQLScalarType({
  name: 'Date',
  description: 'Date type',
  serialize: dateText,
  parseValue: dateText,
  parseLiteral(ast) {
    if (ast.kind !== Kind.STRING) throw new GraphQLError(`Query error: Can only parse dates strings, got a: ${ast.kind}`, { nodes: [ast] });
    if (Number.isNaN(Date.parse(ast.value))) throw new GraphQLError('Query error: not a valid date', { nodes: [ast] });
    return dateText(ast.value);
  },
});

export const JsonScalar = new GraphQLScalarType({
  name: 'JSON',
  description: 'Any JSON value',
  serialize: (v) => v,
  parseValue: (v) => v,
  parseLiteral: (ast, variables) => valueFromASTUntyped(ast, variables),
});
