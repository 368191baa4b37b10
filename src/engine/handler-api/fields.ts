/**
 * Name/value pairs (query strings, url-encoded forms, multipart fields) as a plain object: a name
 * seen once maps to its value, a repeated name to an array of its values in order. A field named
 * `__proto__` becomes an ordinary own property, never the object's prototype.
 */
export type Fields<V = string> = Record<string, V | V[]>;

export function collectFields<V>(pairs: Iterable<[string, V]>): Fields<V> {
  const out: Fields<V> = {};
  for (const [name, value] of pairs) {
    if (!Object.prototype.hasOwnProperty.call(out, name)) {
      if (name === '__proto__') Object.defineProperty(out, name, { value, enumerable: true, writable: true, configurable: true });
      else out[name] = value;
      continue;
    }
    const prev = out[name]!;
    if (Array.isArray(prev)) prev.push(value);
    else out[name] = [prev, value];
  }
  return out;
}

const EMPTY_QUERY = '';

/** Parses a raw query string (`?a=1&a=2&b=x`, with or without `?`). */
export function parseQuery(search: string): Fields {
  if (search === EMPTY_QUERY || search === '?') return {};
  return collectFields(new URLSearchParams(search));
}
