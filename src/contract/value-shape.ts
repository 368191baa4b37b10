/**
 * The shape of JSON values seen in data (db.json, a folder of mocks, recorded bodies): every value
 * added widens it, and it becomes a JSON Schema (2020-12, as OpenAPI 3.1 takes it) that says no
 * more than the data showed — a field missing from some objects is optional, differing types are
 * a union, strings stay `string` (no literal unions guessed from the values seen).
 */

export interface Shape {
  kinds: Set<'null' | 'boolean' | 'integer' | 'number' | 'string'>;
  /** The items' shape when arrays were seen. */
  array?: Shape;
  /** When objects were seen: how many, and each property's shape and how many objects had it. */
  object?: { count: number; props: Map<string, { shape: Shape; count: number }> };
}

export type Schema = Record<string, unknown>;

export function emptyShape(): Shape {
  return { kinds: new Set() };
}

/** Widens `shape` by one value (bounded depth: deeper values count as any JSON). */
export function addValue(shape: Shape, value: unknown, depth = 0): Shape {
  if (depth > 32) return shape;
  if (value === null) shape.kinds.add('null');
  else if (typeof value === 'boolean') shape.kinds.add('boolean');
  else if (typeof value === 'number') shape.kinds.add(Number.isInteger(value) ? 'integer' : 'number');
  else if (typeof value === 'string') shape.kinds.add('string');
  else if (Array.isArray(value)) {
    shape.array ??= emptyShape();
    for (const item of value) addValue(shape.array, item, depth + 1);
  } else if (typeof value === 'object') {
    shape.object ??= { count: 0, props: new Map() };
    shape.object.count++;
    for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
      if (v === undefined) continue;
      let prop = shape.object.props.get(key);
      if (!prop) shape.object.props.set(key, (prop = { shape: emptyShape(), count: 0 }));
      prop.count++;
      addValue(prop.shape, v, depth + 1);
    }
  }
  return shape;
}

export function shapeOf(values: Iterable<unknown>): Shape {
  const shape = emptyShape();
  for (const v of values) addValue(shape, v);
  return shape;
}

/** Whether nothing was seen (an empty array's items): any JSON value. */
export function isEmptyShape(shape: Shape): boolean {
  return shape.kinds.size === 0 && !shape.array && !shape.object;
}

/** The shape as a JSON Schema (a type list for unions of scalars, else `anyOf`). */
export function shapeToSchema(shape: Shape): Schema {
  if (isEmptyShape(shape)) return {};
  const alternatives: Schema[] = [];
  const kinds = [...shape.kinds];
  const scalar = kinds.filter((k) => k !== 'null' && !(k === 'integer' && shape.kinds.has('number')));
  for (const k of scalar) alternatives.push({ type: k });
  if (shape.array) alternatives.push({ type: 'array', items: shapeToSchema(shape.array) });
  if (shape.object) {
    const properties: Record<string, Schema> = {};
    const required: string[] = [];
    for (const [key, prop] of shape.object.props) {
      properties[key] = shapeToSchema(prop.shape);
      if (prop.count === shape.object.count) required.push(key);
    }
    alternatives.push({ type: 'object', properties, ...(required.length ? { required } : {}) });
  }
  const nullable = shape.kinds.has('null');
  if (alternatives.length === 0) return { type: 'null' };
  if (alternatives.length === 1) {
    const only = alternatives[0]!;
    return nullable ? { ...only, type: [only.type, 'null'] } : only;
  }
  if (alternatives.every((a) => Object.keys(a).length === 1)) return { type: [...alternatives.map((a) => a.type as string), ...(nullable ? ['null'] : [])] };
  return { anyOf: [...alternatives, ...(nullable ? [{ type: 'null' }] : [])] };
}
