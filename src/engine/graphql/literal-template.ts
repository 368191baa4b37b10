/**
 * Documents that differ only in their number and string literals (a list view asking page 3,
 * then page 4 with another filter bound) share one parsed, validated document: the first one of
 * a shape that passes validation becomes a template whose literals are variables
 * (`allPosts(page: $__mockyard_literal_0)`), and a later document of the same shape is only
 * tokenized — its literals become those variables' values. No parse, no validation.
 *
 * Only where this cannot change an answer:
 *   - a single query operation (no mutation: a failed run is redone the exact way), whose
 *     literals all sit where a built-in scalar is expected (Int, Float, String, ID; not in a
 *     variable's default value, which must stay constant);
 *   - each literal is checked as the literal rule would check it (a string where Int is
 *     expected, an Int out of 32 bits, …): a literal that fails is prepared the exact way, so
 *     its validation error is the same;
 *   - the caller runs the exact document again when the result carries errors (their
 *     `locations` are the template's).
 * An ID given as an integer literal keeps its digits (the value passed is its text).
 */
import {
  Kind, Lexer, Source, TokenKind, TypeInfo, getNamedType, isNonNullType, isListType, validate, visit, visitWithTypeInfo,
  type DocumentNode, type GraphQLInputType, type GraphQLSchema, type OperationDefinitionNode, type TypeNode, type ValueNode,
} from 'graphql';

const LITERALS = new Set<string>([TokenKind.INT, TokenKind.FLOAT, TokenKind.STRING, TokenKind.BLOCK_STRING]);
const SCALARS = new Set(['Int', 'Float', 'String', 'ID']);
export const HOISTED_PREFIX = '__mockyard_literal_';

export interface Literal {
  readonly kind: string;
  readonly value: string;
  readonly start: number;
}

/** A document's shape (its tokens with literals left out) and its literals, or undefined when it does not tokenize. */
export function tokenize(query: string): { shape: string; literals: Literal[] } | undefined {
  try {
    const lexer = new Lexer(new Source(query));
    let shape = '';
    const literals: Literal[] = [];
    for (let t = lexer.advance(); t.kind !== TokenKind.EOF; t = lexer.advance()) {
      if (LITERALS.has(t.kind)) {
        shape += '\u0001 ';
        literals.push({ kind: t.kind, value: t.value, start: t.start });
      } else shape += `${t.value ?? t.kind} `;
    }
    return { shape, literals };
  } catch {
    return undefined;
  }
}

export interface Template {
  readonly document: DocumentNode;
  readonly operation: OperationDefinitionNode;
  /** The scalar each literal stands for, in order. */
  readonly types: readonly string[];
}

function typeNode(type: GraphQLInputType): TypeNode {
  if (isNonNullType(type)) return { kind: Kind.NON_NULL_TYPE, type: typeNode(type.ofType) as never };
  if (isListType(type)) return { kind: Kind.LIST_TYPE, type: typeNode(type.ofType) };
  return { kind: Kind.NAMED_TYPE, name: { kind: Kind.NAME, value: getNamedType(type).name } };
}

/**
 * The template of a valid document (its literals as variables), or undefined where hoisting
 * could change the answer (see the module comment). `literals`: the document's, from tokenize.
 */
export function buildTemplate(schema: GraphQLSchema, document: DocumentNode, literals: readonly Literal[]): Template | undefined {
  if (literals.length === 0) return undefined;
  const operations = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  if (operations.length !== 1 || operations[0]!.operation !== 'query') return undefined;
  if (document.definitions.some((d) => d.kind !== Kind.OPERATION_DEFINITION && d.kind !== Kind.FRAGMENT_DEFINITION)) return undefined;
  const typeInfo = new TypeInfo(schema);
  const found: Array<{ start: number; type: GraphQLInputType }> = [];
  let fits = true;
  let inDefault = 0;
  const literal = (node: ValueNode) => {
    const type = typeInfo.getInputType();
    if (inDefault > 0 || type === null || type === undefined || !SCALARS.has(getNamedType(type).name) || node.loc === undefined) fits = false;
    else found.push({ start: node.loc.start, type });
  };
  visit(document, visitWithTypeInfo(typeInfo, {
    VariableDefinition: { enter: () => { inDefault++; }, leave: () => { inDefault--; } },
    IntValue: literal,
    FloatValue: literal,
    StringValue: literal,
  }));
  if (!fits || found.length !== literals.length || found.some((f, i) => f.start !== literals[i]!.start)) return undefined;
  // The same walk again, replacing each literal (source order) by its variable.
  let n = 0;
  const toVariable = (): ValueNode => ({ kind: Kind.VARIABLE, name: { kind: Kind.NAME, value: `${HOISTED_PREFIX}${n++}` } });
  const hoisted = visit(document, { IntValue: toVariable, FloatValue: toVariable, StringValue: toVariable }) as DocumentNode;
  const definitions = hoisted.definitions.map((d) => {
    if (d.kind !== Kind.OPERATION_DEFINITION) return d;
    const extra = found.map((f, i) => ({
      kind: Kind.VARIABLE_DEFINITION,
      variable: { kind: Kind.VARIABLE, name: { kind: Kind.NAME, value: `${HOISTED_PREFIX}${i}` } },
      type: typeNode(f.type),
    }));
    return { ...d, variableDefinitions: [...(d.variableDefinitions ?? []), ...extra] } as OperationDefinitionNode;
  });
  const template: DocumentNode = { kind: Kind.DOCUMENT, definitions };
  if (validate(schema, template).length > 0) return undefined;
  const operation = definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)!;
  return { document: template, operation, types: found.map((f) => getNamedType(f.type).name) };
}

const INT_MAX = 2147483647;
const INT_MIN = -2147483648;

/**
 * The variables standing for `literals` in `template`, or undefined when a literal is not what
 * its position expects (then the exact document gives the validation error).
 */
export function hoistedValues(template: Template, literals: readonly Literal[]): Record<string, unknown> | undefined {
  if (literals.length !== template.types.length) return undefined;
  const values: Record<string, unknown> = {};
  for (let i = 0; i < literals.length; i++) {
    const { kind, value } = literals[i]!;
    let v: unknown;
    switch (template.types[i]) {
      case 'Int': {
        if (kind !== TokenKind.INT) return undefined;
        const n = Number(value);
        if (n > INT_MAX || n < INT_MIN) return undefined;
        v = n;
        break;
      }
      case 'Float':
        if (kind !== TokenKind.INT && kind !== TokenKind.FLOAT) return undefined;
        v = Number(value);
        if (!Number.isFinite(v)) return undefined;
        break;
      case 'String':
        if (kind !== TokenKind.STRING && kind !== TokenKind.BLOCK_STRING) return undefined;
        v = value;
        break;
      case 'ID':
        if (kind !== TokenKind.INT && kind !== TokenKind.STRING && kind !== TokenKind.BLOCK_STRING) return undefined;
        v = value; // an integer literal's digits, as the ID scalar reads the literal
        break;
      default:
        return undefined;
    }
    values[`${HOISTED_PREFIX}${i}`] = v;
  }
  return values;
}
