/**
 * Flat header lists, `[name, value, name, value, …]`: what node:http (`rawHeaders`, `writeHead`)
 * and undici read and write without building a Headers object. Every Set-Cookie is its own entry.
 */

/** A flat header list. */
export type FlatHeaders = string[];

/** A platform Headers as a flat list (every Set-Cookie its own entry). */
export function flatHeaders(headers: Headers): FlatHeaders {
  const out: FlatHeaders = [];
  for (const [name, value] of headers) out.push(name, value);
  return out;
}

/** A flat list as a platform Headers. */
export function headersOf(flat: readonly string[]): Headers {
  const out = new Headers();
  for (let i = 0; i < flat.length; i += 2) out.append(flat[i]!, flat[i + 1]!);
  return out;
}

/** The first value of `name` (lower case) in a flat list, or undefined. */
export function flatGet(flat: readonly string[], name: string): string | undefined {
  for (let i = 0; i < flat.length; i += 2) {
    const n = flat[i]!;
    if (n.length === name.length && n.toLowerCase() === name) return flat[i + 1];
  }
  return undefined;
}
