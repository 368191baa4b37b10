/**
 * Dot paths into JSON items (`address.city`), own properties only: `__proto__`, `constructor` or
 * inherited members are never reached, whatever the configuration or the query says.
 */
const hasOwn = Object.prototype.hasOwnProperty;

export type DotPath = readonly string[];

export function parseDotPath(path: string): DotPath {
  return path.split('.');
}

/** The value at `path` in `value`, or undefined. */
export function getAt(value: unknown, path: DotPath): unknown {
  let v = value;
  for (let i = 0; i < path.length; i++) {
    if (v === null || typeof v !== 'object') return undefined;
    const key = path[i]!;
    if (!hasOwn.call(v, key)) return undefined;
    v = (v as Record<string, unknown>)[key];
  }
  return v;
}
